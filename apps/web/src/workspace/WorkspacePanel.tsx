// The workspace: topologies saved in the runtime (workspace.* API), each with its versions. Save
// the canvas under a name (every save is a new version), open, rename, delete, and compare two
// versions as the runtime's structural diff (nodes, edges, topics, config; layout apart).
import { useCallback, useEffect, useState } from 'react';
import { useApi } from '../api/context.js';
import type { RouterOutputs } from '../api/types.js';
import { useActions, useDesigner, useDesignerStore } from '../store/context.js';
import { messageOf } from '../runtime/runtime-actions.js';
import type { TopologyDocument } from '@streamwright/topology-model';
import { localTime } from '../time/time-format.js';

type Entry = RouterOutputs['workspace']['list'][number];
type History = RouterOutputs['workspace']['history'];
type Diff = RouterOutputs['workspace']['diff'];

const time = (ms: number | string) => localTime(typeof ms === 'number' ? ms : Date.parse(ms));

function DiffView({ diff }: { diff: Diff }) {
  const d = diff.diff;
  return (
    <div className="sw-ws__diff" data-testid="workspace-diff">
      <p className="sw-muted">
        v{diff.from.version} → v{diff.to.version}
        {d.identical ? ': identical' : d.layoutOnly ? ': only the layout differs' : ''}
      </p>
      <ul className="sw-ws__summary">
        {d.summary.map((line, i) => (
          <li
            key={i}
            data-testid="workspace-diff-line"
            className={
              / added$/.test(line) ? 'is-added' : / removed$/.test(line) ? 'is-removed' : ''
            }
          >
            {line}
          </li>
        ))}
      </ul>
    </div>
  );
}

function EntryRow({ entry, reload }: { entry: Entry; reload: () => void }) {
  const api = useApi();
  const actions = useActions();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [history, setHistory] = useState<History | null>(null);
  const [pick, setPick] = useState<number[]>([]);
  const [diff, setDiff] = useState<Diff | null>(null);
  const fail = (e: unknown) => actions.notify('error', messageOf(e));

  const open = async (version?: number) => {
    try {
      const r = await api.workspace.open.query(
        version ? { name: entry.name, version } : { name: entry.name },
      );
      actions.setServerProblems(null);
      actions.load(r.topology as TopologyDocument);
      actions.notify('success', `Opened ${entry.name} v${r.version}`);
    } catch (e) {
      fail(e);
    }
  };
  const toggleHistory = async () => {
    if (history) {
      setHistory(null);
      return;
    }
    try {
      setHistory(await api.workspace.history.query({ name: entry.name }));
    } catch (e) {
      fail(e);
    }
  };
  const choose = async (version: number) => {
    const next = pick.includes(version)
      ? pick.filter((v) => v !== version)
      : [...pick, version].slice(-2);
    setPick(next);
    setDiff(null);
    if (next.length === 2) {
      const [a, b] = [...next].sort((x, y) => x - y) as [number, number];
      try {
        setDiff(await api.workspace.diff.query({ name: entry.name, from: a, to: b }));
      } catch (e) {
        fail(e);
      }
    }
  };
  const slug = entry.name.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <li className="sw-ws__entry" data-testid={`workspace-entry-${slug}`}>
      <div className="sw-ws__head">
        {renaming === null ? (
          <strong data-testid="workspace-name">{entry.name}</strong>
        ) : (
          <input
            type="text"
            aria-label={`New name for ${entry.name}`}
            data-testid="workspace-rename-input"
            value={renaming}
            autoFocus
            onChange={(e) => setRenaming(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setRenaming(null);
              if (e.key !== 'Enter') return;
              api.workspace.rename.mutate({ from: entry.name, to: renaming.trim() }).then(() => {
                setRenaming(null);
                reload();
              }, fail);
            }}
          />
        )}
        <span className="sw-muted">
          {entry.versions} version{entry.versions === 1 ? '' : 's'} · {time(entry.latest.savedAt)}
          {entry.latest.valid ? '' : ' · draft'}
        </span>
      </div>
      <div className="sw-ws__actions">
        <button
          type="button"
          className="sw-button sw-button--small"
          data-testid="workspace-open"
          onClick={() => void open()}
        >
          Open
        </button>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--ghost"
          data-testid="workspace-history"
          onClick={() => void toggleHistory()}
        >
          Versions
        </button>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--ghost"
          data-testid="workspace-rename"
          onClick={() => setRenaming(entry.name)}
        >
          Rename
        </button>
        <button
          type="button"
          className="sw-button sw-button--small sw-button--danger"
          data-testid="workspace-delete"
          onClick={() => {
            if (!window.confirm(`Delete ${entry.name} and all its versions?`)) return;
            api.workspace.delete.mutate({ name: entry.name }).then(reload, fail);
          }}
        >
          Delete
        </button>
      </div>
      {history && (
        <div className="sw-ws__history">
          <p className="sw-muted">Tick two versions to compare them.</p>
          <ul>
            {history.versions.map((v) => (
              <li key={v.version}>
                <label className="sw-check">
                  <input
                    type="checkbox"
                    data-testid={`workspace-pick-${v.version}`}
                    checked={pick.includes(v.version)}
                    onChange={() => void choose(v.version)}
                  />
                  v{v.version} · {time(v.savedAt)}
                  {v.message ? ` · ${v.message}` : ''}
                  {v.valid ? '' : ' · draft'}
                </label>{' '}
                <button
                  type="button"
                  className="sw-link"
                  data-testid={`workspace-open-${v.version}`}
                  onClick={() => void open(v.version)}
                >
                  open
                </button>
              </li>
            ))}
          </ul>
          {diff && <DiffView diff={diff} />}
        </div>
      )}
    </li>
  );
}

