// The frame of the designer's modal dialogs: a titled box over a backdrop, focused when it opens
// (Escape or a click on the backdrop closes it), with its actions and Close at the bottom.
import { useEffect, useRef, type ReactNode } from 'react';
import { useActions } from '../store/context.js';

export function Dialog({
  title,
  testId,
  children,
  actions: footer,
}: {
  title: string;
  testId: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const actions = useActions();
  const titleId = `${testId}-title`;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // keyboard users land in the dialog (Escape closes it) unless a control took the focus
    const el = ref.current;
    if (el && !el.contains(document.activeElement)) el.focus();
  }, []);
  return (
    <div
      className="sw-dialog-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && actions.openDialog(null)}
    >
      <div
        ref={ref}
        tabIndex={-1}
        className="sw-dialog sw-dialog--wide"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            actions.openDialog(null);
          }
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        <div className="sw-dialog__actions">
          {footer}
          <button
            type="button"
            className="sw-button"
            data-testid={`${testId}-close`}
            onClick={() => actions.openDialog(null)}
          >
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
