// The Kafka kill test's application: input records keyed by a record id, whose value names a
// word; groupBy(value) re-keys them by word through a repartition topic, count (store
// `word-counts`, logged) and every count update to the output topic (no record cache). Each
// word's output is then exactly 1, 2, …, n in order under exactly_once_v2.
import type { Topology } from '@streamwright/topology-model';
import { topology } from '../../fixtures/topologies.js';

export const KILL_PARTITIONS = 4;

export function killTopology(
  appId: string,
  input: string,
  output: string,
  guarantee: 'at_least_once' | 'exactly_once_v2',
  threads = 1,
): Topology {
  return topology(
    appId,
    {
      'processing.guarantee': guarantee,
      'num.stream.threads': threads,
      'commit.interval.ms': 100,
      'statestore.cache.max.bytes': 0,
    },
    [
      { name: input, partitions: KILL_PARTITIONS, config: {} },
      { name: output, partitions: KILL_PARTITIONS, config: {} },
    ],
    [
      {
        id: 'src',
        kind: 'source',
        config: { topic: input, keySerde: 'string', valueSerde: 'string', offsetReset: 'earliest' },
      },
      { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
      { id: 'count', kind: 'count', config: { store: 'word-counts' } },
      { id: 'stream', kind: 'toStream', config: {} },
      {
        id: 'out',
        kind: 'sink',
        config: { topic: output, keySerde: 'string', valueSerde: 'long' },
      },
    ],
    [
      ['src', 'byWord'],
      ['byWord', 'count'],
      ['count', 'stream'],
      ['stream', 'out'],
    ],
  );
}

/** Record i's word: spread over `keys` words, not round robin (a fixed pseudo-random walk). */
export function wordOf(i: number, keys: number): string {
  return `w${(Math.imul(i, 2_654_435_761) >>> 0) % keys}`;
}
