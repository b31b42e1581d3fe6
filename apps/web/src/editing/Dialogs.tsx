// The designer's modal dialogs: Connect… (keyboard edges), Import describe() text, the DSL code
// export and the keyboard shortcuts. Each traps nothing fancy: it focuses its first control and
// closes on Escape.
import { useEffect, useMemo, useRef, useState } from 'react';
import { exportDsl } from '@streamwright/codegen';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { connect } from '../model/operations.js';
import { downloadText } from '../toolbar/file-io.js';
import { connectCandidates } from './connect-candidates.js';
import { loadDescribe } from './commands.js';
import { SHORTCUTS } from './shortcuts.js';
import { DeployBreaksDialog } from './DeployBreaksDialog.js';
import { Dialog } from './Dialog.js';

function ConnectDialog() {
  const store = useDesignerStore();
  const actions = useActions();
  const nodeId = useDesigner((s) => s.selectedNodeId);
  const doc = useDesigner((s) => s.doc);
  const [filter, setFilter] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const candidates = useMemo(() => (nodeId ? connectCandidates(doc, nodeId) : []), [doc, nodeId]);
  const shown = candidates.filter((c) => c.label.toLowerCase().includes(filter.toLowerCase()));
  const choose = (i: number) => {
    const c = shown[i];
    if (!c) return;
    const result = connect(store.getState().doc, c.edge);
    if (result.ok) {
      actions.apply(result.diff);
      actions.notify('success', `Connected ${c.label}`);
    } else actions.notify('error', `Connection refused: ${result.reason}`);
    actions.openDialog(null);
  };
  return (
    <Dialog title={nodeId ? `Connect ${nodeId}…` : 'Connect…'} testId="connect-dialog">
      {!nodeId ? (
        <p>Select a node first (click it, or Tab to it and press Enter).</p>
      ) : (
        <>
          <p>
            Every edge topology-model accepts for this node. Type to filter, ↓ / Enter to choose.
          </p>
          <input
            ref={input}
            type="text"
            className="sw-dialog__filter"
            aria-label="Filter connections"
            data-testid="connect-filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') choose(0);
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                (
                  document.querySelector('[data-testid="connect-option"]') as HTMLElement | null
                )?.focus();
              }
            }}
          />
          {shown.length === 0 ? (
            <p className="sw-muted" data-testid="connect-none">
              No valid connection{filter ? ' matches' : ''}.
            </p>
          ) : (
            <ul className="sw-dialog__list" role="listbox" aria-label="Connections">
              {shown.map((c, i) => (
                <li key={c.label}>
                  <button
                    type="button"
                    role="option"
                    aria-selected={false}
                    className="sw-link"
                    data-testid="connect-option"
                    data-edge={c.label}
                    onClick={() => choose(i)}
                    onKeyDown={(e) => {
                      const items = [
                        ...document.querySelectorAll<HTMLElement>('[data-testid="connect-option"]'),
                      ];
                      if (e.key === 'ArrowDown') items[i + 1]?.focus();
                      else if (e.key === 'ArrowUp') (items[i - 1] ?? input.current)?.focus();
                      else return;
                      e.preventDefault();
                    }}
                  >
                    {c.label}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Dialog>
  );
}

function DescribeDialog() {
  const store = useDesignerStore();
  const actions = useActions();
  const [text, setText] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => area.current?.focus(), []);
  return (
    <Dialog
      title="Import Kafka Streams describe()"
      testId="describe-dialog"
      actions={
        <button
          type="button"
          className="sw-button sw-button--primary"
          data-testid="describe-import"
          disabled={text.trim() === ''}
          onClick={() =>
            void loadDescribe(store, text).then((ok) => {
              if (ok) actions.openDialog(null);
            })
          }
        >
          Import as canvas
        </button>
      }
    >
      <p>
        Paste the output of <code>topology.describe()</code>. Names, topics and stores are filled
        in; the logic (predicates, mappers, aggregators) is left for you, and the Problems tab lists
        it.
      </p>
      <textarea
        ref={area}
        className="sw-field__cel sw-dialog__text"
        rows={14}
        spellCheck={false}
        aria-label="describe() text"
        data-testid="describe-text"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </Dialog>
  );
}

function CodeDialog() {
  const doc = useDesigner((s) => s.doc);
  const actions = useActions();
  const { code, unsupported } = useMemo(() => exportDsl(doc), [doc]);
  const file = `${doc.application.id || 'topology'}.ts`;
  return (
    <Dialog
      title="TypeScript DSL code"
      testId="code-dialog"
      actions={
        <>
          <button
            type="button"
            className="sw-button"
            data-testid="code-copy"
            onClick={() =>
              void navigator.clipboard.writeText(code).then(
                () => actions.notify('success', 'Copied the code'),
                () => actions.notify('error', 'The browser refused the clipboard'),
              )
            }
          >
            Copy
          </button>
          <button
            type="button"
            className="sw-button sw-button--primary"
            data-testid="code-download"
            onClick={() => downloadText(file, code)}
          >
            Download {file}
          </button>
        </>
      }
    >
      <p>
        The design as a program on <code>@streamwright/engine</code>&apos;s DSL (Kafka Streams&apos;
        API names).
        {unsupported.length > 0 && ` Not expressed: ${unsupported.join(', ')}.`}
      </p>
      <pre className="sw-code" data-testid="code-text" tabIndex={0}>
        {code}
      </pre>
    </Dialog>
  );
}

function ShortcutsDialog() {
  return (
    <Dialog title="Keyboard shortcuts" testId="shortcuts-dialog">
      <table className="sw-table" data-testid="shortcuts-table">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys}>
              <td>
                <kbd>{s.keys}</kbd>
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}

export function Dialogs() {
  const dialog = useDesigner((s) => s.dialog);
  switch (dialog) {
    case 'connect':
      return <ConnectDialog />;
    case 'describe':
      return <DescribeDialog />;
    case 'code':
      return <CodeDialog />;
    case 'shortcuts':
      return <ShortcutsDialog />;
    case 'deployBreaks':
      return <DeployBreaksDialog />;
    default:
      return null;
  }
}
