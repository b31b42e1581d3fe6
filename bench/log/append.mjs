// Append throughput: 1 KB records in batches, flush every 10 ms (flush.ms=10, acks=all, so every
// acknowledged byte is fsynced), beside a plain sequential fs write of the same bytes to the same
// disk in the same run (with an fdatasync every 10 ms too, and with only a final one).
//   node bench/log/append.mjs [--mb 256] [--runs 5] [--batch 256] [--inflight 64]
import fs from 'node:fs';
import path from 'node:path';
import { arg, fmt, lib, median, report, rm, tmpDir } from './common.mjs';

const MB = arg('mb', 256);
const RUNS = arg('runs', 5);
const BATCH = arg('batch', 256); // records per produce call (a 256 KB batch)
const INFLIGHT = arg('inflight', 64); // produce calls in flight, as a Kafka producer pipelines
const RECORD = 1024;
const total = Math.floor((MB * 1024 * 1024) / RECORD);
const value = Buffer.alloc(RECORD - 16, 7);

async function logRun() {
  const dir = tmpDir('append');
  const log = await lib.Log.open({ dataDir: dir, background: false });
  await log.createTopic('bench', 1, { 'flush.messages': lib.LONG_MAX, 'flush.ms': 10 });
  // Records are built before the clock starts: this measures the log, not the benchmark's own
  // allocation of 16-byte keys.
  const batches = [];
  for (let i = 0; i < total; i += BATCH) {
    const records = [];
    for (let j = i; j < Math.min(total, i + BATCH); j++)
      records.push({
        topic: 'bench',
        partition: 0,
        key: Buffer.from(String(j).padStart(16, '0')),
        value,
        timestamp: 1,
      });
    batches.push(records);
  }
  const started = performance.now();
  const inflight = new Set();
  for (const records of batches) {
    const p = log.produce(records, { acks: 'all' });
    inflight.add(p);
    p.then(() => inflight.delete(p));
    if (inflight.size >= INFLIGHT) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  const ms = performance.now() - started;
  const bytes = log.describeTopic('bench').offsets[0].sizeBytes;
  await log.close();
  rm(dir);
  return { ms, bytes };
}

/** The same bytes in the same chunk sizes, written sequentially; fdatasync every `syncMs`. */
function plainRun(bytes, chunk, syncMs) {
  const dir = tmpDir('plain');
  const fd = fs.openSync(path.join(dir, 'plain.bin'), 'w');
  const buf = Buffer.alloc(chunk, 7);
  const started = performance.now();
  let lastSync = started;
  for (let written = 0; written < bytes; written += chunk) {
    fs.writeSync(fd, buf, 0, Math.min(chunk, bytes - written));
    if (syncMs !== null && performance.now() - lastSync >= syncMs) {
      fs.fdatasyncSync(fd);
      lastSync = performance.now();
    }
  }
  fs.fdatasyncSync(fd);
  const ms = performance.now() - started;
  fs.closeSync(fd);
  rm(dir);
  return ms;
}

const logMBs = [];
const plainSyncMBs = [];
const plainMBs = [];
/** Per run, log vs the plain write with fsync every 10 ms right after it: robust to load swings. */
const ratios = [];
for (let r = 0; r < RUNS; r++) {
  const { ms, bytes } = await logRun();
  const batchBytes = Math.round(bytes / Math.ceil(total / BATCH));
  const plainSync = plainRun(bytes, batchBytes, 10);
  const plain = plainRun(bytes, batchBytes, null);
  logMBs.push(bytes / 1048576 / (ms / 1000));
  plainSyncMBs.push(bytes / 1048576 / (plainSync / 1000));
  plainMBs.push(bytes / 1048576 / (plain / 1000));
  ratios.push(plainSync / ms);
}
const log = median(logMBs);
report('append', {
  records: total,
  recordBytes: RECORD,
  batchRecords: BATCH,
  inflight: INFLIGHT,
  runs: RUNS,
  logMBps: fmt(log),
  plainWriteFsync10msMBps: fmt(median(plainSyncMBs)),
  plainWriteMBps: fmt(median(plainMBs)),
  ratioVsPlainFsync10ms: fmt(median(ratios), 2),
  ratioVsPlainWrite: fmt(log / median(plainMBs), 2),
  allRunsLogMBps: logMBs.map((x) => fmt(x)),
  crc32c: lib.crc32cImplementation,
});
