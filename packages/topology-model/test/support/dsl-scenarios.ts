// Hand-picked topologies covering every node kind, each the document form of a small Kafka
// Streams DSL program (written above it). The differential test compares our describe() of
// each with the text Kafka Streams 4.1 prints for the same program (tools/ks-oracle).
import type { TopologyDocumentInput } from '../../src/index.js';

type Nodes = NonNullable<TopologyDocumentInput['nodes']>;
type Edges = NonNullable<TopologyDocumentInput['edges']>;

/** A document with every topic the nodes mention declared (1 partition each). */
export function doc(
  id: string,
  nodes: Nodes,
  edges: Edges,
  extra: Partial<TopologyDocumentInput> = {},
): TopologyDocumentInput {
  const topics = new Set<string>();
  for (const n of nodes) {
    const topic = (n.config as { topic?: unknown } | undefined)?.topic;
    if (typeof topic === 'string') topics.add(topic);
  }
  for (const t of extra.topics ?? []) topics.add(t.name);
  return {
    schemaVersion: 1,
    application: { id },
    ...extra,
    topics: [...topics].map((name) => ({ name, partitions: 1 })),
    nodes,
    edges,
  };
}

const e = (from: string, to: string, fromPort = 'out', toPort = 'in'): Edges[number] => ({
  from,
  fromPort,
  to,
  toPort,
});

