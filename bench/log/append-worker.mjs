// The producer thread of bench/log/append.mjs: builds its records before the clock starts, then on
// 'go' produces them through a RemoteLog (which encodes the batches here, on this thread) with
// `inflight` produce calls in flight, and reports 'done' once the last one is acknowledged.
import { parentPort, workerData } from 'node:worker_threads';
import { lib } from './common.mjs';

const { port, total, batch, inflight, recordBytes } = workerData;
const remote = lib.connectLog(port);
const value = Buffer.alloc(recordBytes - 16, 7);
const batches = [];
for (let i = 0; i < total; i += batch) {
  const records = [];
  for (let j = i; j < Math.min(total, i + batch); j++)
    records.push({
      topic: 'bench',
      partition: 0,
      key: Buffer.from(String(j).padStart(16, '0')),
      value,
      timestamp: 1,
    });
  batches.push(records);
}
// One small produce first, so topic metadata is cached before the clock starts (as a warmed-up
// Kafka producer has it); its record is not counted.
await remote.produce([
  { topic: 'bench', partition: 0, key: null, value: Buffer.alloc(1), timestamp: 1 },
]);
parentPort.postMessage('ready');
parentPort.once('message', async () => {
  const pending = new Set();
  for (const records of batches) {
    const p = remote.produce(records, { acks: 'all' });
    pending.add(p);
    p.then(() => pending.delete(p));
    if (pending.size >= inflight) await Promise.race(pending);
  }
  await Promise.all(pending);
  parentPort.postMessage('done');
  remote.close();
});
