// Read throughput from the page cache: a log of 1 KB records is written once, then read end to
// end several times (the first pass warms the cache), as decoded records (fetch) and as raw,
// CRC-checked batches (fetchBatches, what a broker would send).
//   node bench/log/read.mjs [--mb 512] [--runs 5] [--maxBytes 4194304]
import { arg, fmt, lib, median, report, rm, tmpDir } from './common.mjs';

const MB = arg('mb', 512);
const RUNS = arg('runs', 5);
const MAX_BYTES = arg('maxBytes', 4 << 20);
const total = Math.floor((MB * 1024 * 1024) / 1024);

const dir = tmpDir('read');
const log = await lib.Log.open({ dataDir: dir, background: false });
await log.createTopic('bench', 1, { 'flush.messages': lib.LONG_MAX, 'flush.ms': lib.LONG_MAX });
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
await log.flush();
const bytes = log.describeTopic('bench').offsets[0].sizeBytes;

async function readDecoded() {
  const started = performance.now();
  let off = 0;
  let n = 0;
  for (;;) {
    const r = await log.fetch('bench', 0, off, { maxBytes: MAX_BYTES });
    if (r.records.length === 0) break;
    n += r.records.length;
    off = r.nextOffset;
  }
  if (n !== total) throw new Error(`read ${n} of ${total}`);
  return bytes / 1048576 / ((performance.now() - started) / 1000);
}

async function readRaw() {
  const started = performance.now();
  let off = 0;
  for (;;) {
    const batches = await log.fetchBatches('bench', 0, off, { maxBytes: MAX_BYTES });
    if (batches.length === 0) break;
    const last = batches[batches.length - 1].header;
    off = last.baseOffset + last.lastOffsetDelta + 1;
  }
  if (off !== total) throw new Error(`read to ${off} of ${total}`);
  return bytes / 1048576 / ((performance.now() - started) / 1000);
}

await readRaw(); // warm the page cache
const decoded = [];
const raw = [];
for (let r = 0; r < RUNS; r++) {
  raw.push(await readRaw());
  decoded.push(await readDecoded());
}
await log.close();
rm(dir);
report('read', {
  mb: fmt(bytes / 1048576),
  maxBytesPerFetch: MAX_BYTES,
  runs: RUNS,
  rawBatchesMBps: fmt(median(raw)),
  decodedRecordsMBps: fmt(median(decoded)),
  decodedRecordsPerSec: fmt((median(decoded) * 1048576) / 1040),
  allRaw: raw.map((x) => fmt(x)),
  allDecoded: decoded.map((x) => fmt(x)),
});
