// Every codec Java clients write, on the embedded log (issue 21's must-show): batches Apache
// Kafka's Java producer writes with each compression.type (through the runtime's Kafka-protocol
// listener, stored as the client sent them) are read by `streamwright consume` and by a running
// topology; `streamwright produce --compression <codec>` stores batches in that codec, which read
// back identically. The segment files say which codec each batch was stored with, so a silently
// uncompressed write cannot pass for a compressed one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPeer } from '@streamwright/java-peer';
import { readBatchHeader } from '@streamwright/log/reader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/runtime.js';
import { cli, ensureBuilt, jsonLines } from './cli-harness.js';
import { eventually, makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';

const CODECS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;
const CODE = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
const COUNT = 20;

let dataDir: string;
let runtime: Runtime;

beforeAll(async () => {
  await ensureBuilt();
  dataDir = await makeDataDir();
  runtime = await startTestRuntime({
    dataDir,
    kafkaListener: { host: '127.0.0.1', port: 0, autoCreateTopics: false },
  });
}, 300_000);
afterAll(async () => {
  await runtime?.close();
  await removeDataDir(dataDir);
});

/** The compression codes of every batch stored for partition 0 of `topic`. */
function storedCodecs(topic: string): Set<number> {
  const dirs = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter(
    (e) => e.isDirectory() && e.name === `${topic}-0`,
  );
  expect(dirs, `the segment directory of ${topic}`).toHaveLength(1);
  const dir = join(dirs[0]!.parentPath, dirs[0]!.name);
  const codes = new Set<number>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.log'))) {
    const file = readFileSync(join(dir, name));
    for (let at = 0; at + 61 <= file.length;) {
      const header = readBatchHeader(file, at);
      codes.add(header.attributes & 0x07);
      at += header.sizeInBytes;
    }
  }
  return codes;
}

const consume = async (topic: string) => {
  const out = await cli(
    ['consume', topic, '--from-beginning', '-n', String(COUNT), '--url', runtime.url],
    { timeoutMs: 60_000 },
  );
  expect(out.code, out.stderr).toBe(0);
  return jsonLines<{ key: string; value: string; offset: number }>(out.stdout);
};

describe('every codec on the embedded log', () => {
  it('reads what the Java producer wrote with each compression.type: consume and a topology', async () => {
    const client = makeClient(runtime.url);
    for (const codec of CODECS) {
      await client.topics.create.mutate({ name: `java-${codec}`, partitions: 1 });
      await client.topics.create.mutate({ name: `copy-${codec}`, partitions: 1 });
      await runPeer('listener.ListenerInterop', {
        args: [
          'produce',
          '--bootstrap-servers',
          runtime.kafkaListener!.address,
          '--topic',
          `java-${codec}`,
          '--count',
          String(COUNT),
          '--key-prefix',
          codec,
          '--compression',
          codec,
        ],
        jvmArgs: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
      });
      expect(storedCodecs(`java-${codec}`), codec).toEqual(new Set([CODE[codec]]));
      const read = await consume(`java-${codec}`);
      expect(read.map((r) => [r.key, r.value])).toEqual(
        Array.from({ length: COUNT }, (_, i) => [`${codec}-${i}`, `value-${codec}-${i}`]),
      );
    }

    // one topology copying every codec's topic: each record arrives once, as written
    const nodes = CODECS.flatMap((codec) => [
      {
        id: `in_${codec}`,
        kind: 'source',
        config: { topic: `java-${codec}`, keySerde: 'string', valueSerde: 'string' },
      },
      {
        id: `out_${codec}`,
        kind: 'sink',
        config: { topic: `copy-${codec}`, keySerde: 'string', valueSerde: 'string' },
      },
    ]);
    const deployed = await client.app.deploy.mutate({
      topology: {
        schemaVersion: 1,
        application: { id: 'codec-copy', config: { 'commit.interval.ms': 100 } },
        topics: CODECS.flatMap((codec) => [
          { name: `java-${codec}`, partitions: 1, config: {} },
          { name: `copy-${codec}`, partitions: 1, config: {} },
        ]),
        stores: [],
        nodes,
        edges: CODECS.map((codec) => ({
          from: `in_${codec}`,
          fromPort: 'out',
          to: `out_${codec}`,
          toPort: 'in',
        })),
        layout: { nodes: {} },
      },
    });
    expect(deployed.ok, JSON.stringify(deployed)).toBe(true);
    for (const codec of CODECS) {
      const copied = await eventually(
        async () => {
          const records = await client.topics.read.query({
            topic: `copy-${codec}`,
            limit: 100,
            valueSerde: 'string',
          });
          return records.length >= COUNT ? records : undefined;
        },
        `the copy of java-${codec}`,
        60_000,
      );
      expect(copied.map((r) => r.value).sort()).toEqual(
        Array.from({ length: COUNT }, (_, i) => `value-${codec}-${i}`).sort(),
      );
    }
  }, 240_000);

  it('produce --compression stores batches in that codec, read back identically', async () => {
    const client = makeClient(runtime.url);
    const lines = Array.from({ length: COUNT }, (_, i) =>
      JSON.stringify({
        key: `k${i % 3}`,
        value: `order ${i} shipped to user-${i}; `.repeat(20),
        headers: [{ key: 'bin', value: { base64: Buffer.from([0xff, i]).toString('base64') } }],
      }),
    ).join('\n');
    for (const codec of CODECS) {
      const topic = `cli-${codec}`;
      await client.topics.create.mutate({ name: topic, partitions: 1 });
      const produced = await cli(['produce', topic, '--compression', codec, '--url', runtime.url], {
        input: lines,
      });
      expect(produced.code, produced.stderr).toBe(0);
      expect(storedCodecs(topic), codec).toEqual(new Set([CODE[codec]]));
      const read = await consume(topic);
      expect(
        read.map((r) =>
          JSON.stringify({
            key: r.key,
            value: r.value,
            headers: (r as { headers?: unknown }).headers,
          }),
        ),
      ).toEqual(lines.split('\n'));
    }
    const refused = await cli([
      'produce',
      'cli-none',
      '--compression',
      'brotli',
      '--url',
      runtime.url,
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('brotli');
  }, 240_000);
});
