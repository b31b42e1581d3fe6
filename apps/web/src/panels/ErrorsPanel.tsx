// Processing errors of the running app, newest first: which processor, what went wrong, the
// exception handler's decision, the record that caused it and, with a dead-letter topic
// configured (errors.dead.letter.queue.topic.name), its copy there.
import { useActions, useDesigner } from '../store/context.js';
import { DeadLetterRecord } from './DeadLetterRecord.js';
import { Time } from '../time/Time.js';

function show(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value);
}

export function ErrorsPanel() {
  const errors = useDesigner((s) => s.live.status?.errors);
  const actions = useActions();
  if (!errors || errors.length === 0) return <p className="sw-empty">No processing errors.</p>;
  return (
    <ul className="sw-errors" data-testid="errors-list">
      {errors.map((e, i) => (
        <li key={`${e.at}:${i}`} className="sw-error" data-testid="processing-error">
          <div className="sw-error__head">
            <span
              className={`sw-chip ${e.handling === 'fail' ? 'sw-chip--error' : 'sw-chip--warn'}`}
            >
              {e.handling === 'fail' ? 'task failed' : 'skipped'}
            </span>
            <span>
              task <code>{e.taskId}</code> · processor{' '}
              {e.modelNodeId ? (
                <button
                  type="button"
                  className="sw-link"
                  onClick={() => actions.select(e.modelNodeId ?? null)}
                >
                  {e.processor}
                </button>
              ) : (
                <code>{e.processor}</code>
              )}
            </span>
            <span className="sw-muted">
              <Time ms={e.at} />
            </span>
          </div>
          <div className="sw-error__message" data-testid="processing-error-message">
            {e.message}
          </div>
          {e.record && (
            <div className="sw-error__record" data-testid="processing-error-record">
              <span className="sw-muted">
                {e.record.topic}-{e.record.partition}@{e.record.offset}
              </span>{' '}
              key <code>{show(e.record.key)}</code> value <code>{show(e.record.value)}</code>
            </div>
          )}
          {e.deadLetter && <DeadLetterRecord deadLetter={e.deadLetter} />}
        </li>
      ))}
    </ul>
  );
}
