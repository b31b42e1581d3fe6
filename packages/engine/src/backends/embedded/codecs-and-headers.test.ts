// The embedded backend with every codec Java clients write and with Kafka's headers exactly
// (binary and null values, repeated keys, order): produced with the producer's compression.type
// or the topic's, stored with that codec (the segment file says so), read back identically, also
// across the worker wire (what a stream thread in a worker receives and sends).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerEntries, headersOf, readBatchHeader } from '@streamwright/log/reader';
import { describe, expect, it } from 'vitest';
import type { CompressionType, ProduceRecord, StoredRecord } from '../../backend-spi.js';
import { packFetch, packProduce, unpackFetch, unpackProduce } from '../../thread/worker/wire.js';
import { createEmbeddedBackend } from './embedded-backend.js';
import { bytes, withTempDir } from '../../test-helpers.js';

const CODECS: CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
const CODE: Record<CompressionType, number> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };

const HEADERS = [
  { key: 'trace', value: bytes('t-1') },
  { key: 'bin', value: new Uint8Array([0xff, 0x00, 0xfe]) },
  { key: 'trace', value: bytes('t-2') },
  { key: 'empty', value: new Uint8Array(0) },
  { key: 'none', value: null },
];

function records(topic: string): ProduceRecord[] {
  return Array.from({ length: 20 }, (_, i) => ({
    topic,
    partition: 0,
    key: i % 4 === 3 ? null : bytes(`k${i}`),
    value: bytes(`value ${i} `.repeat(500)),
    timestamp: 1_000 + i,
    headers: i % 2 === 0 ? headersOf(HEADERS) : { plain: `text-${i}` },
  }));
}

const hex = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('hex'));
const comparable = (r: Pick<StoredRecord, 'key' | 'value' | 'timestamp' | 'headers'>) => ({
  key: hex(r.key),
  value: hex(r.value),
  timestamp: r.timestamp,
  headers: headerEntries(r.headers).map((h) => ({ key: h.key, value: hex(h.value) })),
});

function storedCodecs(dataDir: string, topic: string): Set<number> {
  const dir = join(dataDir, `${topic}-0`);
  const codecs = new Set<number>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
    const file = readFileSync(join(dir, name));
    for (let at = 0; at + 61 <= file.length;) {
      const h = readBatchHeader(file, at);
      codecs.add(h.attributes & 0x07);
      at += h.sizeInBytes;
    }
  }
  return codecs;
}

describe('embedded backend: codecs and exact headers', () => {
  it.each(CODECS)(
    '%s as the producer and as the topic config, read back exactly',
    async (codec) => {
      await withTempDir(async (dataDir) => {
        const backend = await createEmbeddedBackend({ dataDir });
        try {
          await backend.createTopics([
            { name: 'by-producer', partitions: 1 },
            { name: 'by-topic', partitions: 1, config: { 'compression.type': codec } },
          ]);
          const input = records('by-producer');
          await backend.produce(input, { compression: codec });
          await backend.produce(records('by-topic'), { compression: 'none' });
          for (const topic of ['by-producer', 'by-topic']) {
            expect(storedCodecs(dataDir, topic)).toEqual(new Set([CODE[codec]]));
            const got = await backend.fetch({ topic, partition: 0 }, 0, 100, 0);
            expect(got.map(comparable)).toEqual(
              input.map((r) => comparable({ ...r, headers: r.headers! } as StoredRecord)),
            );
            // The text view: last value of a repeated key; null as ''.
            expect(got[0]!.headers).toEqual({
              trace: 't-2',
              bin: '\ufffd\u0000\ufffd',
              empty: '',
              none: '',
            });
            expect(got[1]!.headers).toEqual({ plain: 'text-1' });
          }
        } finally {
          await backend.close();
        }
      });
    },
  );

  it('keeps exact headers across the worker wire, both ways', () => {
    const input = records('t');
    const produced = unpackProduce(packProduce(input));
    expect(produced.map((r) => comparable(r as StoredRecord))).toEqual(
      input.map((r) => comparable(r as StoredRecord)),
    );
    const stored = input.map((r, i): StoredRecord => ({
      topic: 't',
      partition: 0,
      offset: i,
      timestamp: r.timestamp!,
      key: r.key,
      value: r.value,
      headers: r.headers!,
    }));
    const [fetched] = unpackFetch(
      packFetch([{ topic: 't', partition: 0, records: stored, highWatermark: 20 }]),
    );
    expect(fetched!.records.map(comparable)).toEqual(stored.map(comparable));
  });

  it('writes headers edited as text as text, and headers passed on as read exactly', () => {
    const read = headersOf(HEADERS);
    expect(headerEntries(read)).toBe(headerEntries(read)); // the exact list itself
    const edited = { ...read, added: 'x' };
    expect(headerEntries(edited).map((h) => h.key)).toEqual([
      'trace',
      'bin',
      'empty',
      'none',
      'added',
    ]);
    expect(headerEntries(edited)[0]!.value).toEqual(bytes('t-2'));
  });
});
