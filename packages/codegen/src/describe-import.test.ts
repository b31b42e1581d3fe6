// describe() text → canvas, checked by the round trip that matters: the imported design, once the
// user has filled in the logic, describes to the same text Kafka Streams printed. (topology-model's
// describeTopology matches Kafka Streams 4.1 character for character: see its differential tests.)
import { describe, expect, it } from 'vitest';
import {
  describeTopology,
  expressionFields,
  isNodeKind,
  planTopology,
  validateTopology,
  type TopologyDocument,
} from '@streamwright/topology-model';
import { importDescribe, looksLikeDescribe, parseDescribe } from './index.js';

function base(
  nodes: TopologyDocument['nodes'],
  edges: [string, string, string?, string?][],
  topics: string[],
): TopologyDocument {
  return {
    schemaVersion: 1,
    application: { id: 'app', config: {} },
    topics: topics.map((name) => ({ name, partitions: 1, config: {} })),
    stores: [],
    nodes,
    edges: edges.map(([from, to, fromPort, toPort]) => ({
      from,
      to,
      fromPort: fromPort ?? 'out',
      toPort: toPort ?? 'in',
    })),
    layout: { nodes: {} },
  };
}

function describeDoc(doc: TopologyDocument): string {
  const r = validateTopology(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors.slice(0, 3)));
  return describeTopology(planTopology(r.topology));
}

/** A valid expression of the right result type for a logic field. */
function logicFor(kind: string, context: string): string {
  if (kind === 'flatMapValues') return '[value]';
  if (kind === 'flatMap') return '[{"key": key, "value": value}]';
  if (kind === 'map' || kind === 'tableGroupBy') return '{"key": key, "value": value}';
  if (context === 'initializer') return '0';
  if (context === 'filter' || kind.toLowerCase().includes('filter')) return 'true';
  return 'value';
}

/** What a user does after the import: write the logic validation asks for (any valid CEL). */
function fillLogic(doc: TopologyDocument): TopologyDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((n) => {
      const config = { ...n.config };
      if (isNodeKind(n.kind)) {
        for (const f of expressionFields[n.kind] ?? []) {
          if (f.optional) continue;
          if ('each' in f && f.each) {
            config[f.field] = ((config[f.field] as Record<string, unknown>[]) ?? []).map((row) => ({
              ...row,
              [f.each!]: 'true',
            }));
          } else config[f.field] = logicFor(n.kind, f.context);
        }
      }
      if ((n.kind === 'process' || n.kind === 'processValues') && !config.processor)
        config.processor = 'custom';
      if (n.kind === 'transformValues' && !config.transformer) config.transformer = 'custom';
      return { ...n, config };
    }),
  };
}

