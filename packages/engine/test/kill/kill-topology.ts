// The kill test's stateful topology: words (2 partitions) → groupByKey → count (store
// `counts-store`, logged) → toStream → counts (2 partitions). String keys partition the same way
// in and out (murmur2), so output partition p holds the running counts of input partition p, in
// input order: the exact sequence exactly-once must produce.
import type { Topology } from '@streamwright/topology-model';
import type { Backend } from '../../src/backend-spi.js';
import { getSerde } from '../../src/serdes/index.js';
import { topology } from '../fixtures/topologies.js';

export const KILL_APP_ID = 'kill-app';
export const PARTITIONS = 2;

export function killTopology(
  guarantee: 'at_least_once' | 'exactly_once_v2',
  persistentStores = false,
): Topology {
  return topology(
    KILL_APP_ID,
    {
      'processing.guarantee': guarantee,
      'commit.interval.ms': 100,
      // Every running count is checked, so no record cache (as Kafka's EOS integration tests).
      'statestore.cache.max.bytes': 0,
      'default.dsl.store': persistentStores ? 'rocksDB' : 'in_memory',
    },
    [
      { name: 'words', partitions: PARTITIONS, config: {} },
      { name: 'counts', partitions: PARTITIONS, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: {
          topic: 'words',
          keySerde: 'string',
          valueSerde: 'string',
          offsetReset: 'earliest',
        },
      },
      { id: 'group', kind: 'groupByKey', config: {} },
      { id: 'count', kind: 'count', config: { store: 'counts-store' } },
      { id: 'stream', kind: 'toStream', config: {} },
      {
        id: 'out',
        kind: 'sink',
        config: { topic: 'counts', keySerde: 'string', valueSerde: 'long' },
      },
    ],
    [
      ['src', 'group'],
      ['group', 'count'],
      ['count', 'stream'],
      ['stream', 'out'],
    ],
  );
}

/** Produces `count` words from input position `from` on: keys `k<position % keys>`, value "x". */
export async function produceWords(
  backend: Backend,
  from: number,
  count: number,
  keys: number,
): Promise<void> {
  const key = getSerde('string');
  const value = key.serialize('x');
  for (let at = from; at < from + count; at += 10_000)
    await backend.produce(
      Array.from({ length: Math.min(10_000, from + count - at) }, (_, i) => ({
        topic: 'words',
        key: key.serialize(`k${(at + i) % keys}`),
        value,
        timestamp: at + i,
      })),
    );
}