export function WorkspacePanel() {
  const api = useApi();
  const store = useDesignerStore();
  const actions = useActions();
  const appId = useDesigner((s) => s.doc.application.id);
  const [entries, setEntries] = useState<Entry[] | null>(null);
  const [name, setName] = useState('');
  const [message, setMessage] = useState('');

  const reload = useCallback(() => {
    api.workspace.list
      .query()
      .then(setEntries, (e: unknown) => actions.notify('error', messageOf(e)));
  }, [api, actions]);
  useEffect(reload, [reload]);

  const save = async () => {
    const target = (name.trim() || appId).trim();
    try {
      const r = await api.workspace.save.mutate({
        name: target,
        topology: store.getState().doc,
        ...(message.trim() ? { message: message.trim() } : {}),
      });
      actions.notify(
        r.valid ? 'success' : 'info',
        `Saved ${r.name} v${r.version}${r.valid ? '' : ` as a draft (${r.errors.length} problems)`}`,
      );
      setMessage('');
      reload();
    } catch (e) {
      actions.notify('error', messageOf(e));
    }
  };

  return (
    <div className="sw-ws" data-testid="workspace-panel">
      <div className="sw-field">
        <label htmlFor="ws-name">Save the canvas as</label>
        <input
          id="ws-name"
          type="text"
          data-testid="workspace-save-name"
          placeholder={appId}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="sw-field">
        <label htmlFor="ws-message">Message</label>
        <input
          id="ws-message"
          type="text"
          data-testid="workspace-save-message"
          placeholder="optional: what changed"
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void save()}
        />
      </div>
      <button
        type="button"
        className="sw-button sw-button--primary"
        data-testid="workspace-save"
        onClick={() => void save()}
      >
        Save version
      </button>
      <h3 className="sw-panel-title">Saved topologies</h3>
      {entries === null ? (
        <p className="sw-muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="sw-muted" data-testid="workspace-empty">
          Nothing saved yet.
        </p>
      ) : (
        <ul className="sw-ws__list">
          {entries.map((e) => (
            <EntryRow key={e.name} entry={e} reload={reload} />
          ))}
        </ul>
      )}
    </div>
  );
}
