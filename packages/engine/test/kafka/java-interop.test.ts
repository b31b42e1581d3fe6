// Interop with Apache Kafka's own Java clients (kafka-clients 4.1.1, tools/java-peer's Interop
// program) on the real broker, for every codec: the Java producer writes with compression.type
// = each codec and the Kafka backend reads the records identically; the backend writes with each
// codec (plain and transactional) and the Java consumer reads them read_committed. The broker's
// own segment files say which codec each batch was stored with, so a silently uncompressed write
// cannot pass for a compressed one. Headers go both ways exactly as Kafka has them: binary values,
// null values, repeated keys, in order.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { javaConsume, javaProduce, type InteropRecord } from '@streamwright/java-peer';
import { headerEntries, headersOf, readBatchHeader } from '@streamwright/log/reader';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {
  Backend,
  CompressionType,
  ProduceRecord,
  StoredRecord,
} from '../../src/backend-spi.js';
import { createEmbeddedBackend } from '../../src/backends/embedded/index.js';
import { withTempDir } from '../../src/test-helpers.js';
import { kafkaBackend } from './kafka-fixtures.js';

const CODECS: CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
const CODE: Record<CompressionType, number> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
const PARTITIONS = 3;
const bytes = (s: string) => new TextEncoder().encode(s);
const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));

/**
 * Records as a Java service writes them: keyed and unkeyed, text and binary values (some large
 * enough for several compression blocks), a tombstone, headers, explicit timestamps.
 */
function sampleRecords(): InteropRecord[] {
  const text = 'order shipped to user-17, amount 42.50 EUR; '.repeat(2000); // ≈ 90 KB
  return Array.from({ length: 30 }, (_, i) => ({
    key: i % 5 === 4 ? null : bytes(`key-${i % 7}`),
    value:
      i === 6 ? null : i % 3 === 0 ? bytes(`${i}:${text}`) : new Uint8Array(randomBytes(200 + i)),
    timestamp: 1_700_000_000_000 + i * 1000,
    headers:
      i % 2 === 0
        ? [
            { key: 'trace', value: bytes(`t-${i}`) },
            { key: 'bin', value: new Uint8Array([0xff, 0x00, 0xfe, i]) }, // not UTF-8
            { key: 'trace', value: bytes('again') }, // a repeated key, after another
            { key: 'none', value: null },
          ]
        : [],
  }));
}

/** A partition's data batches as the broker stored them (its segment file), bytes unchanged. */
function storedBatches(topic: string, partition: number): Buffer[] {
  const file = readFileSync(
    join(inject('kafkaLogDir'), `${topic}-${partition}`, '00000000000000000000.log'),
  );
  const out: Buffer[] = [];
  for (let at = 0; at + 61 <= file.length;) {
    const h = readBatchHeader(file, at);
    if ((h.attributes & 0x20) === 0) out.push(file.subarray(at, at + h.sizeInBytes));
    at += h.sizeInBytes;
  }
  return out;
}

/** The codec of every data batch of a topic, from the broker's segment files. */
function storedCodecs(topic: string): Set<number> {
  const codecs = new Set<number>();
  for (let p = 0; p < PARTITIONS; p++)
    for (const b of storedBatches(topic, p)) codecs.add(readBatchHeader(b, 0).attributes & 0x07);
  return codecs;
}

async function fetchAll(backend: Backend, topic: string): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (let p = 0; p < PARTITIONS; p++) {
    for (let offset = 0; ;) {
      const got = await backend.fetch({ topic, partition: p }, offset, 1000, 0);
      if (got.length === 0) break;
      out.push(...got);
      offset = got[got.length - 1]!.offset + 1;
    }
  }
  return out;
}

/** What both sides must agree on, bytes as hex. */
function comparable(r: {
  partition: number;
  offset: number;
  timestamp: number;
  key: Uint8Array | null;
  value: Uint8Array | null;
  headers: { key: string; value: Uint8Array | null }[];
}) {
  return {
    partition: r.partition,
    offset: r.offset,
    timestamp: r.timestamp,
    key: hex(r.key),
    value: hex(r.value),
    headers: r.headers.map((h) => ({ key: h.key, value: hex(h.value) })),
  };
}

