// The selected node's breakpoints (in its settings, while the app runs): add one, optionally with
// a CEL condition checked as you type (syntax and type errors with a caret, as in node config),
// and remove them.
import { useEffect, useState } from 'react';
import { checkExpression } from '@streamwright/topology-model/expressions';
import { useApi } from '../api/context.js';
import { CaretLine } from '../forms/FieldControl.js';
import { useDesigner } from '../store/context.js';
import { debugCommand, useDebugStore } from './debug-store.js';
import { nodeLiveState } from '../live/deploy-match.js';

export function BreakpointEditor({ nodeId }: { nodeId: string }) {
  const api = useApi();
  const running = useDesigner(
    (s) =>
      s.live.status?.state === 'RUNNING' &&
      nodeLiveState(s.live.match, nodeId, s.live.connection) === 'live',
  );
  const breakpoints = useDebugStore((s) => s.view?.breakpoints);
  const error = useDebugStore((s) => s.error);
  const [condition, setCondition] = useState('');
  useEffect(() => setCondition(''), [nodeId]);
  if (!running) return null;
  const mine = (breakpoints ?? []).filter((b) => b.nodeId === nodeId);
  const trimmed = condition.trim();
  const check = trimmed === '' ? null : checkExpression(trimmed, 'filter');
  const invalid = check !== null && !check.ok;
  const add = async () => {
    if (invalid) return;
    const ok = await debugCommand(() =>
      api.debug.setBreakpoint.mutate({ nodeId, ...(trimmed ? { condition: trimmed } : {}) }),
    );
    if (ok) setCondition('');
  };
  return (
    <section className="sw-breakpoints" data-testid="breakpoint-editor" aria-label="Breakpoints">
      <h4>Breakpoints</h4>
      {mine.length > 0 && (
        <ul className="sw-breakpoints__list">
          {mine.map((b) => (
            <li key={b.id} data-testid="breakpoint-row">
              <span className="sw-breakpoint-dot" aria-hidden="true" />
              <code>{b.condition ?? 'every record'}</code>
              <span className="sw-muted">
                {b.hits} hit{b.hits === 1 ? '' : 's'}
              </span>
              <button
                type="button"
                className="sw-button sw-button--small sw-button--ghost"
                data-testid="breakpoint-remove"
                aria-label={`Remove breakpoint ${b.condition ?? 'on every record'}`}
                onClick={() =>
                  void debugCommand(() => api.debug.removeBreakpoint.mutate({ id: b.id }))
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={`sw-field${invalid ? ' is-invalid' : ''}`}>
        <label htmlFor={`bp-condition-${nodeId}`}>Condition</label>
        <input
          id={`bp-condition-${nodeId}`}
          type="text"
          className="sw-field__cel"
          data-testid="breakpoint-condition"
          value={condition}
          placeholder="empty: every record"
          aria-invalid={invalid || undefined}
          onChange={(e) => setCondition(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void add();
            }
          }}
        />
        <p className="sw-field__hint">
          CEL over <code>key</code>, <code>value</code>, <code>timestamp</code>,{' '}
          <code>headers</code>, returning a bool. Enter adds the breakpoint.
        </p>
        {check && !check.ok && (
          <div className="sw-field__error" data-testid="breakpoint-condition-error" role="alert">
            {check.kind} error at {check.position.line}:{check.position.column}: {check.message}
            <CaretLine source={trimmed} line={check.position.line} column={check.position.column} />
          </div>
        )}
      </div>
      {error && <p className="sw-field__error">{error}</p>}
      <button
        type="button"
        className="sw-button sw-button--small"
        data-testid="breakpoint-add"
        disabled={invalid}
        onClick={() => void add()}
      >
        Add breakpoint
      </button>
    </section>
  );
}
