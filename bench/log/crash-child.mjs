// The writer crash-run.mjs kills: appends with fsync per batch (acks=all), printing
// "ACK <last offset>" after each acknowledgement. Usage: crash-child.mjs <dataDir>
import { lib } from './common.mjs';

const dataDir = process.argv[2];
const log = await lib.Log.open({ dataDir, background: false });
await log.createTopics(
  [{ name: 'crash', partitions: 1, config: { 'max.message.bytes': 16 << 20 } }],
  { ifNotExists: true },
);
let next = log.latestOffset('crash', 0);
process.stdout.write(`START ${next}\n`);
const inflight = new Set();
for (;;) {
  const count = Math.max(1, Math.floor((Math.random() ** 2 * 8_000_000 + 1024) / 1024));
  const first = next;
  next += count;
  const records = Array.from({ length: count }, (_, i) => ({
    topic: 'crash',
    partition: 0,
    key: Buffer.from(String(first + i)),
    value: Buffer.alloc(1000, String((first + i) % 10)),
  }));
  const p = log.produce(records, { acks: 'all' }).then((meta) => {
    if (meta[0].offset !== first)
      throw new Error(`expected offset ${first}, got ${meta[0].offset}`);
    process.stdout.write(`ACK ${meta[meta.length - 1].offset}\n`);
  });
  inflight.add(p);
  p.finally(() => inflight.delete(p));
  if (inflight.size >= 3) await Promise.race(inflight);
}
