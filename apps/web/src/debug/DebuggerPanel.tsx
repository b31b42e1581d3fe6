// The Debugger tab: what the app is paused at — the record, the node and the node's state (its
// stores' value for the record's key and their first entries) — the nodes the record went on to,
// Step (F10) and Resume (F8), and every breakpoint of the app.
import { useEffect, useRef } from 'react';
import { useApi } from '../api/context.js';
import { useActions, useDesigner } from '../store/context.js';
import { currentStop, debugCommand, useDebugStore, type DebugStop } from './debug-store.js';
import { Time } from '../time/Time.js';

const show = (v: unknown): string =>
  v === null || v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v);

export function DebuggerPanel() {
  const api = useApi();
  const actions = useActions();
  const view = useDebugStore((s) => s.view);
  const error = useDebugStore((s) => s.error);
  const stepRef = useRef<HTMLButtonElement>(null);
  const pause = view?.pause ?? null;
  const stop = currentStop(view);
  const step = () =>
    debugCommand(() => api.debug.step.mutate()).then(() => {
      const at = currentStop(useDebugStore.getState().view)?.nodeId;
      if (at) actions.select(at);
    });
  const resume = () => debugCommand(() => api.debug.resume.mutate());
  // A new pause takes the focus to Step (once the designer is in view), so the keyboard can
  // carry on from there.
  const visible = useDesigner((s) => s.view === 'designer');
  useEffect(() => {
    if (pause && visible) stepRef.current?.focus();
  }, [pause?.pauseId, visible]);
  useEffect(() => {
    if (!pause) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F10') {
        e.preventDefault();
        void step();
      } else if (e.key === 'F8') {
        e.preventDefault();
        void resume();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  if (!view) {
    return (
      <p className="sw-empty" data-testid="debugger-unavailable">
        {error ?? 'Deploy and start the app to set breakpoints.'}
      </p>
    );
  }
  return (
    <div className="sw-debugger" data-testid="debugger-panel">
      <div className="sw-debugger__head">
        {pause && stop ? (
          <p data-testid="debugger-paused">
            <span className="sw-chip sw-chip--warn">paused</span> at{' '}
            <button
              type="button"
              className="sw-link"
              onClick={() => stop.nodeId && actions.select(stop.nodeId)}
            >
              {stop.nodeId ?? stop.node}
            </button>{' '}
            <span className="sw-muted">
              ({stop.node}, task {stop.taskId}) · node {pause.position + 1} of {pause.stops.length}
              {pause.truncated ? '+' : ''} this record reached
              {pause.breakpointId === null ? ' · stepped into the next record' : ''}
            </span>
          </p>
        ) : (
          <p className="sw-muted" data-testid="debugger-running">
            {view.breakpoints.length === 0
              ? 'Running. Select a node and add a breakpoint in its settings.'
              : 'Running: the app pauses when a record matches a breakpoint.'}
          </p>
        )}
        <div className="sw-row">
          <button
            ref={stepRef}
            type="button"
            className="sw-button sw-button--small sw-button--primary"
            data-testid="debugger-step"
            disabled={!pause}
            title="Step (F10): the next node this record reaches; after the last, the next record"
            onClick={() => void step()}
          >
            Step
          </button>
          <button
            type="button"
            className="sw-button sw-button--small"
            data-testid="debugger-resume"
            disabled={!pause}
            title="Resume (F8)"
            onClick={() => void resume()}
          >
            Resume
          </button>
        </div>
      </div>
      {error && <p className="sw-field__error">{error}</p>}
      {pause && stop && (
        <div className="sw-debugger__body">
          <StopRecord stop={stop} />
          <StopState stop={stop} />
          <ol
            className="sw-debugger__trace"
            data-testid="debugger-trace"
            aria-label="Nodes this record reached"
          >
            {pause.stops.map((s, i) => (
              <li
                key={i}
                className={i === pause.position ? 'is-current' : undefined}
                aria-current={i === pause.position || undefined}
              >
                {s.nodeId ?? s.node}
              </li>
            ))}
          </ol>
        </div>
      )}
      <BreakpointList />
    </div>
  );
}

function StopRecord({ stop }: { stop: DebugStop }) {
  const r = stop.record;
  const headers = Object.entries(r.headers);
  return (
    <table className="sw-table" data-testid="debugger-record">
      <caption>Record</caption>
      <tbody>
        <tr>
          <th>key</th>
          <td data-testid="debugger-record-key">{show(r.key)}</td>
        </tr>
        <tr>
          <th>value</th>
          <td data-testid="debugger-record-value">{show(r.value)}</td>
        </tr>
        {'oldValue' in r && (
          <tr>
            <th>old value</th>
            <td>{show(r.oldValue)}</td>
          </tr>
        )}
        <tr>
          <th>timestamp</th>
          <td>
            <Time ms={r.timestamp} />
          </td>
        </tr>
        <tr>
          <th>from</th>
          <td>
            {r.topic === null ? 'a punctuation' : `${r.topic}-${r.partition}@${r.offset}`}
            {stop.from ? ` via ${stop.from}` : ''}
          </td>
        </tr>
        {headers.length > 0 && (
          <tr>
            <th>headers</th>
            <td>{headers.map(([k, v]) => `${k}: ${v}`).join(', ')}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

function StopState({ stop }: { stop: DebugStop }) {
  if (stop.state.length === 0) {
    return (
      <p className="sw-muted" data-testid="debugger-state">
        This node has no state stores.
      </p>
    );
  }
  return (
    <div data-testid="debugger-state">
      {stop.state.map((st) => (
        <table key={st.store} className="sw-table" data-testid="debugger-store">
          <caption>
            ⛁ {st.store} · {st.size} entr{st.size === 1 ? 'y' : 'ies'} · for key{' '}
            <code>{show(stop.record.key)}</code>:{' '}
            <strong data-testid="debugger-store-current">
              {st.current ? show(st.current.value) : 'no value'}
            </strong>
            {st.current?.window && (
              <span data-testid="debugger-store-window">
                {' '}
                in its latest {st.type === 'session' ? 'session' : 'window'}{' '}
                <Time ms={st.current.window.start} /> – <Time ms={st.current.window.end} />
              </span>
            )}
          </caption>
          <thead>
            <tr>
              <th>key</th>
              {windowed(st) && <th>start</th>}
              {windowed(st) && <th>end</th>}
              <th>value</th>
            </tr>
          </thead>
          <tbody>
            {st.entries.map((e, i) => {
              const w = windowed(st) ? windowOf(e.key) : null;
              return (
                <tr key={i}>
                  <td>{show(w ? w.key : e.key)}</td>
                  {w && (
                    <td>
                      <Time ms={w.start} />
                    </td>
                  )}
                  {w && (
                    <td>
                      <Time ms={w.end} />
                    </td>
                  )}
                  <td>{show(e.value)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ))}
    </div>
  );
}

type StoreView = DebugStop['state'][number];
const windowed = (st: StoreView) => st.type === 'window' || st.type === 'session';
/** A window or session store's entry key: `{key, start, end}`. */
function windowOf(key: unknown): { key: unknown; start: number; end: number } | null {
  const w = key as { key?: unknown; start?: unknown; end?: unknown } | null;
  return w !== null &&
    typeof w === 'object' &&
    typeof w.start === 'number' &&
    typeof w.end === 'number'
    ? { key: w.key, start: w.start, end: w.end }
    : null;
}

function BreakpointList() {
  const api = useApi();
  const actions = useActions();
  const breakpoints = useDebugStore((s) => s.view?.breakpoints ?? []);
  if (breakpoints.length === 0) return null;
  return (
    <table className="sw-table" data-testid="debugger-breakpoints">
      <caption>Breakpoints</caption>
      <tbody>
        {breakpoints.map((b) => (
          <tr key={b.id}>
            <td>
              <button type="button" className="sw-link" onClick={() => actions.select(b.nodeId)}>
                {b.nodeId}
              </button>
            </td>
            <td>
              <code>{b.condition ?? 'every record'}</code>
            </td>
            <td>
              {b.hits} hit{b.hits === 1 ? '' : 's'}
            </td>
            <td>
              <button
                type="button"
                className="sw-button sw-button--small sw-button--ghost"
                aria-label={`Remove the breakpoint on ${b.nodeId}`}
                onClick={() =>
                  void debugCommand(() => api.debug.removeBreakpoint.mutate({ id: b.id }))
                }
              >
                Remove
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
