// Reopen time of a 1 GB log (1 KB records): after a clean close (recovery checks the tail of the
// active segment), and after losing the recovery-point checkpoint (as after a crash before any
// checkpoint: every segment is CRC-scanned and its index checked).
//   node bench/log/reopen.mjs [--mb 1024] [--runs 5] [--segmentMb 1024]
import fs from 'node:fs';
import path from 'node:path';
import { arg, fmt, lib, median, report, rm, tmpDir } from './common.mjs';

const MB = arg('mb', 1024);
const RUNS = arg('runs', 5);
const SEGMENT_MB = arg('segmentMb', 1024);
const total = Math.floor((MB * 1024 * 1024) / 1040);

const dir = tmpDir('reopen');
let log = await lib.Log.open({ dataDir: dir, background: false });
await log.createTopic('bench', 1, {
  'flush.messages': lib.LONG_MAX,
  'segment.bytes': SEGMENT_MB << 20,
});
const value = Buffer.alloc(1008, 7);
for (let i = 0; i < total; i += 1000) {
  const records = [];
  for (let j = i; j < Math.min(total, i + 1000); j++)
    records.push({
      topic: 'bench',
      partition: 0,
      key: Buffer.from(String(j).padStart(16, '0')),
      value,
      timestamp: j,
    });
  await log.produce(records, { acks: 1 });
}
const desc = log.describeTopic('bench').offsets[0];
await log.close();

async function reopen(unclean) {
  if (unclean) fs.rmSync(path.join(dir, 'recovery-point-offset-checkpoint'));
  const started = performance.now();
  log = await lib.Log.open({ dataDir: dir, background: false });
  const ms = performance.now() - started;
  if (log.latestOffset('bench', 0) !== desc.logEndOffset) throw new Error('log end moved');
  await log.close();
  return ms;
}

const clean = [];
const unclean = [];
for (let r = 0; r < RUNS; r++) clean.push(await reopen(false));
for (let r = 0; r < Math.min(RUNS, 3); r++) unclean.push(await reopen(true));
rm(dir);
report('reopen', {
  mb: fmt(desc.sizeBytes / 1048576),
  segments: desc.segments,
  records: desc.logEndOffset,
  cleanReopenMs: fmt(median(clean), 1),
  uncleanReopenMs: fmt(median(unclean)),
  allClean: clean.map((x) => fmt(x, 1)),
  allUnclean: unclean.map((x) => fmt(x)),
});