describe('interop with the Java clients (kafka-clients 4.1.1), every codec', () => {
  let backend: Backend;
  const bootstrapServers = inject('kafkaBootstrapServers');

  beforeAll(async () => {
    backend = await kafkaBackend();
    await backend.createTopics(
      CODECS.flatMap((c) => [
        { name: `ji-java-${c}`, partitions: PARTITIONS },
        { name: `ji-ours-${c}`, partitions: PARTITIONS },
        { name: `ji-ours-txn-${c}`, partitions: PARTITIONS },
      ]),
    );
  });
  afterAll(async () => {
    await backend?.close();
  });

  it.each(CODECS)('reads what the Java producer wrote with compression.type=%s', async (codec) => {
    const topic = `ji-java-${codec}`;
    const records = sampleRecords();
    const positions = await javaProduce({ bootstrapServers, topic, records, compression: codec });
    expect(storedCodecs(topic)).toEqual(new Set([CODE[codec]]));
    const expected = records
      .map((r, i) => comparable({ ...positions[i]!, ...r, headers: r.headers ?? [] }))
      .sort((a, b) => a.partition - b.partition || a.offset - b.offset);
    const ours = await fetchAll(backend, topic);
    expect(ours.map((r) => comparable({ ...r, headers: [...headerEntries(r.headers)] }))).toEqual(
      expected,
    );
    // The same batches, copied unchanged into the embedded log (its full LogValidator checks,
    // decompression included), read by the embedded backend identically.
    await withTempDir(async (dataDir) => {
      const embedded = await createEmbeddedBackend({ dataDir });
      try {
        await embedded.createTopics([{ name: topic, partitions: PARTITIONS }]);
        for (let p = 0; p < PARTITIONS; p++)
          for (const batch of storedBatches(topic, p))
            await embedded.log.produceBatches([{ topic, partition: p, batches: batch }]);
        const copied = await fetchAll(embedded, topic);
        expect(
          copied.map((r) => comparable({ ...r, headers: [...headerEntries(r.headers)] })),
        ).toEqual(expected);
      } finally {
        await embedded.close();
      }
    });
    // The text view: the last value of a repeated key.
    const first = ours.find((r) => r.offset === 0 && headerEntries(r.headers).length > 0);
    if (first) expect(first.headers.trace).toBe('again');
  });

  it.each(CODECS)(
    'writes with compression.type=%s what the Java consumer reads (plain and transactional)',
    async (codec) => {
      const records = sampleRecords();
      const produce = (topic: string): ProduceRecord[] =>
        records.map((r) => ({
          topic,
          key: r.key,
          value: r.value,
          timestamp: r.timestamp!,
          headers: headersOf(r.headers ?? []),
        }));
      const plain = await backend.produce(produce(`ji-ours-${codec}`), { compression: codec });
      const producer = await backend.transactionalProducer!(`ji-txn-${codec}`);
      producer.beginTransaction();
      const txn = await producer.send(produce(`ji-ours-txn-${codec}`), { compression: codec });
      await producer.commitTransaction();
      for (const [topic, positions] of [
        [`ji-ours-${codec}`, plain],
        [`ji-ours-txn-${codec}`, txn],
      ] as const) {
        expect(storedCodecs(topic)).toEqual(new Set([CODE[codec]]));
        const java = await javaConsume({ bootstrapServers, topic, count: records.length });
        const expected = records
          .map((r, i) =>
            comparable({
              ...positions[i]!,
              ...r,
              timestamp: r.timestamp!,
              headers: r.headers ?? [],
            }),
          )
          .sort((a, b) => a.partition - b.partition || a.offset - b.offset);
        expect(java.map(comparable)).toEqual(expected);
        expect(new Set(java.map((r) => r.timestampType))).toEqual(new Set(['CreateTime']));
      }
    },
  );
});
