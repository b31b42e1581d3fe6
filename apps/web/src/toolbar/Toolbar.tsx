// The top bar: document (New, Import, Export, Undo, Redo), the app lifecycle (Deploy, Start,
// Stop) with its state badge, and the switch between the designer and the Topics view.
import { useRef, useState, type ChangeEvent } from 'react';
import { useApi } from '../api/context.js';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { emptyDocument } from '../model/new-document.js';
import { requestDeploy, startApp, stopApp } from '../runtime/runtime-actions.js';
import { downloadText, exportDocument, fileNameFor, importDocument } from './file-io.js';
import { pasteText, runAutoLayout } from '../editing/commands.js';
import type { DeployMatch } from '../live/deploy-match.js';
import { stateBadgeTitle } from './state-badge-title.js';
import { currentStop, useDebugStore } from '../debug/debug-store.js';

function StateBadge() {
  const state = useDesigner((s) => s.live.status?.state ?? null);
  const status = useDesigner((s) => s.live.status ?? null);
  const deployed = useDesigner((s) => s.live.deployed);
  const connection = useDesigner((s) => s.live.connection);
  const match = useDesigner((s) => s.live.match);
  const runs = useDesigner((s) => s.live.deployment?.applicationId ?? null);
  const label =
    connection === 'closed'
      ? 'RUNTIME OFFLINE'
      : (state ?? (deployed ? 'NOT_RUNNING' : 'NOT DEPLOYED'));
  // What the app waits for and its last failure (app.status), as the badge's tooltip.
  const title = connection === 'closed' ? null : stateBadgeTitle(status);
  // Paused at a breakpoint the app is RUNNING to Kafka (as KafkaStreams#pause leaves it) but
  // processes nothing: the badge says so rather than showing a plain RUNNING.
  const pausedAt = useDebugStore((s) => currentStop(s.view)?.nodeId ?? null);
  const paused = connection !== 'closed' && state === 'RUNNING' && pausedAt !== null;
  const waiting = connection !== 'closed' && (status?.waitingFor.length ?? 0) > 0;
  return (
    <div className="sw-badge-group">
      <span
        className={`sw-badge sw-badge--${(connection === 'closed' ? 'offline' : (state ?? 'none')).toLowerCase()}`}
        data-testid="app-state"
        data-connection={connection}
        role="status"
        aria-label={`App state ${label}`}
        {...(title !== null ? { title } : {})}
      >
        {label.replace('_', ' ')}
      </span>
      {paused && (
        <span
          className="sw-badge-note sw-badge-note--warn"
          data-testid="app-paused"
          title={`Stopped at a breakpoint on ${pausedAt}: no record is processed until Step (F10) or Resume (F8).`}
        >
          paused at {pausedAt}
        </span>
      )}
      {waiting && (
        <span
          className="sw-badge-note sw-badge-note--warn"
          data-testid="app-waiting"
          {...(title !== null ? { title } : {})}
        >
          waiting for brokers
        </span>
      )}
      {connection === 'closed' && match.live.size > 0 && (
        <span
          className="sw-badge-note"
          data-testid="counters-stale"
          title="The counters are the last values the runtime sent before it went offline; they go live again when it is back."
        >
          counters stale
        </span>
      )}
      {match.state === 'modified' && (
        <span
          className="sw-badge-note sw-badge-note--warn"
          data-testid="modified-since-deploy"
          title={`Edited since deploy: ${deployNote(match)}. The running app runs the topology as deployed: counters show on the nodes it runs as drawn. Deploy to apply the edits.`}
        >
          edited since deploy: {deployNote(match)}
        </span>
      )}
      {match.state === 'other' && (
        <span
          className="sw-badge-note sw-badge-note--warn"
          data-testid="not-deployed"
          title={`This design is not the deployed topology${runs ? ` (the runtime runs ${runs})` : ''}: no counters are shown on it. Deploy to run this one instead.`}
        >
          not deployed{runs ? ` · runtime runs ${runs}` : ''}
        </span>
      )}
    </div>
  );
}

