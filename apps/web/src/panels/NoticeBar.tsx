// The status line over the canvas: the latest notice (a refused connection, a deploy result).
// Errors stay longer than confirmations; either can be dismissed.
import { useEffect } from 'react';
import { useActions, useDesigner } from '../store/context.js';

const DURATION_MS = { info: 5000, success: 5000, error: 12000 } as const;

export function NoticeBar() {
  const notice = useDesigner((s) => s.notice);
  const actions = useActions();
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => actions.dismissNotice(notice.id), DURATION_MS[notice.tone]);
    return () => clearTimeout(timer);
  }, [notice, actions]);
  return (
    <div className="sw-notice-slot" aria-live="polite">
      {notice && (
        <div
          className={`sw-notice sw-notice--${notice.tone}`}
          role={notice.tone === 'error' ? 'alert' : 'status'}
          data-testid="notice"
          data-tone={notice.tone}
        >
          <span>{notice.text}</span>
          <button
            type="button"
            className="sw-icon-button"
            aria-label="Dismiss"
            onClick={() => actions.dismissNotice(notice.id)}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
