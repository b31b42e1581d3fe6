// The log thread's CPU per record for appending batches a producer encoded, with the full
// LogValidator checks against `checks: 'headers'` (this package's encoder in this process: what a
// RemoteLog and the engine's stream threads send), alternating in one process. The default shape
// is the engine's streamprocesswithsink output: per produce call 2 partitions × 833 records of a
// 4-byte key and a 100-byte value; no fsync (acks=1), so what is timed is validation, offset
// assignment and the page-cache write.
//   node bench/log/append-checks.mjs [--records 1666] [--value 100] [--calls 300] [--blocks 10]
// Prints one JSON line: per mode the median over blocks of CPU ns per record (getrusage of the
// process, which only this thread keeps busy here) and every block's figure.
import { arg, fmt, lib, median, report, rm, tmpDir } from './common.mjs';

const RECORDS = arg('records', 1666);
const VALUE = arg('value', 100);
const CALLS = arg('calls', 300);
const BLOCKS = arg('blocks', 10);

const dir = tmpDir('checks');
const log = await lib.Log.open({ dataDir: dir, background: false });
await log.createTopic('sink', 2, {
  'flush.messages': lib.LONG_MAX,
  'flush.ms': lib.LONG_MAX,
  'segment.bytes': 1 << 30,
});
const encoder = new lib.BatchEncoder();
const records = Array.from({ length: RECORDS }, (_, i) => {
  const key = Buffer.alloc(4);
  key.writeInt32BE(i % 10000);
  return {
    topic: 'sink',
    partition: i & 1,
    key,
    value: Buffer.alloc(VALUE, i & 255),
    timestamp: 1,
  };
});
const metadata = () => log.producerMetadata('sink');
const cpuNs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) * 1000;
};

const perRecord = { full: [], headers: [] };
for (let block = 0; block < BLOCKS; block++) {
  for (const checks of block % 2 ? ['full', 'headers'] : ['headers', 'full']) {
    let ns = 0;
    for (let i = 0; i < CALLS; i++) {
      const encoded = encoder.encode(records, metadata); // not timed: the producer's work
      const parts = await Promise.all(
        encoded.partitions.map(async (p) => ({
          topic: p.topic,
          partition: p.partition,
          batches: await p.batches,
        })),
      );
      const started = cpuNs();
      await log.produceBatches(parts, { acks: 1, checks });
      ns += cpuNs() - started;
      encoder.release(encoded);
    }
    perRecord[checks].push(ns / (CALLS * RECORDS));
  }
}
await log.close();
rm(dir);
report('append-checks', {
  recordsPerCall: RECORDS,
  valueBytes: VALUE,
  callsPerBlock: CALLS,
  medianCpuNsPerRecord: {
    full: fmt(median(perRecord.full), 1),
    headers: fmt(median(perRecord.headers), 1),
  },
  allBlocksCpuNsPerRecord: {
    full: perRecord.full.map((x) => fmt(x)),
    headers: perRecord.headers.map((x) => fmt(x)),
  },
  loadAverage: (await import('node:os')).loadavg().map((x) => fmt(x, 2)),
});
