// Kafka Streams itself on the embedded log: the seed's KStream-vs-KTable application as a Java
// Kafka Streams 4.1 app (tools/java-peer, listener.StreamsSumByKey) runs against the log's Kafka
// listener, with at_least_once and exactly_once_v2, and writes exactly what Streamwright's engine
// writes for the same topology and input (its test driver, record cache off on both sides).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDriver, type BuiltTopology } from '@streamwright/engine';
import { runPeer } from '@streamwright/java-peer';
import { startKafkaListener, type KafkaListener } from '@streamwright/kafka-listener';
import { Log } from '@streamwright/log';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORDS, streamSum, tableSum } from '../kstream-vs-ktable/sum-by-key.js';

interface Out {
  key: string;
  value: number;
  timestamp: number;
}

const inputs = RECORDS.map(([key, value], i) => ({ key, value, timestamp: 1000 * (i + 1) }));

function engineOutput(topology: BuiltTopology, output: string): Out[] {
  const driver = createTestDriver(topology);
  for (const r of inputs) driver.pipeInput('scores', r.key, r.value, r.timestamp);
  return driver
    .readOutput(output)
    .map((r) => ({ key: r.key as string, value: Number(r.value), timestamp: r.timestamp }));
}

const longBytes = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function listenerOnFreshLog(): Promise<{ log: Log; listener: KafkaListener; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-ks-on-listener-'));
  const log = await Log.open({ dataDir: path.join(dir, 'log') });
  const listener = await startKafkaListener({
    log,
    host: '127.0.0.1',
    port: 0,
    identityFile: path.join(dir, 'kafka-listener.json'),
    logger: { info: () => undefined, warn: (obj, msg) => console.warn(msg, obj) },
  });
  cleanup.push(async () => {
    await listener.close();
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { log, listener, dir };
}

const cases = [
  { name: 'stream', output: 'stream-sums', dsl: streamSum },
  { name: 'table', output: 'table-sums', dsl: tableSum },
] as const;

describe('Java Kafka Streams 4.1 on the Kafka listener equals the engine', () => {
  for (const guarantee of ['at_least_once', 'exactly_once_v2'] as const)
    for (const c of cases)
      it(`${c.name} sum with ${guarantee}`, async () => {
        const { log, listener, dir } = await listenerOnFreshLog();
        await log.createTopics([
          { name: 'scores', partitions: 1 },
          { name: c.output, partitions: 1 },
        ]);
        await log.produce(
          inputs.map((r) => ({
            topic: 'scores',
            partition: 0,
            key: Buffer.from(r.key),
            value: longBytes(r.value),
            timestamp: r.timestamp,
          })),
        );
        const expected = engineOutput(c.dsl(), c.output);
        expect(expected.length).toBeGreaterThan(0);
        const stdout = await runPeer('listener.StreamsSumByKey', {
          args: [
            '--bootstrap-servers',
            listener.address,
            '--case',
            c.name,
            '--guarantee',
            guarantee,
            '--expect',
            String(expected.length),
            '--state-dir',
            path.join(dir, 'kafka-streams-state'),
          ],
          jvmArgs: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
        });
        const got = (JSON.parse(stdout.trim().split('\n').pop()!) as { records: Out[] }).records;
        expect(got).toEqual(expected);
        // The log holds the same records (read_committed: only what the app committed).
        const stored = await log.fetch(c.output, 0, 0, {
          isolationLevel: 'read_committed',
          maxBytes: 1 << 20,
        });
        expect(
          stored.records.map((r) => ({
            key: Buffer.from(r.key!).toString(),
            value: Number(Buffer.from(r.value!).readBigInt64BE()),
            timestamp: r.timestamp,
          })),
        ).toEqual(expected);
        // exactly_once_v2 wrote through transactions: COMMIT markers sit between the records.
        if (guarantee === 'exactly_once_v2')
          expect(log.latestOffset(c.output, 0)).toBeGreaterThan(expected.length);
        else expect(log.latestOffset(c.output, 0)).toBe(expected.length);
      }, 180_000);
});
