// A shown time: local, with the epoch milliseconds and UTC instant in its tooltip and attributes
// (see time-format.ts for why one format).
import { localTime, timeTooltip } from './time-format.js';

export function Time({ ms, testId }: { ms: number; testId?: string }) {
  const iso = Number.isFinite(ms) && ms >= 0 && ms <= 8.64e15 ? new Date(ms).toISOString() : '';
  return (
    <time
      className="sw-time"
      dateTime={iso || undefined}
      title={timeTooltip(ms)}
      data-epoch={ms}
      data-testid={testId}
    >
      {localTime(ms)}
    </time>
  );
}
