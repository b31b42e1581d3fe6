// One time format in the whole designer: local wall-clock time to the millisecond
// ("2026-12-07 18:52:03.125"), the form a user reads a log in; the epoch milliseconds the API and
// the stores take, and the UTC ISO instant, are in its tooltip. Negative and absurd values
// (Kafka's "no timestamp" -1, a window's end at Long.MAX_VALUE) are shown as what they are.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Epoch ms within what Date can show (±8.64e15). */
const showable = (ms: number) => Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;

/** "2026-12-07 18:52:03.125" in the browser's time zone; "—" for no time (negative). */
export function localTime(ms: number): string {
  if (ms < 0) return '—';
  if (!showable(ms)) return String(ms);
  const d = new Date(ms);
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
  );
}

/** The tooltip under every shown time: its epoch milliseconds and its UTC instant. */
export function timeTooltip(ms: number): string {
  if (!showable(ms)) return `epoch ms ${ms}`;
  return `epoch ms ${ms} · ${new Date(ms).toISOString()} (UTC)`;
}

/**
 * A time the user typed: epoch milliseconds (digits), or a date and time read as local
 * ("2026-12-07 18:52:03", "2026-12-07T18:52"), or an ISO instant with its zone ("…Z", "+01:00").
 * Returns null when it is none of these.
 */
export function parseTime(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  if (/^\d+$/.test(t)) return Number(t);
  // "YYYY-MM-DD HH:mm" without a zone is local time, as Date reads "YYYY-MM-DDTHH:mm"
  const ms = new Date(t.replace(/^(\d{4}-\d\d-\d\d) /, '$1T')).getTime();
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}
