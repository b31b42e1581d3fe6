import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProduceRecord, StoredRecord } from './backend-spi.js';

/** A fresh temporary directory per test, removed afterwards. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'streamwright-engine-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
export const text = (b: Uint8Array | null): string | null =>
  b === null ? null : new TextDecoder().decode(b);

/** A store's changelog record as a restore reads it back (partition 0, offset 0). */
export const asRestored = (r: ProduceRecord): StoredRecord => ({
  topic: r.topic,
  partition: 0,
  offset: 0,
  key: r.key ?? null,
  value: r.value ?? null,
  timestamp: r.timestamp ?? 0,
  headers: {},
});
