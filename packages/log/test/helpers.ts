import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { Log, type LogOptions } from '../src/log.js';

const dirs: string[] = [];
const logs: Log[] = [];

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close().catch(() => undefined);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function tmpDir(prefix = 'swlog-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Opens a log that the test's teardown closes; background timers off unless asked. */
export async function openTestLog(
  opts: Partial<LogOptions> & { dataDir?: string } = {},
): Promise<Log> {
  const log = await Log.open({ background: false, ...opts, dataDir: opts.dataDir ?? tmpDir() });
  logs.push(log);
  return log;
}

export const bytes = (s: string): Buffer => Buffer.from(s);
export const text = (b: Uint8Array | null): string | null =>
  b === null ? null : Buffer.from(b).toString();

/** A clock tests move by hand. */
export function manualClock(start = 1_700_000_000_000): {
  now: () => number;
  advance: (ms: number) => void;
  set: (t: number) => void;
} {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms), set: (v) => (t = v) };
}
