// `log check` and `log repair` as library calls: damage found below the recovery point refuses
// the partition; check lists it with file and offset; repair cuts there; the log opens again and
// serves every record before the damage.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogErrorCode } from '../src/errors.js';
import { Log } from '../src/log.js';
import { checkDataDir, repairPartition } from '../src/repair.js';
import { bytes, tmpDir } from './helpers.js';

async function seeded(records: number): Promise<string> {
  const dir = tmpDir();
  const log = await Log.open({ dataDir: dir, background: false });
  await log.createTopic('t', 2, { 'segment.bytes': 1500 });
  for (let i = 0; i < records; i++)
    await log.produce([
      { topic: 't', partition: 0, key: bytes(`k${i}`), value: bytes(`v${i}-${'x'.repeat(60)}`) },
    ]);
  await log.close();
  return dir;
}

describe('log check and repair', () => {
  it('finds a flipped byte, refuses nothing while checking, and repairs the partition there', async () => {
    const dir = await seeded(60);
    expect(checkDataDir(dir).damage).toEqual([]);
    const part = path.join(dir, 't-0');
    const files = fs
      .readdirSync(part)
      .filter((f) => f.endsWith('.log'))
      .sort();
    const second = path.join(part, files[1]!);
    const base = Number(files[1]!.slice(0, 20));
    const data = fs.readFileSync(second);
    const batch = data.readInt32BE(8) + 12;
    data[batch + 80] = data[batch + 80]! ^ 0x10; // the second batch of the second segment
    fs.writeFileSync(second, data);

    const report = checkDataDir(dir);
    expect(report.damage).toEqual([
      expect.objectContaining({
        topic: 't',
        partition: 0,
        file: second,
        offset: base + 1,
        position: batch,
      }),
    ]);
    expect(report.partitions).toBeGreaterThanOrEqual(2);

    const result = repairPartition(dir, 't', 0, base + 1);
    expect(result.truncatedFile).toBe(second);
    expect(result.deletedSegments.length).toBe(files.length - 2);
    expect(checkDataDir(dir).damage).toEqual([]);
    const log = await Log.open({ dataDir: dir, background: false });
    try {
      expect(log.latestOffset('t', 0)).toBe(base + 1);
      const res = await log.fetch('t', 0, 0, { maxBytes: 1 << 20 });
      expect(res.records.map((r) => r.offset)).toEqual(
        Array.from({ length: base + 1 }, (_, i) => i),
      );
      // It takes appends again after the cut.
      const [m] = await log.produce([
        { topic: 't', partition: 0, key: null, value: bytes('after') },
      ]);
      expect(m!.offset).toBe(base + 1);
    } finally {
      await log.close();
    }
  });

  it('refuses an offset that is not a batch boundary, and works only with the data dir free', async () => {
    const dir = await seeded(5);
    expect(() => repairPartition(dir, 't', 0, 99)).toThrow(/not where a batch of t-0 starts/);
    const log = await Log.open({ dataDir: dir, background: false });
    try {
      expect(() => checkDataDir(dir)).toThrow(
        expect.objectContaining({ code: LogErrorCode.DATA_DIR_LOCKED }),
      );
    } finally {
      await log.close();
    }
  });
});
