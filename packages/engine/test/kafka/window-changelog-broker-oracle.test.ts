// What windowed aggregations write to their changelogs and forward downstream when the record
// cache flushes, compared byte for byte with Apache Kafka Streams 4.1 running the same topology
// document on the real broker (tools/ks-oracle's BrokerRun; TopologyTestDriver commits after
// every record, so it never shows a window that expires between two flushes).
//
// Deterministic by construction: one input partition, `commit.interval.ms` far beyond the test,
// and a cache large enough never to evict, so both sides process the whole input before their
// one flush, the clean close. Kafka Streams' CachingWindowStore / CachingSessionStore then put
// every dirty window into the change-logging store, which logs it even when the segmented store
// below drops it as expired (ChangeLoggingWindowBytesStore#put, AbstractRocksDBSegmentedBytesStore
// #put), and forward it; with the cache off every put is logged and forwarded. Our side runs on
// the embedded backend with the same document; the changelog and output topics must hold the
// same records (key bytes, value bytes, timestamp) in the same order.
import { runOnBroker, type BrokerRecord } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createEmbeddedBackend } from '../../src/backends/embedded/index.js';
import { encode, readAll } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';

type Window = Record<string, unknown>;
type Input = { topic: string; key: string; value: unknown; timestamp: number };

/** source → groupByKey → windowedBy → count (store `counts`) → toStream → map → sink. */
function countDoc(id: string, window: Window, cacheBytes: number) {
  const nodes = [
    { id: 'src', kind: 'source', config: { topic: `${id}-in` } },
    { id: 'g', kind: 'groupByKey', config: {} },
    { id: 'w', kind: 'windowedBy', config: { window } },
    { id: 'agg', kind: 'windowedCount', config: { store: 'counts' } },
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'm',
      kind: 'map',
      config: {
        expression:
          '{"key": key.key + "@" + string(key.start) + "/" + string(key.end), "value": value}',
      },
    },
    { id: 'out', kind: 'sink', config: { topic: `${id}-out`, valueSerde: 'long' } },
  ];
  return {
    schemaVersion: 1,
    application: {
      id,
      config: { 'statestore.cache.max.bytes': cacheBytes, 'commit.interval.ms': 600_000 },
    },
    topics: [
      { name: `${id}-in`, partitions: 1 },
      { name: `${id}-out`, partitions: 1 },
    ],
    nodes,
    edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id })),
  };
}

/**
 * Timestamps start at the last whole minute two minutes ago: window changelogs have time-based
 * retention (the store's retention plus windowstore.changelog.additional.retention.ms, one day),
 * so the broker would delete records stamped near 1970 at its next retention check.
 */
const BASE = Math.floor(Date.now() / 60_000) * 60_000 - 120_000;

/**
 * Three keys in turn every 100 ms for 10 s, with a gap from 4 s to 6 s (new sessions), and every
 * seventh record followed by one 50 ms older (late within its window, or dropped when closed).
 */
function clicks(topic: string): Input[] {
  const out: Input[] = [];
  let i = 0;
  for (let t = BASE; t < BASE + 10_000; t += 100, i++) {
    if (t >= BASE + 4000 && t < BASE + 6000) continue;
    const key = ['a', 'b', 'c'][i % 3]!;
    out.push({ topic, key, value: { t }, timestamp: t });
    if (i % 7 === 6) out.push({ topic, key, value: { t: t - 50 }, timestamp: t - 50 });
  }
  return out;
}

const CACHE_ON = 10_485_760;
const windows: [string, Window][] = [
  ['tumbling 1 s, no grace', { type: 'tumbling', sizeMs: 1000, graceMs: 0 }],
  [
    'hopping 1 s / 500 ms, grace 200 ms',
    { type: 'hopping', sizeMs: 1000, advanceMs: 500, graceMs: 200 },
  ],
  ['sliding 500 ms, no grace', { type: 'sliding', timeDifferenceMs: 500, graceMs: 0 }],
  ['session gap 300 ms, no grace', { type: 'session', gapMs: 300, graceMs: 0 }],
];
const scenarios = windows.flatMap(([title, window], w) =>
  [CACHE_ON, 0].map((cache) => {
    const id = `wcl-${w}-${cache === 0 ? 'nocache' : 'cache'}`;
    return {
      title: `${title}, cache ${cache === 0 ? 'off' : 'on'}`,
      id,
      doc: countDoc(id, window, cache),
      inputs: clicks(`${id}-in`),
      changelog: `${id}-counts-changelog`,
      out: `${id}-out`,
    };
  }),
);

type Row = { key: string | null; value: string | null; timestamp: number };
const b64 = (bytes: Uint8Array | null) =>
  bytes === null ? null : Buffer.from(bytes).toString('base64');
const rows = (records: BrokerRecord[]): Row[] =>
  records.map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp }));

/** Our engine on the embedded backend: the whole input, then a clean close (its only commit). */
async function runOurs(s: (typeof scenarios)[number]): Promise<Record<string, Row[]>> {
  const backend = await createEmbeddedBackend();
  try {
    await backend.createTopics(s.doc.topics);
    await backend.produce(
      s.inputs.map((r) => ({
        topic: r.topic,
        key: encode('string', r.key),
        value: encode('json', r.value),
        timestamp: r.timestamp,
      })),
    );
    const valid = validateTopology(s.doc);
    if (!valid.ok) throw new Error(`${s.id}: ${JSON.stringify(valid.errors)}`);
    const app = createStreamsApp({ topology: valid.topology, backend, stateDir: tempStateDir() });
    await app.start();
    await waitFor(
      () => (app.metrics().tasks['0_0']?.['process-total'] ?? 0) >= s.inputs.length,
      60_000,
      `${s.id}: all input processed`,
    );
    await app.close();
    const read = async (topic: string) =>
      (await readAll(backend, topic, 'bytes', 'bytes')).map((r) => ({
        key: b64(r.key as Uint8Array | null),
        value: b64(r.value as Uint8Array | null),
        timestamp: r.timestamp,
      }));
    return { [s.changelog]: await read(s.changelog), [s.out]: await read(s.out) };
  } finally {
    await backend.close();
  }
}

describe('windowed changelogs and cache flushes against Kafka Streams on the broker', () => {
  let expected: Record<string, Row[]>[];
  beforeAll(async () => {
    const { results } = await runOnBroker({
      bootstrapServers: inject('kafkaBootstrapServers'),
      runs: scenarios.map((s) => ({
        topology: s.doc,
        inputs: s.inputs,
        topics: [s.changelog, s.out],
      })),
    });
    expected = results.map((r) =>
      Object.fromEntries(
        Object.entries(r.topics).map(([topic, records]) => [
          topic,
          rows(records as BrokerRecord[]),
        ]),
      ),
    );
  }, 180_000);

  for (const [i, s] of scenarios.entries()) {
    it(s.title, async () => {
      const theirs = expected[i]!;
      const ours = await runOurs(s);
      expect(theirs[s.changelog]!.length, 'Kafka Streams logged something').toBeGreaterThan(0);
      expect(ours[s.changelog], 'changelog').toEqual(theirs[s.changelog]);
      expect(ours[s.out], 'forwarded downstream').toEqual(theirs[s.out]);
    });
  }
});
