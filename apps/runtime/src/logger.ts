// Structured logs on stderr, so stdout stays free for the human-facing lines. JSON lines, or at a
// terminal (or with --log-format pretty) one readable line per entry: see log-format.ts.
import { writeSync } from 'node:fs';
import { destination, pino, type Logger } from 'pino';
import { prettyDestination, type LogFormat } from './log-format.js';

export type { Logger };

export function createLogger(
  level: string = process.env.STREAMWRIGHT_LOG_LEVEL ?? 'info',
  format: LogFormat = 'json',
): Logger {
  const out =
    format === 'pretty'
      ? prettyDestination((text) => writeSync(2, text))
      : destination({ fd: 2, sync: true });
  return pino({ name: 'streamwright', level }, out);
}