/** "2 changed, 1 added, 1 removed" nodes (or "settings changed" when only those did). */
function deployNote(match: DeployMatch): string {
  const parts = [
    match.changed.size > 0 ? `${match.changed.size} changed` : '',
    match.added.size > 0 ? `${match.added.size} added` : '',
    match.removed > 0 ? `${match.removed} removed` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'settings changed';
}

export function Toolbar() {
  const api = useApi();
  const store = useDesignerStore();
  const actions = useActions();
  const view = useDesigner((s) => s.view);
  const canUndo = useDesigner((s) => s.past.length > 0);
  const canRedo = useDesigner((s) => s.future.length > 0);
  const deployed = useDesigner((s) => s.live.deployed);
  const state = useDesigner((s) => s.live.status?.state ?? null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const run = async (task: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await task();
    } finally {
      setBusy(false);
    }
  };

  const onExport = () => {
    const doc = store.getState().doc;
    const result = exportDocument(doc);
    downloadText(fileNameFor(doc), result.text);
    if (result.canonical) actions.notify('success', `Exported ${fileNameFor(doc)}`);
    else
      actions.notify(
        'info',
        `Exported with ${result.problems} problem${result.problems === 1 ? '' : 's'} (not canonical until they are fixed)`,
      );
  };

  const onImport = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again must fire change again
    if (!file) return;
    const result = importDocument(await file.text());
    if (!result.ok) {
      actions.setServerProblems(result.problems, 'import');
      actions.notify(
        'error',
        `${file.name} was not imported: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`,
      );
      return;
    }
    actions.setServerProblems(null);
    actions.load(result.doc);
    actions.notify('success', `Imported ${file.name}`);
  };

  const showPlan = useDesigner((s) => s.showPlan);

  const onCopyJson = () => {
    const result = exportDocument(store.getState().doc);
    navigator.clipboard.writeText(result.text).then(
      () => actions.notify('success', 'Copied the topology JSON to the clipboard'),
      () => actions.notify('error', 'The browser refused the clipboard'),
    );
  };
  const onPaste = () => {
    navigator.clipboard.readText().then(
      (text) =>
        void pasteText(store, text).then((kind) => {
          if (kind === null && text.trim() !== '')
            actions.notify(
              'error',
              'The clipboard holds neither a topology, nodes nor describe() text',
            );
        }),
      () =>
        actions.notify(
          'error',
          'The browser refused to read the clipboard (press Ctrl+V on the canvas)',
        ),
    );
  };

  const running = state === 'RUNNING' || state === 'REBALANCING';
  return (
    <header className="sw-toolbar">
      <div className="sw-brand">
        <span className="sw-brand__mark" aria-hidden="true">
          ≋
        </span>
        Streamwright
      </div>
      <div className="sw-toolbar__group" role="group" aria-label="Document">
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="new"
          onClick={() => {
            actions.load(emptyDocument());
            actions.setServerProblems(null);
            actions.setView('designer');
          }}
        >
          New
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="import"
          onClick={() => fileInput.current?.click()}
        >
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="import-file"
          aria-label="Import topology JSON"
          onChange={(e) => void onImport(e)}
        />
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="export"
          onClick={onExport}
        >
          Export
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="copy-json"
          title="Copy the topology JSON to the clipboard"
          onClick={onCopyJson}
        >
          Copy JSON
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="paste"
          title="Paste from the clipboard: topology JSON, copied nodes or describe() text (Ctrl+V)"
          onClick={onPaste}
        >
          Paste
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="open-describe"
          title="Import the text of Kafka Streams' Topology#describe() as a canvas"
          onClick={() => actions.openDialog('describe')}
        >
          describe()…
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="open-code"
          title="Export the design as TypeScript DSL code"
          onClick={() => actions.openDialog('code')}
        >
          Code
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          aria-label="Undo"
          title="Undo (Ctrl+Z)"
          disabled={!canUndo}
          onClick={actions.undo}
        >
          ↶
        </button>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          aria-label="Redo"
          title="Redo (Ctrl+Shift+Z)"
          disabled={!canRedo}
          onClick={actions.redo}
        >
          ↷
        </button>
      </div>
      <div className="sw-toolbar__group" role="group" aria-label="Canvas">
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="auto-layout"
          title="Auto-layout (L)"
          onClick={() => void runAutoLayout(store)}
        >
          Layout
        </button>
        <label
          className="sw-check"
          title="Draw sub-topologies, repartition topics and state stores"
        >
          <input
            type="checkbox"
            data-testid="toggle-plan"
            checked={showPlan}
            onChange={(e) => actions.setShowPlan(e.target.checked)}
          />{' '}
          Plan
        </label>
        <button
          type="button"
          className="sw-button sw-button--ghost"
          data-testid="open-shortcuts"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => actions.openDialog('shortcuts')}
        >
          ?
        </button>
      </div>
      <div
        className="sw-toolbar__group sw-toolbar__group--app"
        role="group"
        aria-label="Application"
      >
        <button
          type="button"
          className="sw-button sw-button--primary"
          data-testid="deploy"
          disabled={busy}
          onClick={() => void run(() => requestDeploy(api, store))}
        >
          Deploy
        </button>
        <button
          type="button"
          className="sw-button"
          data-testid="start"
          disabled={busy || !deployed || running}
          onClick={() => void run(() => startApp(api, store))}
        >
          Start
        </button>
        <button
          type="button"
          className="sw-button"
          data-testid="stop"
          disabled={busy || !deployed || !running}
          onClick={() => void run(() => stopApp(api, store))}
        >
          Stop
        </button>
        <StateBadge />
      </div>
      <nav className="sw-toolbar__tabs" aria-label="Views">
        <button
          type="button"
          className={`sw-tab${view === 'designer' ? ' is-active' : ''}`}
          aria-pressed={view === 'designer'}
          data-testid="view-designer"
          onClick={() => actions.setView('designer')}
        >
          Designer
        </button>
        <button
          type="button"
          className={`sw-tab${view === 'topics' ? ' is-active' : ''}`}
          aria-pressed={view === 'topics'}
          data-testid="view-topics"
          onClick={() => actions.setView('topics')}
        >
          Topics
        </button>
      </nav>
    </header>
  );
}
