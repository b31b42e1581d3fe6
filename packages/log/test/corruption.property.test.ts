// Random damage: flipped bytes anywhere in a partition's files (log, index, time index) and files
// cut short. Whatever happens, a record is never served wrong: the open fails with
// CORRUPT_MESSAGE, or reads fail with it, or (a torn tail, a rebuilt index) every record served is
// exactly what was written.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLogError, LogErrorCode } from '../src/errors.js';
import { Log } from '../src/log.js';
import { tmpDir } from './helpers.js';

const damageArb = fc.record({
  fileIndex: fc.nat(),
  kind: fc.constantFrom('flip', 'truncate', 'flip-and-forget-checkpoint'),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  bit: fc.integer({ min: 0, max: 7 }),
});

describe('damaged files', () => {
  it('are detected, never served', async () => {
    const dir = tmpDir('swlog-damage-');
    const pristine = path.join(dir, 'pristine');
    const log = await Log.open({ dataDir: pristine, background: false });
    await log.createTopic('t', 1, { 'segment.bytes': 3000, 'index.interval.bytes': 200 });
    const written = new Map<number, string>();
    for (let i = 0; i < 120; i++) {
      const value = `value-${i}-${'x'.repeat(i % 37)}`;
      const [m] = await log.produce(
        [{ topic: 't', key: Buffer.from(`k${i}`), value: Buffer.from(value) }],
        { compression: i % 3 === 0 ? 'gzip' : 'none' },
      );
      written.set(m!.offset, value);
    }
    await log.close();

    await fc.assert(
      fc.asyncProperty(damageArb, async (damage) => {
        const work = fs.mkdtempSync(path.join(dir, 'run-'));
        for (const name of fs.readdirSync(pristine))
          fs.cpSync(path.join(pristine, name), path.join(work, name), { recursive: true });
        const part = path.join(work, 't-0');
        const files = fs
          .readdirSync(part)
          .filter((f) => /\.(log|index|timeindex)$/.test(f))
          .sort();
        const file = path.join(part, files[damage.fileIndex % files.length]!);
        const data = fs.readFileSync(file);
        if (data.length === 0) return;
        const pos = Math.min(data.length - 1, Math.floor(damage.at * data.length));
        if (damage.kind === 'truncate') fs.truncateSync(file, pos);
        else {
          data.writeUInt8(data[pos]! ^ (1 << damage.bit), pos);
          fs.writeFileSync(file, data);
          if (damage.kind === 'flip-and-forget-checkpoint')
            fs.rmSync(path.join(work, 'recovery-point-offset-checkpoint'));
        }
        let opened: Log;
        try {
          opened = await Log.open({ dataDir: work, background: false });
        } catch (err) {
          if (!isLogError(err, LogErrorCode.CORRUPT_MESSAGE))
            expect.fail(
              `open failed with ${String(err)} after ${JSON.stringify(damage)} on ${path.basename(file)}`,
            );
          return;
        }
        try {
          let off = opened.earliestOffset('t', 0);
          for (;;) {
            const r = await opened.fetch('t', 0, off, { maxBytes: 500 });
            if (r.records.length === 0) break;
            for (const rec of r.records) {
              if (Buffer.from(rec.value!).toString() !== written.get(rec.offset))
                expect.fail(`record ${rec.offset} served wrong`);
            }
            off = r.nextOffset;
          }
        } catch (err) {
          if (!isLogError(err, LogErrorCode.CORRUPT_MESSAGE))
            expect.fail(
              `read failed with ${String(err)} after ${JSON.stringify(damage)} on ${path.basename(file)}`,
            );
        } finally {
          await opened.close();
          fs.rmSync(work, { recursive: true, force: true });
        }
      }),
      { numRuns: Number(process.env.LOG_DAMAGE_RUNS ?? 60) },
    );
  }, 120_000);
});
