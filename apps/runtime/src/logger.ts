// Structured logs: JSON lines on stderr, so stdout stays free for the human-facing lines.
import { destination, pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string = process.env.STREAMWRIGHT_LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: 'streamwright', level }, destination({ fd: 2, sync: true }));
}
