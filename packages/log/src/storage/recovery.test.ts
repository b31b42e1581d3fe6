// Recovery and corruption: damaged files are detected (an error naming the file and offset, or a
// truncated torn tail), and a bad record is never served.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LogErrorCode } from '../errors.js';
import { Log } from '../log.js';
import { repairPartition } from '../repair.js';
import { bytes, openTestLog, text, tmpDir } from '../../test/helpers.js';

async function seeded(
  opts: { segmentBytes?: number; records?: number } = {},
): Promise<{ dir: string; part: string }> {
  const dir = tmpDir();
  const log = await Log.open({ dataDir: dir, background: false });
  await log.createTopic('t', 1, {
    'segment.bytes': opts.segmentBytes ?? 1 << 20,
    'index.interval.bytes': 200,
  });
  for (let i = 0; i < (opts.records ?? 40); i++) {
    await log.produce([
      { topic: 't', key: bytes(`k${i}`), value: bytes(`value-${i}-${'x'.repeat(60)}`) },
    ]);
  }
  await log.close();
  return { dir, part: path.join(dir, 't-0') };
}

const logs = (part: string) =>
  fs
    .readdirSync(part)
    .filter((f) => f.endsWith('.log'))
    .sort();

async function readAll(log: Log): Promise<string[]> {
  const out: string[] = [];
  let off = log.earliestOffset('t', 0);
  for (;;) {
    const r = await log.fetch('t', 0, off);
    if (r.records.length === 0) return out;
    out.push(...r.records.map((x) => text(x.value)!));
    off = r.nextOffset;
  }
}

/** Forget the recovery point, as after a crash before any checkpoint. */
const forgetCheckpoint = (dir: string) =>
  fs.rmSync(path.join(dir, 'recovery-point-offset-checkpoint'));

describe('damage below the recovery point', () => {
  // Fsynced and checkpointed bytes cannot be torn by a crash: a bad batch there is corruption,
  // and the partition is refused with the way to repair it, never cut back silently. Only that
  // partition: the rest of the log opens and runs.
  it('refuses only a partition whose last, checkpointed batch is cut short', async () => {
    const { dir, part } = await seeded();
    const file = path.join(part, logs(part).at(-1)!);
    fs.truncateSync(file, fs.statSync(file).size - 17);
    const size = fs.statSync(file).size;
    const log = await openTestLog({ dataDir: dir });
    const refused = log.recoveryEvents.filter((e) => e.kind === 'refused-partition');
    expect(refused).toMatchObject([{ topic: 't', partition: 0, offset: 39 }]);
    const err = await log.fetch('t', 0, 0).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; offset: number },
    );
    expect(err?.code).toBe(LogErrorCode.CORRUPT_MESSAGE);
    expect(err?.offset).toBe(39);
    expect(err?.message).toMatch(/partition t-0 is damaged and was refused/);
    expect(err?.message).toMatch(/offsets below 40 were fsynced/);
    expect(err?.message).toContain(
      `streamwright log repair --data-dir ${dir} --partition t-0 --from 39`,
    );
    expect(refused[0]!.detail).toBe(err?.message);
    await expect(log.produce([{ topic: 't', key: null, value: bytes('x') }])).rejects.toMatchObject(
      { code: LogErrorCode.CORRUPT_MESSAGE },
    );
    expect(log.describeTopic('t')!.offsets[0]).toMatchObject({
      refused: err?.message,
      earliest: 0,
      latest: 40,
    });
    // The rest of the log runs: other topics take and serve records.
    await log.createTopic('other', 1);
    await log.produce([{ topic: 'other', key: null, value: bytes('fine') }]);
    expect((await log.fetch('other', 0, 0)).records.map((r) => text(r.value))).toEqual(['fine']);
    await log.close();
    // Nothing was cut, and the checkpoint was kept: a reopen refuses it again, never cuts it.
    expect(fs.statSync(file).size).toBe(size);
    const again = await openTestLog({ dataDir: dir });
    expect(again.recoveryEvents.map((e) => e.kind)).toContain('refused-partition');
    expect(again.recoveryEvents.map((e) => e.kind)).not.toContain('truncated-torn-tail');
    await expect(again.fetch('t', 0, 0)).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
    });
    await again.close();
    expect(fs.statSync(file).size).toBe(size);
  });

  it('refuses one partition of a topic and serves the others', async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('two', 2);
    for (let i = 0; i < 20; i++)
      await log.produce([{ topic: 'two', partition: i % 2, key: null, value: bytes(`v${i}`) }]);
    await log.close();
    const part = path.join(dir, 'two-1');
    const file = path.join(part, logs(part).at(-1)!);
    fs.truncateSync(file, fs.statSync(file).size - 5);
    const reopened = await openTestLog({ dataDir: dir });
    expect((await reopened.fetch('two', 0, 0)).records).toHaveLength(10);
    await reopened.produce([{ topic: 'two', partition: 0, key: null, value: bytes('more') }]);
    await expect(reopened.fetch('two', 1, 0)).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      message: expect.stringMatching(/partition two-1 is damaged/),
    });
    expect(reopened.describeTopic('two')!.offsets.map((o) => o.refused !== undefined)).toEqual([
      false,
      true,
    ]);
  });

  it("a damaged partition of the log's own __consumer_offsets still stops the open, naming it", async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('t', 1);
    for (let i = 1; i <= 5; i++)
      await log.commitOffsets('g', [{ topic: 't', partition: 0, offset: i }]);
    await log.close();
    const part = path.join(dir, '__consumer_offsets-0');
    const file = path.join(part, logs(part).at(-1)!);
    fs.truncateSync(file, fs.statSync(file).size - 5);
    // Groups cannot be loaded without it: the log does not open (and releases its lock).
    await expect(Log.open({ dataDir: dir, background: false })).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      message: expect.stringMatching(
        /partition __consumer_offsets-0 is damaged .*log repair --data-dir .* --partition __consumer_offsets-0 --from 4/,
      ),
    });
    repairPartition(dir, '__consumer_offsets', 0, 4);
    const repaired = await openTestLog({ dataDir: dir });
    expect(repaired.committedOffsets('g')).toMatchObject([{ topic: 't', partition: 0, offset: 4 }]);
  });

  it('refuses a byte flipped in the last batches of the active segment', async () => {
    const { dir, part } = await seeded();
    const file = path.join(part, logs(part).at(-1)!);
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r+');
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, size - 30);
    b[0] = b[0]! ^ 0xff;
    fs.writeSync(fd, b, 0, 1, size - 30);
    fs.closeSync(fd);
    const log = await openTestLog({ dataDir: dir });
    await expect(log.fetch('t', 0, 0)).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      message: expect.stringMatching(/partition t-0 is damaged/),
    });
    await log.close();
    expect(fs.statSync(file).size).toBe(size);
  });
});

