// How `serve` writes its log lines. JSON lines (pino's own) for machines: a pipe, a file, a log
// shipper. At a terminal, one compact human line per entry instead, as tools such as npm, vite
// and docker do: `12:01:02 INFO  shutting down signal=SIGINT`.
import type { DestinationStream } from 'pino';

export type LogFormat = 'json' | 'pretty';

/** `--log-format auto|json|pretty`: auto is pretty when stderr is a terminal, JSON otherwise. */
export function resolveLogFormat(
  flag: string | undefined,
  isTty: boolean = process.stderr.isTTY === true,
): LogFormat {
  const value = flag ?? 'auto';
  if (value === 'json' || value === 'pretty') return value;
  if (value === 'auto') return isTty ? 'pretty' : 'json';
  throw new Error(`--log-format: expected auto, json or pretty, got ${JSON.stringify(value)}`);
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
// pino's bookkeeping fields, not worth a human's attention on every line.
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'v']);

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

/** One pino JSON line as `HH:MM:SS LEVEL message key=value…`; an error's stack on the lines after. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time) : new Date();
  const clock = time.toTimeString().slice(0, 8);
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  const parts = [clock, level, String(entry.msg ?? '')];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (HIDDEN.has(key) || value === undefined) continue;
    if (key === 'err' && value !== null && typeof value === 'object') {
      const err = value as { message?: unknown; stack?: unknown };
      parts.push(`err=${fieldText(String(err.message ?? ''))}`);
      if (typeof err.stack === 'string') stack = `\n    ${err.stack.split('\n').join('\n    ')}`;
      continue;
    }
    parts.push(`${key}=${fieldText(value)}`);
  }
  return `${parts.join(' ')}${stack}\n`;
}

/** A pino destination that writes each entry as a pretty line with `write` (sync, like fd 2). */
export function prettyDestination(write: (text: string) => void): DestinationStream {
  return {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line !== '') write(prettyLine(line));
    },
  };
}