const cases: Record<string, TopologyDocument> = {
  'a stateless pipeline': base(
    [
      { id: 's', kind: 'source', config: { topic: 'in' } },
      { id: 'f', kind: 'filter', config: { expression: 'true' } },
      { id: 'm', kind: 'mapValues', config: { expression: 'value' } },
      { id: 'k', kind: 'sink', config: { topic: 'out' } },
    ],
    [
      ['s', 'f'],
      ['f', 'm'],
      ['m', 'k'],
    ],
    ['in', 'out'],
  ),
  'word count with a groupBy repartition and a named store': base(
    [
      { id: 's', kind: 'source', config: { topic: 'lines' } },
      { id: 'fm', kind: 'flatMapValues', config: { expression: '[value]' } },
      { id: 'g', kind: 'groupBy', config: { expression: 'value' } },
      { id: 'c', kind: 'count', config: { store: 'word-counts' } },
      { id: 't', kind: 'toStream', config: {} },
      { id: 'k', kind: 'sink', config: { topic: 'counts' } },
    ],
    [
      ['s', 'fm'],
      ['fm', 'g'],
      ['g', 'c'],
      ['c', 't'],
      ['t', 'k'],
    ],
    ['lines', 'counts'],
  ),
  'a split with named branches and a default branch, and a merge': base(
    [
      { id: 's', kind: 'source', config: { topic: 'in' } },
      {
        id: 'sp',
        kind: 'split',
        name: 'route-',
        config: {
          branches: [{ name: 'big', predicate: 'true' }, { predicate: 'true' }],
          defaultBranch: {},
        },
      },
      { id: 'a', kind: 'sink', config: { topic: 'big' } },
      { id: 'm', kind: 'merge', config: {} },
      { id: 'b', kind: 'sink', config: { topic: 'rest' } },
    ],
    [
      ['s', 'sp'],
      ['sp', 'a', 'big'],
      ['sp', 'm', '2'],
      ['sp', 'm', '0'],
      ['m', 'b'],
    ],
    ['in', 'big', 'rest'],
  ),
  'a KTable#transformValues with a connected store, read by a table aggregation': {
    ...base(
      [
        { id: 't', kind: 'table', config: { topic: 'users' } },
        { id: 'tv', kind: 'transformValues', config: { transformer: 'x', stores: ['calls'] } },
        {
          id: 'tg',
          kind: 'tableGroupBy',
          config: { expression: '{"key": value, "value": value}' },
        },
        { id: 'tc', kind: 'tableCount', config: {} },
        { id: 'ts', kind: 'toStream', config: {} },
        { id: 'k', kind: 'sink', config: { topic: 'regions' } },
      ],
      [
        ['t', 'tv'],
        ['tv', 'tg'],
        ['tg', 'tc'],
        ['tc', 'ts'],
        ['ts', 'k'],
      ],
      ['users', 'regions'],
    ),
    stores: [
      {
        name: 'calls',
        type: 'keyValue',
        keySerde: 'string',
        valueSerde: 'json',
        logging: true,
        caching: false,
        storeType: 'persistent',
      },
    ],
  },
  'a table, its filter and a table aggregation through KTable#groupBy': base(
    [
      { id: 't', kind: 'table', config: { topic: 'users', store: 'users-store' } },
      { id: 'tf', kind: 'tableFilter', config: { expression: 'true' } },
      { id: 'tg', kind: 'tableGroupBy', config: { expression: '{"key": value, "value": value}' } },
      { id: 'tc', kind: 'tableCount', config: { store: 'per-region' } },
      { id: 'ts', kind: 'toStream', config: {} },
      { id: 'k', kind: 'sink', config: { topic: 'regions' } },
    ],
    [
      ['t', 'tf'],
      ['tf', 'tg'],
      ['tg', 'tc'],
      ['tc', 'ts'],
      ['ts', 'k'],
    ],
    ['users', 'regions'],
  ),
};