describe('recovery on open', () => {
  it('truncates a torn write at the tail of the active segment and keeps appending after it', async () => {
    const { dir, part } = await seeded();
    const file = path.join(part, logs(part).at(-1)!);
    const size = fs.statSync(file).size;
    fs.truncateSync(file, size - 17); // the last batch loses its end, as a write cut short
    forgetCheckpoint(dir); // by a crash: the checkpoint did not cover that batch yet
    const log = await openTestLog({ dataDir: dir });
    expect(log.recoveryEvents.filter((e) => e.kind === 'truncated-torn-tail')).toHaveLength(1);
    const values = await readAll(log);
    expect(values).toHaveLength(39);
    expect(values.at(-1)).toMatch(/^value-38-/);
    const [m] = await log.produce([{ topic: 't', key: null, value: bytes('after') }]);
    expect(m!.offset).toBe(39);
  });

  it('truncates a torn batch that an index entry points at, keeping the offsets before it', async () => {
    // Appends write the index entry before their bytes reach the file (the write queue), so a
    // crash can leave the last entry pointing at a batch cut short; recovery scans from it.
    const { dir, part } = await seeded();
    const name = logs(part).at(-1)!;
    const index = fs.readFileSync(path.join(part, name.replace('.log', '.index')));
    const lastOffset = Number(name.slice(0, 20)) + index.readInt32BE(index.length - 8);
    const position = index.readInt32BE(index.length - 4);
    fs.truncateSync(path.join(part, name), position + 70); // header intact, records cut short
    forgetCheckpoint(dir); // a crash: the recovery checkpoint did not cover that batch yet
    const log = await openTestLog({ dataDir: dir });
    expect(log.recoveryEvents.map((e) => e.kind)).toContain('truncated-torn-tail');
    expect(log.latestOffset('t', 0)).toBe(lastOffset);
    const values = await readAll(log);
    expect(values).toHaveLength(lastOffset);
    const [m] = await log.produce([{ topic: 't', key: null, value: bytes('after') }]);
    expect(m!.offset).toBe(lastOffset);
  });

  it('truncates garbage appended after the last batch (a half-written header)', async () => {
    const { dir, part } = await seeded();
    fs.appendFileSync(
      path.join(part, logs(part).at(-1)!),
      Buffer.from([0, 0, 0, 0, 0, 0, 0, 40, 0, 0]),
    );
    const log = await openTestLog({ dataDir: dir });
    expect(log.recoveryEvents.map((e) => e.kind)).toContain('truncated-torn-tail');
    expect(await readAll(log)).toHaveLength(40);
  });

  it('refuses the partition when a batch in the middle of the log is corrupt, naming file and offset', async () => {
    const { dir, part } = await seeded();
    forgetCheckpoint(dir);
    const file = path.join(part, logs(part).at(-1)!);
    const data = fs.readFileSync(file);
    data.writeUInt8(data[data.length >> 1]! ^ 0x55, data.length >> 1);
    fs.writeFileSync(file, data);
    const refused = await Log.open({ dataDir: dir, background: false });
    const err = await refused.fetch('t', 0, 0).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: LogErrorCode.CORRUPT_MESSAGE, file });
    expect((err as Error).message).toMatch(
      /00000000000000000000\.log at position \d+ \(offset \d+\)/,
    );
    await refused.close();
    // Once repaired (here: the damaged file removed), the partition opens again.
    fs.rmSync(part, { recursive: true });
    fs.mkdirSync(part);
    const log = await openTestLog({ dataDir: dir });
    expect(log.latestOffset('t', 0)).toBe(0);
  });

  it('never serves a flipped byte that recovery did not scan: the fetch fails instead', async () => {
    const { dir, part } = await seeded({ segmentBytes: 1500 });
    const first = path.join(part, logs(part)[0]!);
    const data = fs.readFileSync(first);
    data.writeUInt8(data[200]! ^ 0x01, 200);
    fs.writeFileSync(first, data);
    const log = await openTestLog({ dataDir: dir });
    await expect(readAll(log)).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      file: first,
    });
  });

  it('serves what lies before damage in a later segment; the error names the damaged batch', async () => {
    const { dir, part } = await seeded({ segmentBytes: 1500 });
    const files = logs(part);
    expect(files.length).toBeGreaterThan(2);
    const second = path.join(part, files[1]!);
    const secondBase = Number(files[1]!.slice(0, 20));
    const data = fs.readFileSync(second);
    // The third batch of the second segment (batches of one record each, all the same size).
    const batchSize = data.readInt32BE(8) + 12;
    data.writeUInt8(data[2 * batchSize + 70]! ^ 0x01, 2 * batchSize + 70);
    fs.writeFileSync(second, data);
    const log = await openTestLog({ dataDir: dir });
    const res = await log.fetch('t', 0, 0, { maxBytes: 1 << 20 });
    expect(res.records.map((r) => r.offset)).toEqual(
      Array.from({ length: secondBase + 2 }, (_, i) => i),
    );
    await expect(log.fetch('t', 0, res.nextOffset, { maxBytes: 1 << 20 })).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      file: second,
      offset: secondBase + 2,
    });
    // From an earlier offset of the same segment too: the offset is the damaged batch's.
    await expect(log.fetch('t', 0, secondBase, { maxBytes: 10 })).resolves.toMatchObject({
      records: [expect.objectContaining({ offset: secondBase })],
    });
  });

  it('names topics.json when it is garbage', async () => {
    const { dir } = await seeded({ records: 1 });
    const file = path.join(dir, 'topics.json');
    fs.writeFileSync(file, '{ garbage');
    await expect(Log.open({ dataDir: dir, background: false })).rejects.toMatchObject({
      code: LogErrorCode.CORRUPT_MESSAGE,
      file,
      message: expect.stringContaining(`the topic registry ${file} is damaged`),
    });
    fs.writeFileSync(file, '[]');
    await expect(Log.open({ dataDir: dir, background: false })).rejects.toThrow(
      /no "topics" object/,
    );
  });

  it('rebuilds a missing, truncated or garbled index and time index', async () => {
    const { dir, part } = await seeded({ segmentBytes: 2000 });
    const [a, b, c] = logs(part).map((f) => f.slice(0, 20));
    fs.rmSync(path.join(part, `${a}.index`));
    fs.truncateSync(path.join(part, `${b}.index`), 5);
    fs.writeFileSync(path.join(part, `${c}.timeindex`), Buffer.alloc(24, 0xff));
    const log = await openTestLog({ dataDir: dir });
    const kinds = log.recoveryEvents.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'rebuilt-index')).toHaveLength(2);
    expect(kinds).toContain('rebuilt-time-index');
    expect(await readAll(log)).toHaveLength(40);
    expect((await log.fetch('t', 0, 23)).records[0]!.offset).toBe(23);
    expect(fs.statSync(path.join(part, `${a}.index`)).size % 8).toBe(0);
  });

  it('detects a sealed segment cut short', async () => {
    const { dir, part } = await seeded({ segmentBytes: 2000 });
    const first = path.join(part, logs(part)[0]!);
    fs.truncateSync(first, fs.statSync(first).size - 30);
    const log = await openTestLog({ dataDir: dir });
    expect(log.recoveryEvents).toMatchObject([{ kind: 'refused-partition', file: first }]);
    const err = await log.fetch('t', 0, 0).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: LogErrorCode.CORRUPT_MESSAGE, file: first });
  });

  it('recovers batches larger than its read chunk (several MB)', async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('big', 1, { 'max.message.bytes': 8 << 20 });
    for (let i = 0; i < 3; i++) {
      await log.produce(
        Array.from({ length: 3000 }, () => ({
          topic: 'big',
          key: null,
          value: Buffer.alloc(1000, 65 + i),
        })),
      );
    }
    await log.close();
    forgetCheckpoint(dir);
    const again = await openTestLog({ dataDir: dir });
    expect(again.recoveryEvents).toEqual([]);
    expect(again.latestOffset('big', 0)).toBe(9000);
    const r = await again.fetch('big', 0, 4500, { maxBytes: 1 });
    expect(r.records[0]!.offset).toBe(4500);
    expect(r.records[0]!.value![0]).toBe(66);
  });

  it('scans everything after the recovery point when the checkpoint is lost, and finds it sound', async () => {
    const { dir } = await seeded({ segmentBytes: 2000 });
    forgetCheckpoint(dir);
    const log = await openTestLog({ dataDir: dir });
    expect(log.recoveryEvents).toEqual([]);
    expect(await readAll(log)).toHaveLength(40);
  });

  it('cleans up leftovers of an interrupted compaction and completes a started swap', async () => {
    const { dir, part } = await seeded({ segmentBytes: 2000 });
    const [a, b] = logs(part).map((f) => f.slice(0, 20));
    fs.writeFileSync(path.join(part, `${a}.log.cleaned`), 'partial');
    // A swap whose commit point was passed: the cleaned copy (here: the same bytes) must win.
    fs.copyFileSync(path.join(part, `${b}.log`), path.join(part, `${b}.log.swap`));
    fs.rmSync(path.join(part, `${b}.log`));
    const log = await openTestLog({ dataDir: dir });
    const kinds = log.recoveryEvents.map((e) => e.kind);
    expect(kinds).toContain('removed-leftover');
    expect(kinds).toContain('completed-swap');
    expect(fs.existsSync(path.join(part, `${a}.log.cleaned`))).toBe(false);
    expect(await readAll(log)).toHaveLength(40);
  });
});

