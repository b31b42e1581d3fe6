// A generator on a full disk (issue 24): every tick's batch fails (ENOSPC, ten ticks a second),
// and the WARN is not repeated per batch: the first failure is logged, then at most one WARN a
// minute with the number of batches that failed in between, and one when producing works again.
// A real full file system: a small tmpfs, mounted here (these machines and CI run as root;
// anything else fails loudly, never skips).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { GENERATOR_WARN_EVERY_MS, GeneratorRunner } from '../src/app/generator.js';
import { waitFor } from './fixtures/wait.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'sw-gen-full-'));
afterAll(() => {
  execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

describe('a generator on a full disk', () => {
  it('warns once per run of failed batches, then once a minute with the count, and when it recovers', async () => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
    } catch (error) {
      throw new Error(`this test mounts a tmpfs and needs root: ${(error as Error).message}`);
    }
    const backend = await createEmbeddedBackend({ dataDir: join(mountPoint, 'log') });
    await backend.createTopics([{ name: 'gen', partitions: 1 }]);
    const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger = {
      info() {},
      warn: (obj: object, msg?: string) =>
        warnings.push({ obj: obj as Record<string, unknown>, msg: msg ?? '' }),
      error() {},
    };
    // A clock the test can move a minute ahead.
    let skew = 0;
    const generator = new GeneratorRunner({
      nodeName: 'g',
      modelNodeId: 'g',
      config: {
        topic: 'gen',
        ratePerSecond: 200,
        value: `"${'x'.repeat(2000)}"`,
        keySerde: 'string',
        valueSerde: 'json',
      },
      backend,
      logger,
      onError: () => ({ skip: true }),
      now: () => Date.now() + skew,
    });
    // The disk fills: a ballast takes what is free.
    const ballast = join(mountPoint, 'ballast');
    const free = (): number => {
      const s = statfsSync(mountPoint);
      return s.bavail * s.bsize;
    };
    writeFileSync(ballast, Buffer.alloc(free()));
    try {
      await generator.start();
      await waitFor(() => generator.failedBatchesTotal >= 8, 20_000, 'batches failing');
      const failing = warnings.filter((w) => w.msg.startsWith('generator could not produce'));
      expect(failing).toHaveLength(1);
      expect(String(failing[0]!.obj['err'])).toMatch(/ENOSPC|no space left/i);

      // A minute later (the clock moved): one more WARN, counting the batches since the first.
      skew = GENERATOR_WARN_EVERY_MS + 1000;
      await waitFor(
        () => warnings.filter((w) => w.msg.startsWith('generator could not produce')).length >= 2,
        20_000,
        'the minute WARN',
      );
      const second = warnings.filter((w) => w.msg.startsWith('generator could not produce'))[1]!;
      expect(second.msg).toMatch(
        /^generator could not produce: \d+ batch\(es\) failed in the last \d+ s \(logged at most once a minute\)$/,
      );
      expect(second.obj['failedBatches'] as number).toBeGreaterThanOrEqual(8);

      // Space returns: produced again, said once.
      rmSync(ballast);
      await waitFor(() => generator.producedTotal > 0, 20_000, 'produced again');
      await waitFor(
        () => warnings.some((w) => /^generator produces again after \d+ failed batch/.test(w.msg)),
        20_000,
        'the recovery WARN',
      );
      expect(warnings.filter((w) => w.msg.startsWith('generator could not produce'))).toHaveLength(
        2,
      );
    } finally {
      await generator.stop();
      rmSync(ballast, { force: true });
      await backend.close();
    }
  });
});