describe('importing describe() text', () => {
  for (const [name, doc] of Object.entries(cases)) {
    it(`${name}: filling in the logic describes to the same text`, () => {
      const text = describeDoc(doc);
      expect(looksLikeDescribe(text)).toBe(true);
      const { doc: imported } = importDescribe(text, 'app');
      expect(describeDoc(fillLogic(imported))).toBe(text);
    });
  }

  it('fills names, topics and stores and leaves the logic for the user (validation lists it)', () => {
    const text = describeDoc(cases['word count with a groupBy repartition and a named store']!);
    const { doc, notes } = importDescribe(text, 'app');
    expect(doc.nodes.map((n) => n.id)).toEqual([
      'source1',
      'flatMapValues1',
      'groupBy1',
      'count1',
      'toStream1',
      'sink1',
    ]);
    expect(doc.nodes.map((n) => n.kind)).toEqual([
      'source',
      'flatMapValues',
      'groupBy',
      'count',
      'toStream',
      'sink',
    ]);
    expect(doc.topics.map((t) => t.name).sort()).toEqual(['counts', 'lines']);
    expect(doc.nodes.find((n) => n.kind === 'count')!.config.store).toBe('word-counts');
    const result = validateTopology(doc);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      const missing = result.errors.map((e) => e.path);
      expect(missing.some((p) => p.includes('nodes[1]'))).toBe(true); // flatMapValues expression
      expect(missing.some((p) => p.includes('nodes[2]'))).toBe(true); // groupBy key selector
    }
    expect(notes.join(' ')).toMatch(/partition/);
  });

  it('keeps user-given processor names (Named.as) and reads the global store sub-topology', () => {
    const text = `Topologies:
   Sub-topology: 0
    Source: orders-in (topics: [orders])
      --> enrich
    Processor: enrich (stores: [cache])
      --> KSTREAM-SINK-0000000002
      <-- orders-in
    Sink: KSTREAM-SINK-0000000002 (topic: enriched)
      <-- enrich

  Sub-topology: 1 for global store (will not generate tasks)
    Source: KSTREAM-SOURCE-0000000003 (topics: [regions])
      --> KTABLE-SOURCE-0000000004
    Processor: KTABLE-SOURCE-0000000004 (stores: [regions-store])
      --> none
      <-- KSTREAM-SOURCE-0000000003
`;
    const { doc } = importDescribe(text);
    expect(doc.nodes.map((n) => [n.kind, n.name ?? null])).toEqual([
      ['source', 'orders-in'],
      ['process', 'enrich'],
      ['sink', null],
      ['globalTable', null],
    ]);
    expect(doc.nodes[1]!.config.stores).toEqual(['cache']);
    expect(doc.stores.map((s) => s.name)).toEqual(['cache']);
    expect(doc.nodes[3]!.config).toEqual({ topic: 'regions', store: 'regions-store' });
    expect(doc.edges.map((e) => `${e.from}->${e.to}`)).toEqual([
      'source1->process1',
      'process1->sink1',
    ]);
  });

  it('imports the older formats of the WordCount tutorial as the word count of today', () => {
    // Kafka Streams 1.x, one line per node (as in Kafka's streams tutorial, "Sub-topologies:"):
    // the repartition's filter, sink and source are generated KSTREAM-* names.
    const oneLine = `Sub-topologies:
  Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000(topics: streams-plaintext-input) --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001(stores: []) --> KSTREAM-KEY-SELECT-0000000002 <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002(stores: []) --> KSTREAM-FILTER-0000000005 <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FILTER-0000000005(stores: []) --> KSTREAM-SINK-0000000004 <-- KSTREAM-KEY-SELECT-0000000002
    Sink: KSTREAM-SINK-0000000004(topic: counts-store-repartition) <-- KSTREAM-FILTER-0000000005
  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000006(topics: counts-store-repartition) --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003(stores: [counts-store]) --> KTABLE-TOSTREAM-0000000007 <-- KSTREAM-SOURCE-0000000006
    Processor: KTABLE-TOSTREAM-0000000007(stores: []) --> KSTREAM-SINK-0000000008 <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008(topic: streams-wordcount-output) <-- KTABLE-TOSTREAM-0000000007
Global Stores:
  none
`;
    // Kafka Streams 2.0's multi-line text with the same generated repartition names.
    const multiLine = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [streams-plaintext-input])
      --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> KSTREAM-FILTER-0000000005
      <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FILTER-0000000005 (stores: [])
      --> KSTREAM-SINK-0000000004
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: KSTREAM-SINK-0000000004 (topic: counts-store-repartition)
      <-- KSTREAM-FILTER-0000000005

  Sub-topology: 1
    Source: KSTREAM-SOURCE-0000000006 (topics: [counts-store-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts-store])
      --> KTABLE-TOSTREAM-0000000007
      <-- KSTREAM-SOURCE-0000000006
    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])
      --> KSTREAM-SINK-0000000008
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008 (topic: streams-wordcount-output)
      <-- KTABLE-TOSTREAM-0000000007

`;
    // What Kafka Streams 4.1 prints for the same program (Kafka's current streams tutorial):
    // only the repartition's three nodes are renamed; topics, stores and numbers stay.
    const today = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [streams-plaintext-input])
      --> KSTREAM-FLATMAPVALUES-0000000001
    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> counts-store-repartition-filter
      <-- KSTREAM-FLATMAPVALUES-0000000001
    Processor: counts-store-repartition-filter (stores: [])
      --> counts-store-repartition-sink
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: counts-store-repartition-sink (topic: counts-store-repartition)
      <-- counts-store-repartition-filter

  Sub-topology: 1
    Source: counts-store-repartition-source (topics: [counts-store-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [counts-store])
      --> KTABLE-TOSTREAM-0000000007
      <-- counts-store-repartition-source
    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])
      --> KSTREAM-SINK-0000000008
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000008 (topic: streams-wordcount-output)
      <-- KTABLE-TOSTREAM-0000000007

`;
    expect(looksLikeDescribe(oneLine)).toBe(true);
    const fromToday = importDescribe(today, 'app');
    for (const text of [oneLine, multiLine]) {
      const { doc, notes } = importDescribe(text, 'app');
      expect(doc).toEqual(fromToday.doc);
      expect(doc.nodes.map((n) => n.kind)).toEqual([
        'source',
        'flatMapValues',
        'groupBy',
        'count',
        'toStream',
        'sink',
      ]);
      expect(notes.join('\n')).toMatch(/older Kafka Streams/);
      expect(describeDoc(fillLogic(doc))).toBe(today);
    }
    expect(fromToday.notes.join('\n')).not.toMatch(/older Kafka Streams/);
  });

  it('refuses text that is not describe() output, saying which line', () => {
    expect(() => parseDescribe('Topologies:\n  Sub-topology: 0\n  hello world\n')).toThrow(
      /line 3/,
    );
    expect(looksLikeDescribe('{"schemaVersion": 1}')).toBe(false);
  });
});