export const dslScenarios: { name: string; topology: TopologyDocumentInput }[] = [
  {
    // stream.filterNot(p).map(m).selectKey(k).flatMap(f).flatMapValues(g).peek(a).foreach(a)
    name: 'stateless chain',
    topology: doc(
      'chain',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'a', kind: 'filterNot', config: { expression: 'value == null' } },
        { id: 'b', kind: 'map', config: { expression: '{"key": value, "value": key}' } },
        { id: 'c', kind: 'selectKey', config: { expression: { function: 'pickKey' } } },
        { id: 'd', kind: 'flatMap', config: { expression: '[{"key": key, "value": value}]' } },
        { id: 'f', kind: 'flatMapValues', config: { expression: '[value, value]' } },
        { id: 'g', kind: 'peek', config: { action: { function: 'log' } } },
        { id: 'h', kind: 'foreach', config: {} },
      ],
      [e('s', 'a'), e('a', 'b'), e('b', 'c'), e('c', 'd'), e('d', 'f'), e('f', 'g'), e('g', 'h')],
    ),
  },
  {
    // stream.print(Printed.toSysOut().withLabel("l")); stream.to(extractor); named variants
    name: 'print, foreach and a topic extractor, named',
    topology: doc(
      'print',
      [
        { id: 's', kind: 'source', name: 'in-source', config: { topic: 'in' } },
        { id: 'p', kind: 'print', name: 'printer', config: { label: 'l' } },
        { id: 'q', kind: 'print', config: { mapper: 'string(key)' } },
        { id: 'f', kind: 'foreach', name: 'each', config: { action: { function: 'x' } } },
        {
          id: 't',
          kind: 'sink',
          config: { topicExtractor: 'value.kind == "a" ? "out-a" : "out-b"' },
        },
        { id: 'u', kind: 'sink', name: 'to-fn', config: { topicExtractor: { function: 'route' } } },
      ],
      [e('s', 'p'), e('s', 'q'), e('s', 'f'), e('s', 't'), e('s', 'u')],
      {
        topics: [
          { name: 'out-a', partitions: 1 },
          { name: 'out-b', partitions: 1 },
        ],
      },
    ),
  },
  {
    // var b = stream.split().branch(p1).branch(p2, Branched.as("big")).defaultBranch();
    // b.get("…1").to("one"); b.get("…big").to("two"); b.get("…0").filter(..).to("rest")
    name: 'split with an index-named, a named and a default branch',
    topology: doc(
      'split',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        {
          id: 'sp',
          kind: 'split',
          config: {
            branches: [
              { predicate: 'value.n < 10' },
              { name: 'big', predicate: { function: 'isBig' } },
            ],
            defaultBranch: {},
          },
        },
        { id: 'o1', kind: 'sink', config: { topic: 'one' } },
        { id: 'o2', kind: 'sink', config: { topic: 'two' } },
        { id: 'f', kind: 'filter', config: { expression: 'true' } },
        { id: 'o3', kind: 'sink', config: { topic: 'rest' } },
      ],
      [e('s', 'sp'), e('sp', 'o2', 'big'), e('sp', 'o1', '1'), e('sp', 'f', '0'), e('f', 'o3')],
    ),
  },
  {
    // stream.split(Named.as("route-")).branch(p, Branched.as("a")).defaultBranch(Branched.as("z"))
    name: 'named split and branches',
    topology: doc(
      'split2',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        {
          id: 'sp',
          kind: 'split',
          name: 'route-',
          config: { branches: [{ name: 'a', predicate: 'true' }], defaultBranch: { name: 'z' } },
        },
        { id: 'oa', kind: 'sink', config: { topic: 'a' } },
        { id: 'oz', kind: 'sink', config: { topic: 'z' } },
        { id: 'oz2', kind: 'peek', config: {} },
      ],
      [e('s', 'sp'), e('sp', 'oa', 'a'), e('sp', 'oz', 'z'), e('sp', 'oz2', 'z')],
    ),
  },
  {
    // a.merge(b).merge(c, Named.as("m")).to("out"); inputs by id: a, b, c
    name: 'merge of three streams',
    topology: doc(
      'merge',
      [
        { id: 'c', kind: 'source', config: { topic: 'tc' } },
        { id: 'a', kind: 'source', config: { topic: 'ta' } },
        { id: 'b', kind: 'source', config: { topic: 'tb' } },
        { id: 'fa', kind: 'filter', config: { expression: 'true' } },
        { id: 'm', kind: 'merge', name: 'm', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'out' } },
      ],
      [e('a', 'fa'), e('fa', 'm'), e('b', 'm'), e('c', 'm'), e('m', 'o')],
    ),
  },
  {
    // stream.repartition().to(x); stream.repartition(Repartitioned.as("rp").withNumberOfPartitions(4))
    name: 'repartition, generated and named',
    topology: doc(
      'rep',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'r1', kind: 'repartition', config: {} },
        { id: 'r2', kind: 'repartition', name: 'rp', config: { partitions: 4 } },
        { id: 'o1', kind: 'sink', config: { topic: 'x' } },
        { id: 'o2', kind: 'sink', config: { topic: 'y' } },
      ],
      [e('s', 'r1'), e('s', 'r2'), e('r1', 'o1'), e('r2', 'o2')],
    ),
  },
  {
    // stream.selectKey(k).groupByKey().count(); stream.groupBy(k).reduce(r); …aggregate(i, a)
    name: 'key changes before aggregations insert repartitions',
    topology: doc(
      'agg',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'k', kind: 'selectKey', config: { expression: 'value.user' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: {} },
        { id: 'gb', kind: 'groupBy', config: { expression: 'value.item' } },
        { id: 'r', kind: 'reduce', config: { expression: 'value' } },
        { id: 'ga', kind: 'groupByKey', config: {} },
        {
          id: 'ag',
          kind: 'aggregate',
          config: { initializer: '0', aggregator: 'agg + 1', store: 'agg-store' },
        },
        { id: 'ts', kind: 'toStream', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'out' } },
      ],
      [
        e('s', 'k'),
        e('k', 'g'),
        e('g', 'c'),
        e('s', 'gb'),
        e('gb', 'r'),
        e('s', 'ga'),
        e('ga', 'ag'),
        e('ag', 'ts'),
        e('ts', 'o'),
      ],
    ),
  },
  {
    // grouped = stream.map(m).groupByKey(Grouped.as("by-user")); grouped.count(); grouped.reduce(r)
    name: 'a named grouping shares its repartition topic between aggregations',
    topology: doc(
      'shared',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'm', kind: 'map', config: { expression: '{"key": value.u, "value": value}' } },
        { id: 'g', kind: 'groupByKey', name: 'by-user', config: { keySerde: 'string' } },
        { id: 'c', kind: 'count', config: { store: 'counts' } },
        { id: 'r', kind: 'reduce', name: 'latest', config: { expression: 'value' } },
      ],
      [e('s', 'm'), e('m', 'g'), e('g', 'c'), e('g', 'r')],
    ),
  },
  {
    // count(Materialized.with(..).withLoggingDisabled()) burns one more name than count()
    name: 'count with Materialized options but no store name',
    topology: doc(
      'countopts',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: { logging: false } },
        { id: 'c2', kind: 'count', config: {} },
      ],
      [e('s', 'g'), e('g', 'c'), e('g', 'c2')],
    ),
  },
  {
    // g1 = s1.groupByKey(); g2 = s2.selectKey(k).groupByKey();
    // g1.cogroup(a1).cogroup(g2, a2).aggregate(i).toStream().to("out")
    name: 'cogroup of two grouped streams, one repartitioned',
    topology: doc(
      'cogroup',
      [
        { id: 's1', kind: 'source', config: { topic: 'one' } },
        { id: 's2', kind: 'source', config: { topic: 'two' } },
        { id: 'g1', kind: 'groupByKey', config: {} },
        { id: 'k2', kind: 'selectKey', config: { expression: 'value' } },
        { id: 'g2', kind: 'groupByKey', config: {} },
        {
          id: 'co',
          kind: 'cogroup',
          config: {
            inputs: [
              { port: 'first', aggregator: 'agg + 1' },
              { port: 'second', aggregator: { function: 'add' } },
            ],
            initializer: '0',
          },
        },
        { id: 'ts', kind: 'toStream', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'out' } },
      ],
      [
        e('s1', 'g1'),
        e('s2', 'k2'),
        e('k2', 'g2'),
        e('g1', 'co', 'out', 'first'),
        e('g2', 'co', 'out', 'second'),
        e('co', 'ts'),
        e('ts', 'o'),
      ],
    ),
  },
  {
    name: 'named cogroup with a named store',
    topology: doc(
      'cogroup2',
      [
        { id: 's1', kind: 'source', config: { topic: 'one' } },
        { id: 'g1', kind: 'groupBy', name: 'regroup', config: { expression: 'value' } },
        {
          id: 'co',
          kind: 'cogroup',
          name: 'co',
          config: {
            inputs: [{ port: 'a', aggregator: 'agg' }],
            initializer: '""',
            store: 'co-store',
          },
        },
      ],
      [e('s1', 'g1'), e('g1', 'co', 'out', 'a')],
    ),
  },
  {
    // builder.table("users") (unnamed: not materialized); .filter(p).toStream().to("out")
    name: 'an unnamed table is not materialized',
    topology: doc(
      'table1',
      [
        { id: 't', kind: 'table', config: { topic: 'users' } },
        { id: 'f', kind: 'tableFilter', config: { expression: 'value != null' } },
        { id: 'ts', kind: 'toStream', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'out' } },
      ],
      [e('t', 'f'), e('f', 'ts'), e('ts', 'o')],
    ),
  },
  {
    // table("users", Materialized.as("users-store")).mapValues(m, Materialized.as("mv"))
    //   .filterNot(p, Materialized.with(..)) .toStream(Named.as("out-stream"))
    name: 'materialized table operations',
    topology: doc(
      'table2',
      [
        { id: 't', kind: 'table', name: 'users', config: { topic: 'users', store: 'users-store' } },
        { id: 'mv', kind: 'tableMapValues', config: { expression: 'value', store: 'mv' } },
        { id: 'fn', kind: 'tableFilterNot', config: { expression: 'false', caching: false } },
        { id: 'ts', kind: 'toStream', name: 'out-stream', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'out' } },
      ],
      [e('t', 'mv'), e('mv', 'fn'), e('fn', 'ts'), e('ts', 'o')],
    ),
  },
  {
    // table("t").filter(p).groupBy(kv).count() — groupBy forces the source to materialize
    name: 'KTable groupBy forces the source table to materialize; KGroupedTable count',
    topology: doc(
      'tgroup',
      [
        { id: 't', kind: 'table', config: { topic: 't' } },
        { id: 'f', kind: 'tableFilter', config: { expression: 'true' } },
        { id: 'gb', kind: 'tableGroupBy', config: { expression: '{"key": value, "value": key}' } },
        { id: 'c', kind: 'tableCount', config: {} },
        { id: 'ts', kind: 'toStream', config: {} },
        { id: 'o', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
      ],
      [e('t', 'f'), e('f', 'gb'), e('gb', 'c'), e('c', 'ts'), e('ts', 'o')],
    ),
  },
  {
    // KGroupedTable reduce and aggregate, named, sharing a named grouping
    name: 'KGroupedTable reduce and aggregate with names',
    topology: doc(
      'tgroup2',
      [
        { id: 't', kind: 'table', config: { topic: 't', store: 'src' } },
        {
          id: 'gb',
          kind: 'tableGroupBy',
          name: 'regroup',
          config: { expression: { function: 'kv' } },
        },
        { id: 'r', kind: 'tableReduce', name: 'sum', config: { adder: 'agg', subtractor: 'agg' } },
        {
          id: 'a',
          kind: 'tableAggregate',
          config: { initializer: '0', adder: 'agg', subtractor: 'agg', store: 'agg' },
        },
      ],
      [e('t', 'gb'), e('gb', 'r'), e('gb', 'a')],
    ),
  },
  {
    // stream.toTable(); stream.selectKey(k).toTable(Named.as("tt"), Materialized.as("tt-store"))
    name: 'toTable with and without a key change',
    topology: doc(
      'totable',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 't1', kind: 'toTable', config: {} },
        { id: 'k', kind: 'selectKey', config: { expression: 'value' } },
        { id: 't2', kind: 'toTable', name: 'tt', config: { store: 'tt-store' } },
        { id: 'gb', kind: 'tableGroupBy', config: { expression: '{"key": key, "value": value}' } },
        { id: 'c', kind: 'tableCount', config: {} },
      ],
      [e('s', 't1'), e('s', 'k'), e('k', 't2'), e('t1', 'gb'), e('gb', 'c')],
    ),
  },
  {
    // builder.globalTable("g"); builder.globalTable("h", Consumed.as("h"), Materialized.as("h-store"))
    name: 'global tables get their own sub-topologies',
    topology: doc(
      'global',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'g', kind: 'globalTable', config: { topic: 'g' } },
        { id: 'o', kind: 'sink', config: { topic: 'out' } },
        { id: 'h', kind: 'globalTable', name: 'h', config: { topic: 'h', store: 'h-store' } },
        { id: 's2', kind: 'source', config: { topic: 'in2' } },
        { id: 'o2', kind: 'sink', config: { topic: 'out2' } },
      ],
      [e('s', 'o'), e('s2', 'o2')],
    ),
  },
  {
    // builder.addStateStore(kv("a")); builder.addStateStore(kv("b"));
    // stream.process(p, "a", "b").processValues(q, Named.as("pv"), "a").groupByKey().count()
    name: 'process and processValues with stores',
    topology: doc(
      'process',
      [
        { id: 's', kind: 'source', config: { topic: 'in' } },
        { id: 'p', kind: 'process', config: { processor: 'dedupe', stores: ['a', 'b'] } },
        {
          id: 'pv',
          kind: 'processValues',
          name: 'pv',
          config: { processor: 'enrich', stores: ['a'] },
        },
        { id: 'g', kind: 'groupByKey', config: {} },
        { id: 'c', kind: 'count', config: {} },
        { id: 's2', kind: 'source', config: { topic: 'other' } },
        { id: 'p2', kind: 'processValues', config: { processor: 'x', stores: ['b'] } },
      ],
      [e('s', 'p'), e('p', 'pv'), e('pv', 'g'), e('g', 'c'), e('s2', 'p2')],
      {
        stores: [
          { name: 'a', keySerde: 'string', valueSerde: 'json' },
          { name: 'b', keySerde: 'string', valueSerde: 'long', logging: false },
        ],
      },
    ),
  },
];
