// The built package's stream threads: with num.stream.threads > 1 a worker starts from the built
// entry (dist/thread/worker/worker-entry.js, which runs the bundled worker code
// dist/thread/worker/worker-main.bundle.cjs from V8's code cache when an earlier worker left one)
// when the package is built. The other worker tests run from sources (tsx), so this one runs a
// child process on dist (build the engine first).
import { execFile } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./fixtures/built-app.mjs', import.meta.url));
const cacheDir = mkdtempSync(join(tmpdir(), 'sw-code-cache-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const input = Array.from({ length: 300 }, (_, i) => ({
  key: `k${i}`,
  value: { amount: (i * 37) % 250 },
}));
const byKey = (a: { key: string }, b: { key: string }): number => a.key.localeCompare(b.key);
// filter (CEL) value.amount > 100, then mapValues (the worker module's `double`)
const expected = input
  .filter((r) => r.value.amount > 100)
  .map((r) => ({ key: r.key, value: { amount: r.value.amount * 2 } }))
  .sort(byKey);

async function runBuiltApp(): Promise<{ output: typeof expected; threads: string[] }> {
  const { stdout } = await run(process.execPath, [child, JSON.stringify(input)], {
    timeout: 60_000,
    env: { ...process.env, STREAMWRIGHT_CODE_CACHE_DIR: cacheDir },
  });
  return JSON.parse(stdout) as { output: typeof expected; threads: string[] };
}

const cacheFiles = (): string[] => readdirSync(cacheDir).filter((f) => f.endsWith('.bin'));

describe('the built engine', () => {
  it('runs 2 stream threads from the bundled worker code, with and without a code cache (damaged, in an unsafe directory), with exactly the expected output', async () => {
    // No cache yet: the workers compile the bundle and one of them leaves its code cache.
    const first = await runBuiltApp();
    expect([...first.output].sort(byKey)).toEqual(expected);
    expect(first.threads).toEqual(['built-app-StreamThread-1', 'built-app-StreamThread-2']);
    expect(cacheFiles()).toHaveLength(1);
    const file = join(cacheDir, cacheFiles()[0]!);
    expect(readFileSync(file).length).toBeGreaterThan(100);
    const written = statSync(file).mtimeMs;

    // From the cache: the same output, and the cache stays as it was (a worker whose cache V8
    // rejected would write it again).
    const second = await runBuiltApp();
    expect([...second.output].sort(byKey)).toEqual(expected);
    expect(statSync(file).mtimeMs).toBe(written);

    // A damaged cache is rejected by V8: the workers still run, and the cache is written anew;
    // writing it removes the caches of older builds of the same bundle (not of other flags).
    writeFileSync(file, Buffer.from('not a code cache'));
    const name = cacheFiles()[0]!;
    const parts = name.split('-'); // worker-<node>-<arch>-<path>-<build>-<flags>.bin
    const olderBuild = [...parts.slice(0, -2), '00000000', parts.at(-1)].join('-');
    const otherFlags = [...parts.slice(0, -1), '00000000.bin'].join('-');
    writeFileSync(join(cacheDir, olderBuild), 'an older build');
    writeFileSync(join(cacheDir, otherFlags), 'other flags');
    const third = await runBuiltApp();
    expect([...third.output].sort(byKey)).toEqual(expected);
    expect(cacheFiles().sort()).toEqual([name, otherFlags].sort());
    expect(readFileSync(file).length).toBeGreaterThan(100);

    // V8 runs what a cache holds: a directory others can write to is not used at all.
    for (const f of cacheFiles()) rmSync(join(cacheDir, f));
    chmodSync(cacheDir, 0o777);
    const fourth = await runBuiltApp();
    expect([...fourth.output].sort(byKey)).toEqual(expected);
    expect(cacheFiles()).toHaveLength(0);
  }, 240_000);
});
