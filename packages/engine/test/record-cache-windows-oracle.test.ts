// The record cache in front of window and session stores (Kafka Streams' CachingWindowStore and
// CachingSessionStore, `statestore.cache.max.bytes` > 0), compared with Kafka Streams itself
// through tools/ks-oracle with the cache on in both. TopologyTestDriver flushes the cache after
// every record, so what differs from an uncached store is what one record does to one windowed
// key: a session record inside an existing session removes and re-adds the same session, which
// the cache collapses into one update (no tombstone first).
import type { OracleScenario } from '@streamwright/ks-oracle';
import { compareWithOracle } from './fixtures/oracle-harness.js';
import { input, windowedDoc } from './fixtures/windowed-doc.js';

const CACHE_ON = { 'statestore.cache.max.bytes': 10_485_760 };
const cached = (doc: ReturnType<typeof windowedDoc>) => ({
  ...doc,
  application: { id: 'cached-windows', config: CACHE_ON },
});

const outOfOrder = [5, 1, 9, 3, 12, 7, 2, 20, 11, 15, 0, 19, 25, 16].map((s, i) =>
  input(i % 3 === 0 ? 'a' : 'b', s * 1000),
);
// Sessions of gap 3 s: 2 s merges into [1 s, 2 s]; 1.5 s lands inside it (removed and re-added);
// 6 s opens a session that 8 s merges with 10 s's.
const sessions = [1000, 2000, 1500, 10000, 6000, 8000, 8500, 30000].map((t) => input('u', t));

const scenarios: OracleScenario[] = [
  {
    name: 'cache on: tumbling count',
    topology: cached(
      windowedDoc({ type: 'tumbling', sizeMs: 5000, graceMs: 2000 }, { kind: 'windowedCount' }),
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'cache on: hopping count, two keys',
    topology: cached(
      windowedDoc(
        { type: 'hopping', sizeMs: 4000, advanceMs: 1000, graceMs: 3000 },
        { kind: 'windowedCount', config: { store: 'hop-counts' } },
      ),
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
  {
    name: 'cache on: session count (a record inside a session updates it without a tombstone)',
    topology: cached(
      windowedDoc({ type: 'session', gapMs: 3000, graceMs: 60000 }, { kind: 'windowedCount' }),
    ),
    inputs: sessions,
    outputs: ['out'],
  },
  {
    name: 'cache on: session aggregate with merger',
    topology: cached(
      windowedDoc(
        { type: 'session', gapMs: 2000, graceMs: 1000 },
        {
          kind: 'windowedAggregate',
          config: {
            initializer: '0',
            aggregator: 'agg + value.t',
            merger: 'agg + value',
          },
        },
      ),
    ),
    inputs: [...sessions, ...outOfOrder],
    outputs: ['out'],
  },
  {
    name: 'cache on: sliding count',
    topology: cached(
      windowedDoc(
        { type: 'sliding', timeDifferenceMs: 5000, graceMs: 2000 },
        { kind: 'windowedCount' },
      ),
    ),
    inputs: outOfOrder,
    outputs: ['out'],
  },
];

compareWithOracle('window and session store caching vs Apache Kafka Streams 4.1', scenarios);
