// The producer thread of bench/log/append.mjs: builds its records before the clock starts, then on
// 'go' produces them through a RemoteLog (which encodes the batches here, on this thread) with
// `inflight` produce calls in flight, and reports 'done' once the last one is acknowledged.
import { parentPort, workerData } from 'node:worker_threads';
import { threadCpuMs } from './common.mjs';

const { port, total, batch, inflight, recordBytes, libUrl } = workerData;
// The build under test (or the baseline of an A/B run: see append.mjs --baseline).
const lib = await import(libUrl);
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
// A few produce calls first, so topic metadata is cached and this new thread's JIT has compiled
// the encoder before the clock starts (as in a warmed-up Kafka producer; the main thread's modes
// run on a JIT warmed by the earlier runs); their records are not counted.
for (const records of batches.slice(0, 8)) await remote.produce(records);
parentPort.postMessage('ready');
parentPort.once('message', async () => {
  const cpu = threadCpuMs();
  const pending = new Set();
  for (const records of batches) {
    const p = remote.produce(records, { acks: 'all' });
    pending.add(p);
    p.then(() => pending.delete(p));
    if (pending.size >= inflight) await Promise.race(pending);
  }
  await Promise.all(pending);
  parentPort.postMessage({ done: true, cpuMs: threadCpuMs() - cpu });
  remote.close();
});
