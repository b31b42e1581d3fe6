// Interop with kcat (Debian's kcat 1.7.1 over librdkafka, a Kafka client in C we did not write)
// on the real broker, for every codec: kcat produces with -z <codec> and the Kafka backend reads
// the records identically; the backend writes with each codec and kcat consumes them. Headers
// with a repeated key go both ways in order. `npm test` installs kcat (scripts/test.mjs).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerEntries, headersOf, readBatchHeader } from '@streamwright/log/reader';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Backend, CompressionType, StoredRecord } from '../../src/backend-spi.js';
import { kafkaBackend } from './kafka-fixtures.js';

const CODECS: CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
const CODE: Record<CompressionType, number> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
const COUNT = 40;
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

function kcat(args: string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('kcat', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) =>
      reject(new Error(`kcat did not start (${e.message}): npm test installs Debian's kcat`)),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`kcat ${args.join(' ')} exited ${code}: ${err}`)),
    );
    child.stdin.end(input);
  });
}

function storedCodecs(topic: string): Set<number> {
  const file = readFileSync(join(inject('kafkaLogDir'), `${topic}-0`, '00000000000000000000.log'));
  const codecs = new Set<number>();
  for (let at = 0; at + 61 <= file.length;) {
    const h = readBatchHeader(file, at);
    if ((h.attributes & 0x20) === 0) codecs.add(h.attributes & 0x07);
    at += h.sizeInBytes;
  }
  return codecs;
}

async function fetchAll(backend: Backend, topic: string): Promise<StoredRecord[]> {
  const out: StoredRecord[] = [];
  for (let offset = 0; ;) {
    const got = await backend.fetch({ topic, partition: 0 }, offset, 1000, 0);
    if (got.length === 0) return out;
    out.push(...got);
    offset = got[got.length - 1]!.offset + 1;
  }
}

const valueOf = (i: number) => `event ${i}: ${'shipped to user-17, 42.50 EUR; '.repeat(20)}`;

describe('interop with kcat (librdkafka), every codec', () => {
  let backend: Backend;
  const broker = inject('kafkaBootstrapServers');

  beforeAll(async () => {
    backend = await kafkaBackend();
    await backend.createTopics(
      CODECS.flatMap((c) => [
        { name: `kcat-in-${c}`, partitions: 1 },
        { name: `kcat-out-${c}`, partitions: 1 },
      ]),
    );
  });
  afterAll(async () => {
    await backend?.close();
  });

  it.each(CODECS)('reads what kcat produced with -z %s', async (codec) => {
    const topic = `kcat-in-${codec}`;
    const lines = Array.from({ length: COUNT }, (_, i) => `key-${i}|${valueOf(i)}`).join('\n');
    await kcat(
      ['-P', '-b', broker, '-t', topic, '-z', codec, '-K', '|', '-H', 'h=1', '-H', 'h=2'],
      `${lines}\n`,
    );
    expect(storedCodecs(topic)).toEqual(new Set([CODE[codec]]));
    const got = await fetchAll(backend, topic);
    expect(got.map((r) => [text(r.key), text(r.value)])).toEqual(
      Array.from({ length: COUNT }, (_, i) => [`key-${i}`, valueOf(i)]),
    );
    for (const r of got)
      expect(headerEntries(r.headers).map((h) => [h.key, text(h.value)])).toEqual([
        ['h', '1'],
        ['h', '2'],
      ]);
  });

  it.each(CODECS)('writes with compression.type=%s what kcat consumes', async (codec) => {
    const topic = `kcat-out-${codec}`;
    await backend.produce(
      Array.from({ length: COUNT }, (_, i) => ({
        topic,
        key: bytes(`key-${i}`),
        value: bytes(valueOf(i)),
        timestamp: 1_700_000_000_000 + i,
        headers: headersOf([
          { key: 'h', value: bytes('1') },
          { key: 'h', value: bytes('2') },
        ]),
      })),
      { compression: codec },
    );
    expect(storedCodecs(topic)).toEqual(new Set([CODE[codec]]));
    const out = await kcat([
      '-C',
      '-b',
      broker,
      '-t',
      topic,
      '-o',
      'beginning',
      '-c',
      String(COUNT),
      '-e',
      '-J',
    ]);
    const got = out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { key: string; payload: string; ts: number; headers: string[] });
    expect(got.map((m) => [m.key, m.payload, m.ts, m.headers])).toEqual(
      Array.from({ length: COUNT }, (_, i) => [
        `key-${i}`,
        valueOf(i),
        1_700_000_000_000 + i,
        ['h', '1', 'h', '2'],
      ]),
    );
  });
});
