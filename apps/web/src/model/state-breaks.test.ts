import { describe, expect, it } from 'vitest';
import type { TopologyDocument } from '@streamwright/topology-model';
import { stateBreaks } from './state-breaks.js';

// words → groupBy(word) → count, its store named by Kafka Streams' generator unless given.
function wordCount(options: { store?: string; filterFirst?: boolean; appId?: string } = {}) {
  const nodes: TopologyDocument['nodes'] = [
    { id: 'words', kind: 'source', config: { topic: 'words', valueSerde: 'string' } },
    ...(options.filterFirst
      ? [{ id: 'nonEmpty', kind: 'filter', config: { expression: 'value != ""' } }]
      : []),
    { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
    { id: 'count', kind: 'count', config: options.store ? { store: options.store } : {} },
  ];
  const ids = nodes.map((n) => n.id);
  return {
    schemaVersion: 1,
    application: { id: options.appId ?? 'wc', config: {} },
    topics: [{ name: 'words', partitions: 1, config: {} }],
    stores: [],
    nodes,
    edges: ids.slice(1).map((to, i) => ({ from: ids[i]!, to, fromPort: 'out', toPort: 'in' })),
    layout: { nodes: {} },
  } as TopologyDocument;
}

describe('what a deploy leaves behind in state', () => {
  it('nothing for the same topology, an added node that keeps the names, or another app', () => {
    expect(stateBreaks(wordCount(), wordCount())).toBeNull();
    expect(
      stateBreaks(
        wordCount({ store: 'counts' }),
        wordCount({ store: 'counts', filterFirst: true }),
      ),
    ).toBeNull();
    expect(stateBreaks(wordCount(), wordCount({ appId: 'other', filterFirst: true }))).toBeNull();
  });

  it('a node inserted before a generated store renumbers it and its repartition topic', () => {
    // Kafka Streams numbers generated names in build order: KSTREAM-AGGREGATE-STATE-STORE-
    // 0000000002 becomes …0000000003 once a filter is built before it.
    const breaks = stateBreaks(wordCount(), wordCount({ filterFirst: true }));
    expect(breaks).toEqual({
      droppedStores: [
        {
          name: 'KSTREAM-AGGREGATE-STATE-STORE-0000000002',
          changelogTopic: 'wc-KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog',
        },
      ],
      newStores: [
        {
          name: 'KSTREAM-AGGREGATE-STATE-STORE-0000000003',
          changelogTopic: 'wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-changelog',
        },
      ],
      droppedRepartitions: ['wc-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition'],
    });
  });

  it('a renamed store', () => {
    const breaks = stateBreaks(wordCount({ store: 'counts' }), wordCount({ store: 'tally' }));
    expect(breaks?.droppedStores.map((s) => s.name)).toEqual(['counts']);
    expect(breaks?.newStores.map((s) => s.name)).toEqual(['tally']);
    expect(breaks?.droppedRepartitions).toEqual(['wc-counts-repartition']);
  });
});
