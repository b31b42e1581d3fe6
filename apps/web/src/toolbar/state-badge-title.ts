// The state badge's tooltip: what the app waits for (unreachable brokers, since when) and its last
// failure (a failed deploy or start, or the error that stopped it), from app.status.
import type { AppStatus } from '../api/types.js';
import { localTime } from '../time/time-format.js';

type BadgeStatus = Pick<AppStatus, 'state' | 'waitingFor' | 'lastFailure'>;

const time = (at: number): string => localTime(at);

/** Lines for the badge's title; null when there is nothing to say beyond the state. */
export function stateBadgeTitle(status: BadgeStatus | null, now = Date.now()): string | null {
  if (status === null) return null;
  const lines: string[] = [];
  for (const w of status.waitingFor) {
    const seconds = Math.max(0, Math.round((now - w.since) / 1000));
    lines.push(
      `Waiting for Kafka brokers ${w.brokers.join(', ')} since ${time(w.since)} (${seconds} s): ${w.reason}. The app resumes by itself when they are back.`,
    );
  }
  const f = status.lastFailure;
  if (f !== null) {
    const what = f.phase === 'run' ? 'Stopped by an error' : `Last ${f.phase} failed`;
    const kept =
      f.phase === 'deploy'
        ? f.previousVersionKept
          ? ' (the previous version kept running)'
          : ' (the previous version was not kept)'
        : '';
    lines.push(`${what} at ${time(f.at)}${kept}: ${f.message}`);
  }
  return lines.length > 0 ? lines.join('\n') : null;
}
