// A refused import: every error with its path. Nothing of the file was applied.
import { useEffect, useRef } from 'react';
import { useActions, useDesigner } from '../store/context.js';

export function ImportErrorsDialog() {
  const server = useDesigner((s) => s.serverProblems);
  const actions = useActions();
  const close = useRef<HTMLButtonElement>(null);
  const open = server?.origin === 'import';
  useEffect(() => {
    if (open) close.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="sw-dialog-backdrop">
      <div
        className="sw-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="import-errors-title"
        data-testid="import-errors"
        onKeyDown={(e) => e.key === 'Escape' && actions.setServerProblems(null)}
      >
        <h2 id="import-errors-title">The file was not imported</h2>
        <p>
          Nothing was changed. Fix{' '}
          {server.problems.length === 1
            ? 'this problem'
            : `these ${server.problems.length} problems`}{' '}
          in the file and import it again:
        </p>
        <ul className="sw-dialog__list">
          {server.problems.map((p, i) => (
            <li key={i} data-testid="import-error">
              <code className="sw-problem__path" data-testid="import-error-path">
                {p.path || '(document)'}
              </code>
              <span data-testid="import-error-message">{p.message}</span>
            </li>
          ))}
        </ul>
        <div className="sw-dialog__actions">
          <button
            ref={close}
            type="button"
            className="sw-button"
            data-testid="close-import-errors"
            onClick={() => actions.setServerProblems(null)}
          >
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