describe('index entries', () => {
  it('reach their files together at the flush, and a crash before it only costs a longer scan', async () => {
    const dir = tmpDir();
    const log = await openTestLog({ dataDir: dir });
    await log.createTopic('t', 1, {
      'index.interval.bytes': 1, // an entry for every batch
      'flush.messages': '9223372036854775807',
      'flush.ms': '9223372036854775807',
    });
    for (let i = 0; i < 20; i++)
      await log.produce([{ topic: 't', key: null, value: bytes(`v${i}`) }], { acks: 1 });
    const part = path.join(dir, 't-0');
    const index = path.join(part, '00000000000000000000.index');
    const timeIndex = path.join(part, '00000000000000000000.timeindex');
    expect(fs.statSync(index).size).toBe(0); // 19 entries, all still in memory
    // What a crash now would leave: the log, its index files as they are, no recovery checkpoint.
    const crashed = tmpDir();
    fs.cpSync(dir, crashed, { recursive: true });
    fs.rmSync(path.join(crashed, '.lock'));
    fs.rmSync(path.join(crashed, 'recovery-point-offset-checkpoint'), { force: true });
    await log.flush();
    expect(fs.statSync(index).size).toBe(19 * 8); // one write at the flush
    expect(fs.statSync(timeIndex).size).toBeGreaterThan(0);
    const reopened = await openTestLog({ dataDir: crashed });
    expect(await readAll(reopened)).toEqual(Array.from({ length: 20 }, (_, i) => `v${i}`));
    expect((await reopened.fetch('t', 0, 12)).records[0]!.offset).toBe(12);
  });
});
