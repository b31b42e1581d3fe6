// Streamwright next to the Java services of a real deployment, on the real broker: keyed records
// land on the partitions Apache Kafka's Java producer chooses (so a Java consumer group and a
// Streamwright task agree on where a key lives), and Kafka Streams 4.1.1 applications
// (tools/java-peer's StreamsChain) chained with Streamwright applications through topics give
// the same records as either alone: Java marks → Streamwright counts, Streamwright marks → Java
// counts, Java marks and counts, Streamwright marks and counts.
import { spawn, type ChildProcess } from 'node:child_process';
import { ensurePeerBuilt, javaConsume, javaProduce, peerClasspath } from '@streamwright/java-peer';
import type { Topology, TopologyNode } from '@streamwright/topology-model';
import { afterAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import type { Backend } from '../../src/backend-spi.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { partitionFor } from '../../src/partitioner/default-partitioner.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { topology } from '../fixtures/topologies.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend } from './kafka-fixtures.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));
const long = (b: Uint8Array | null) =>
  b === null ? null : Number(Buffer.from(b).readBigInt64BE(0));

let backend: Backend;
afterAll(async () => {
  await backend?.close();
});

describe('Streamwright beside Java clients and Kafka Streams on one broker', () => {
  it('sends a keyed record to the partition the Java producer chooses', async () => {
    backend ??= await kafkaBackend({ sessionTimeoutMs: 6_000 });
    const run = `p${Date.now()}`;
    const partitions = 7;
    await backend.createTopics([
      { name: `chain-java-keys-${run}`, partitions },
      { name: `chain-our-keys-${run}`, partitions },
    ]);
    const keys = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0 ? `user-${i}` : i % 3 === 1 ? `${i * 7919}` : `ключ-${i}-🔑`,
    );
    const java = await javaProduce({
      bootstrapServers: inject('kafkaBootstrapServers'),
      topic: `chain-java-keys-${run}`,
      records: keys.map((k) => ({ key: bytes(k), value: bytes('v') })),
    });
    const ours = await backend.produce(
      keys.map((k) => ({ topic: `chain-our-keys-${run}`, key: bytes(k), value: bytes('v') })),
    );
    expect(ours.map((p) => p.partition)).toEqual(java.map((p) => p.partition));
    expect(keys.map((k) => partitionFor(bytes(k), partitions))).toEqual(
      java.map((p) => p.partition),
    );
    // every partition used: the check is not passing on one partition
    expect(new Set(java.map((p) => p.partition)).size).toBe(partitions);
  });

  it('chained with Kafka Streams through topics, gives what either gives alone', async () => {
    backend ??= await kafkaBackend({ sessionTimeoutMs: 6_000 });
    const run = `c${Date.now()}`;
    const t = (name: string) => `chain-${name}-${run}`;
    const PARTITIONS = 3;
    await backend.createTopics(
      ['in', 'java-marked', 'our-marked', 'java-then-ours', 'ours-then-java', 'java', 'ours'].map(
        (name) => ({ name: t(name), partitions: PARTITIONS }),
      ),
    );
    const KEYS = 6;
    const RECORDS = 60;
    const input = Array.from({ length: RECORDS }, (_, i) => ({
      key: `k${i % KEYS}`,
      value: `v${i}`,
    }));
    await javaProduce({
      bootstrapServers: inject('kafkaBootstrapServers'),
      topic: t('in'),
      records: input.map((r) => ({ key: bytes(r.key), value: bytes(r.value) })),
    });

    // Kafka Streams: marks (in → java-marked), counts what Streamwright marked (our-marked →
    // ours-then-java), marks and counts alone (in → java)
    ensurePeerBuilt();
    const java: ChildProcess = spawn(
      'java',
      [
        '-Xshare:auto',
        '-XX:TieredStopAtLevel=1',
        '-cp',
        peerClasspath(),
        'dev.streamwright.peer.StreamsChain',
        '--bootstrap-servers',
        inject('kafkaBootstrapServers'),
        `chain-java-mark-${run}:mark:${t('in')}:${t('java-marked')}`,
        `chain-java-count-${run}:count:${t('our-marked')}:${t('ours-then-java')}`,
        `chain-java-both-${run}:both:${t('in')}:${t('java')}`,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let javaErr = '';
    java.stderr!.on('data', (d) => (javaErr = (javaErr + String(d)).slice(-4000)));
    const javaExit = new Promise<number | null>((resolve) => java.on('close', resolve));
    onTestFinished(async () => {
      java.stdin!.end(); // StreamsChain closes its applications when its stdin closes
      const timer = setTimeout(() => java.kill('SIGKILL'), 20_000);
      await javaExit;
      clearTimeout(timer);
    });

    // Streamwright: counts what Kafka Streams marked, marks (in → our-marked), marks and counts
    const config = {
      'commit.interval.ms': 100,
      'statestore.cache.max.bytes': 0,
      'session.timeout.ms': 6_000,
      'heartbeat.interval.ms': 500,
    };
    const source = (topic: string): TopologyNode => ({
      id: 'src',
      kind: 'source',
      config: { topic, keySerde: 'string', valueSerde: 'string', offsetReset: 'earliest' },
    });
    const mark: TopologyNode = {
      id: 'mark',
      kind: 'mapValues',
      config: { expression: 'value + "!"' },
    };
    const count: TopologyNode[] = [
      { id: 'group', kind: 'groupByKey', config: {} },
      { id: 'count', kind: 'count', config: { store: 'counts' } },
      { id: 'stream', kind: 'toStream', config: {} },
    ];
    const sink = (topic: string, valueSerde: 'string' | 'long'): TopologyNode => ({
      id: 'out',
      kind: 'sink',
      config: { topic, keySerde: 'string', valueSerde },
    });
    const topics = (...names: string[]) =>
      names.map((name) => ({ name: t(name), partitions: PARTITIONS, config: {} }));
    const ours: Topology[] = [
      topology(
        `chain-our-count-${run}`,
        config,
        topics('java-marked', 'java-then-ours'),
        [source(t('java-marked')), ...count, sink(t('java-then-ours'), 'long')],
        [
          ['src', 'group'],
          ['group', 'count'],
          ['count', 'stream'],
          ['stream', 'out'],
        ],
      ),
      topology(
        `chain-our-mark-${run}`,
        config,
        topics('in', 'our-marked'),
        [source(t('in')), mark, sink(t('our-marked'), 'string')],
        [
          ['src', 'mark'],
          ['mark', 'out'],
        ],
      ),
      topology(
        `chain-our-both-${run}`,
        config,
        topics('in', 'ours'),
        [source(t('in')), mark, ...count, sink(t('ours'), 'long')],
        [
          ['src', 'mark'],
          ['mark', 'group'],
          ['group', 'count'],
          ['count', 'stream'],
          ['stream', 'out'],
        ],
      ),
    ];
    for (const doc of ours) {
      const app = createStreamsApp({ topology: doc, backend, stateDir: tempStateDir() });
      onTestFinished(() => app.close());
      await app.start();
      await waitFor(() => app.state() === 'RUNNING', 60_000, `${doc.application.id} RUNNING`);
    }

    // What each output holds, per key in offset order (a key lives in one partition).
    const byKey = async (topic: string, decode: (b: Uint8Array | null) => unknown) => {
      const records = await javaConsume({
        bootstrapServers: inject('kafkaBootstrapServers'),
        topic,
        count: RECORDS,
        timeoutMs: 120_000,
      }).catch((e: unknown) => {
        throw new Error(`${topic}: ${String(e)}\nKafka Streams' stderr: ${javaErr}`);
      });
      const out: Record<string, unknown[]> = {};
      for (const r of records) (out[text(r.key)!] ??= []).push(decode(r.value));
      return out;
    };
    // Kafka Streams' semantics for this input: each key's values marked, and counted 1, 2, …
    const marked: Record<string, string[]> = {};
    for (const r of input) (marked[r.key] ??= []).push(`${r.value}!`);
    const counted = Object.fromEntries(
      Object.entries(marked).map(([k, vs]) => [k, vs.map((_, i) => i + 1)]),
    );
    expect(await byKey(t('java-marked'), text)).toEqual(marked);
    expect(await byKey(t('our-marked'), text)).toEqual(marked);
    expect(await byKey(t('java'), long)).toEqual(counted);
    expect(await byKey(t('ours'), long)).toEqual(counted);
    expect(await byKey(t('java-then-ours'), long)).toEqual(counted);
    expect(await byKey(t('ours-then-java'), long)).toEqual(counted);
  }, 240_000);
});
