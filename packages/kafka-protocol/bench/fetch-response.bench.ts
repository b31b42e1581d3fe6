// Encodes and decodes a Fetch v17 response of N partitions (1 KiB of records each) and a
// Produce v11 request of the same shape, and prints the time per message and per partition.
// Run: pnpm --filter @streamwright/kafka-protocol bench  (through /work/heavy on shared machines)
import { apis } from '../src/index.js';

const partitions = Number(process.argv[2] ?? 1000);
const records = Buffer.alloc(1024, 7);
const fetchResponse = {
  throttleTimeMs: 0,
  errorCode: 0,
  sessionId: 0,
  responses: Array.from({ length: 10 }, (_, t) => ({
    topicId: Buffer.alloc(16, t + 1).toString('base64url'),
    partitions: Array.from({ length: partitions / 10 }, (_, p) => ({
      partitionIndex: p,
      errorCode: 0,
      highWatermark: 1_000_000n + BigInt(p),
      lastStableOffset: 1_000_000n,
      logStartOffset: 0n,
      abortedTransactions: null,
      preferredReadReplica: -1,
      records,
    })),
  })),
};
const produceRequest = {
  transactionalId: null,
  acks: -1,
  timeoutMs: 30000,
  topicData: fetchResponse.responses.map((t, i) => ({
    name: `topic-${i}`,
    partitionData: t.partitions.map((p) => ({ index: p.partitionIndex, records })),
  })),
};

function time(label: string, iterations: number, fn: () => void) {
  for (let i = 0; i < Math.min(iterations, 50); i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  const ns = Number(process.hrtime.bigint() - start) / iterations;
  console.log(
    `${label.padEnd(34)} ${(ns / 1000).toFixed(1).padStart(9)} µs/message  ${(ns / partitions).toFixed(0).padStart(6)} ns/partition`,
  );
}

const iterations = Math.max(20, Math.round(200_000 / partitions));
const fetchBytes = apis.Fetch.encodeResponse(fetchResponse, 17);
const produceBytes = apis.Produce.encodeRequest(produceRequest, 11);
console.log(`${partitions} partitions, ${fetchBytes.length} bytes per Fetch response`);
time('encode Fetch v17 response', iterations, () => apis.Fetch.encodeResponse(fetchResponse, 17));
time('decode Fetch v17 response', iterations, () => apis.Fetch.decodeResponse(fetchBytes, 17));
time('encode Produce v11 request', iterations, () =>
  apis.Produce.encodeRequest(produceRequest, 11),
);
time('decode Produce v11 request', iterations, () => apis.Produce.decodeRequest(produceBytes, 11));
