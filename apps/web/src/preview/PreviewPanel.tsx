// Data preview before deploying (StreamSets-style): the unsaved canvas runs over sample records —
// typed in, or the latest records of a topic — in the runtime's test driver (preview.run), and
// every node shows the records that went in and came out. Nothing is written anywhere.
import { useState } from 'react';
import { useApi } from '../api/context.js';
import type { RouterOutputs } from '../api/types.js';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { parseRecordLines } from './parse-records.js';

type Result = RouterOutputs['preview']['run'];
type Ok = Extract<Result, { ok: true }>;

const show = (v: unknown) =>
  v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v);

function NodeRecords({ node }: { node: Ok['nodes'][number] }) {
  const actions = useActions();
  return (
    <details className="sw-preview__node" data-testid={`preview-node-${node.nodeId}`} open>
      <summary>
        <button type="button" className="sw-link" onClick={() => actions.select(node.nodeId)}>
          {node.nodeId}
        </button>{' '}
        <span className="sw-muted">{node.kind}</span>{' '}
        <span data-testid={`preview-counts-${node.nodeId}`}>
          {node.inputCount} in → {node.outputCount} out
        </span>
      </summary>
      <div className="sw-preview__io">
        <table className="sw-table">
          <thead>
            <tr>
              <th>in: key</th>
              <th>value</th>
            </tr>
          </thead>
          <tbody>
            {node.inputs.map((r, i) => (
              <tr key={i} data-testid={`preview-in-${node.nodeId}`}>
                <td>{show(r.key)}</td>
                <td>{show(r.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="sw-table">
          <thead>
            <tr>
              <th>out: key</th>
              <th>value</th>
              <th>to</th>
            </tr>
          </thead>
          <tbody>
            {node.outputs.map((r, i) => (
              <tr key={i} data-testid={`preview-out-${node.nodeId}`}>
                <td>{show(r.key)}</td>
                <td>{show(r.value)}</td>
                <td>{r.topic ? `topic ${r.topic}` : r.to.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

const ALL_INPUTS = '*';

/** Whether a source, table or global table of the design reads `topic`. */
function readsTopic(
  nodes: readonly { kind: string; config: Record<string, unknown> }[],
  topic: string,
) {
  return nodes.some(
    (n) =>
      (n.kind === 'source' || n.kind === 'table' || n.kind === 'globalTable') &&
      (n.config.topic === topic ||
        (Array.isArray(n.config.topics) && n.config.topics.includes(topic))),
  );
}

export function PreviewPanel() {
  const api = useApi();
  const store = useDesignerStore();
  const actions = useActions();
  const topics = useDesigner((s) => s.doc.topics);
  const nodes = useDesigner((s) => s.doc.nodes);
  // the topics the design reads: sampling all of them lets a join see its table and its stream
  const inputs = topics.map((t) => t.name).filter((name) => readsTopic(nodes, name));
  const [topic, setTopic] = useState('');
  const [mode, setMode] = useState<'typed' | 'sample'>('typed');
  const [text, setText] = useState('');
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = topic || (inputs.length > 1 ? ALL_INPUTS : (inputs[0] ?? topics[0]?.name ?? ''));
  const typedTopic = chosen === ALL_INPUTS ? (inputs[0] ?? '') : chosen;

  const run = async () => {
    setBusy(true);
    try {
      const records =
        mode === 'typed'
          ? parseRecordLines(text, typedTopic)
          : { sampleFromTopic: chosen === ALL_INPUTS ? inputs : chosen, limit: 20 };
      setResult(await api.preview.run.mutate({ topology: store.getState().doc, records }));
    } catch (e) {
      actions.notify('error', messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sw-preview" data-testid="preview-panel">
      <div className="sw-preview__form">
        <label>
          Topic{' '}
          <select
            data-testid="preview-topic"
            value={chosen}
            onChange={(e) => setTopic(e.target.value)}
          >
            {inputs.length > 1 && (
              <option value={ALL_INPUTS}>all input topics ({inputs.join(', ')})</option>
            )}
            {topics.map((t) => (
              <option key={t.name}>{t.name}</option>
            ))}
          </select>
        </label>
        <label className="sw-check">
          <input
            type="radio"
            checked={mode === 'typed'}
            onChange={() => setMode('typed')}
            data-testid="preview-typed"
          />{' '}
          typed records
        </label>
        <label className="sw-check">
          <input
            type="radio"
            checked={mode === 'sample'}
            onChange={() => setMode('sample')}
            data-testid="preview-sample"
          />{' '}
          latest 20 of {chosen === ALL_INPUTS ? 'each input topic, in time order' : 'the topic'}
        </label>
        <button
          type="button"
          className="sw-button sw-button--primary"
          data-testid="preview-run"
          disabled={busy || !chosen}
          onClick={() => void run()}
        >
          Run preview
        </button>
        <span className="sw-muted">runs the canvas as it is; nothing is written</span>
      </div>
      {mode === 'typed' && (
        <textarea
          className="sw-field__cel"
          rows={3}
          spellCheck={false}
          aria-label="Sample records, one per line: key: value"
          placeholder={
            'one record per line — key: value (value as JSON or text), or just a value; a line @topic sends the lines after it to that topic\nalice: {"amount": 120}'
          }
          data-testid="preview-records"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      )}
      {result && !result.ok && (
        <ul className="sw-field__errors" data-testid="preview-errors">
          {result.errors.map((e, i) => (
            <li key={i}>
              {e.path}: {e.message}
            </li>
          ))}
        </ul>
      )}
      {result && result.ok && (
        <div data-testid="preview-result">
          <p className="sw-muted" data-testid="preview-processed">
            {result.processed} record{result.processed === 1 ? '' : 's'} processed
            {result.errors.length > 0 ? ` · ${result.errors.length} processing errors` : ''}
          </p>
          {result.nodes.map((n) => (
            <NodeRecords key={n.nodeId} node={n} />
          ))}
        </div>
      )}
    </div>
  );
}
