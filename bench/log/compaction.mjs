// Compaction of 1M records over 10k keys (100-byte values), and the latency of a producer that
// keeps appending (1 record per call, acks=all, fsync per batch) to another topic meanwhile,
// against the same producer with no compaction running.
//   node bench/log/compaction.mjs [--records 1000000] [--keys 10000] [--runs 3]
import { arg, fmt, lib, median, percentile, report, rm, tmpDir } from './common.mjs';

const RECORDS = arg('records', 1_000_000);
const KEYS = arg('keys', 10_000);
const RUNS = arg('runs', 3);
const value = Buffer.alloc(100, 5);

async function produceLatencies(log, until) {
  const lat = [];
  let i = 0;
  while (!until()) {
    const t = performance.now();
    await log.produce([
      { topic: 'live', partition: 0, key: Buffer.from(`live-${i++ % 100}`), value },
    ]);
    lat.push(performance.now() - t);
  }
  return lat;
}

const times = [];
const p99s = [];
const baseP99s = [];
const p50s = [];
const baseP50s = [];
let last;
for (let r = 0; r < RUNS; r++) {
  const dir = tmpDir('compaction');
  const log = await lib.Log.open({ dataDir: dir, background: false });
  await log.createTopic('c', 1, {
    'cleanup.policy': 'compact',
    'segment.bytes': 16 << 20,
    'flush.messages': lib.LONG_MAX,
  });
  await log.createTopic('live', 1);
  for (let i = 0; i < RECORDS; i += 1000) {
    const records = [];
    for (let j = i; j < Math.min(RECORDS, i + 1000); j++)
      records.push({
        topic: 'c',
        partition: 0,
        key: Buffer.from(`key-${j % KEYS}`),
        value,
        timestamp: j,
      });
    await log.produce(records, { acks: 1 });
  }
  log.partition('c', 0).roll(); // everything written becomes cleanable
  await log.flush();
  // Baseline producer latency, then the same during compaction.
  const baseEnd = performance.now() + 1500;
  const base = await produceLatencies(log, () => performance.now() > baseEnd);
  let done = false;
  const started = performance.now();
  const compaction = log.compact('c', 0).then((rep) => {
    done = true;
    return rep;
  });
  const during = await produceLatencies(log, () => done);
  last = await compaction;
  times.push(performance.now() - started);
  p99s.push(percentile(during, 99));
  p50s.push(percentile(during, 50));
  baseP99s.push(percentile(base, 99));
  baseP50s.push(percentile(base, 50));
  last.produced = during.length;
  await log.close();
  rm(dir);
}
report('compaction', {
  records: RECORDS,
  keys: KEYS,
  runs: RUNS,
  compactionMs: fmt(median(times)),
  recordsPerSec: fmt(RECORDS / (median(times) / 1000)),
  mbBefore: fmt(last.bytesBefore / 1048576, 1),
  mbAfter: fmt(last.bytesAfter / 1048576, 2),
  recordsAfter: last.recordsAfter,
  produceP50MsDuring: fmt(median(p50s), 2),
  produceP99MsDuring: fmt(median(p99s), 2),
  produceP50MsIdle: fmt(median(baseP50s), 2),
  produceP99MsIdle: fmt(median(baseP99s), 2),
  producedDuringLastRun: last.produced,
});
