// The built package's stream threads: with num.stream.threads > 1 a worker starts from the bundled
// entry (scripts/bundle-worker.mjs → dist/thread/worker/worker-main.bundle.js) when the package
// is built. The other worker tests run from sources (tsx), so this one runs a child process on
// dist (build the engine first).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./fixtures/built-app.mjs', import.meta.url));

describe('the built engine', () => {
  it('runs 2 stream threads from the bundled worker entry with exactly the expected output', async () => {
    const input = Array.from({ length: 300 }, (_, i) => ({
      key: `k${i}`,
      value: { amount: (i * 37) % 250 },
    }));
    const { stdout } = await run(process.execPath, [child, JSON.stringify(input)], {
      timeout: 60_000,
    });
    const { output, threads } = JSON.parse(stdout) as {
      output: { key: string; value: { amount: number } }[];
      threads: string[];
    };
    const byKey = (a: { key: string }, b: { key: string }): number => a.key.localeCompare(b.key);
    expect([...output].sort(byKey)).toEqual(input.filter((r) => r.value.amount > 100).sort(byKey));
    expect(threads).toEqual(['built-app-StreamThread-1', 'built-app-StreamThread-2']);
  }, 90_000);
});
