// Validation of the kinds added after v1: config rules across fields, logic fields (CEL in each
// context, function references, registries), config-defined ports, multi-input ports, stores.
import { describe, expect, it } from 'vitest';
import { doc } from '../../test/support/dsl-scenarios.js';
import { checkConnection, validateTopology, type ValidationIssue } from '../index.js';

type Nodes = Parameters<typeof doc>[1];
type Edges = Parameters<typeof doc>[2];

function errorsOf(
  input: unknown,
  options?: Parameters<typeof validateTopology>[1],
): ValidationIssue[] {
  const result = validateTopology(input, options);
  if (result.ok) throw new Error('expected validation errors');
  return result.errors;
}
const brief = (errors: ValidationIssue[]): [string, string, string | undefined][] =>
  errors.map((e) => [e.code, e.path, e.nodeId]);

const source = { id: 's', kind: 'source', config: { topic: 'in' } };
const e = (from: string, to: string, fromPort = 'out', toPort = 'in') => ({
  from,
  fromPort,
  to,
  toPort,
});

describe('validateTopology: logic fields', () => {
  it('accepts CEL or a function reference in every logic field', () => {
    const nodes: Nodes = [
      source,
      { id: 'f', kind: 'filterNot', config: { expression: { function: 'isSpam' } } },
      { id: 'm', kind: 'map', config: { expression: '{"key": value.user, "value": value}' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'a', kind: 'aggregate', config: { initializer: '0', aggregator: { function: 'sum' } } },
    ];
    const result = validateTopology(
      doc('app', nodes, [e('s', 'f'), e('f', 'm'), e('m', 'g'), e('g', 'a')]),
    );
    expect(result.ok).toBe(true);
  });

  it('type-checks CEL per context: record variables, aggregate variables, initializers, result shapes', () => {
    const nodes: Nodes = [
      source,
      { id: 'k', kind: 'selectKey', config: { expression: 'agg' } },
      { id: 'm', kind: 'map', config: { expression: '[key, value]' } },
      { id: 'fm', kind: 'flatMapValues', config: { expression: '"x"' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'r', kind: 'reduce', config: { expression: 'agg + timestamp' } },
      { id: 'g2', kind: 'groupByKey', config: {} },
      { id: 'a', kind: 'aggregate', config: { initializer: 'value', aggregator: 'agg' } },
      { id: 'o', kind: 'sink', config: { topicExtractor: '1 + 1' } },
    ];
    const edges: Edges = [
      e('s', 'k'),
      e('s', 'm'),
      e('s', 'fm'),
      e('s', 'g'),
      e('g', 'r'),
      e('s', 'g2'),
      e('g2', 'a'),
      e('s', 'o'),
    ];
    expect(errorsOf(doc('app', nodes, edges)).map((i) => [i.path, i.code, i.message])).toEqual([
      ['nodes[1].config.expression', 'expression_type', 'Unknown variable: agg'],
      [
        'nodes[2].config.expression',
        'expression_type',
        'a key-value mapper must return a map {"key": …, "value": …}, but this expression returns list',
      ],
      [
        'nodes[3].config.expression',
        'expression_type',
        'a flatMapValues expression must return a list, but this expression returns string',
      ],
      ['nodes[5].config.expression', 'expression_type', 'Unknown variable: timestamp'],
      ['nodes[7].config.initializer', 'expression_type', 'Unknown variable: value'],
      [
        'nodes[8].config.topicExtractor',
        'expression_type',
        'a topic extractor must return string, but this expression returns int',
      ],
    ]);
  });

  it('reports logic inside list entries with their path (split predicates, cogroup aggregators)', () => {
    const nodes: Nodes = [
      source,
      {
        id: 'sp',
        kind: 'split',
        config: { branches: [{ predicate: 'true' }, { name: 'b', predicate: 'value >' }] },
      },
      { id: 'g', kind: 'groupByKey', config: {} },
      {
        id: 'co',
        kind: 'cogroup',
        config: { inputs: [{ port: 'x', aggregator: 'nope' }], initializer: '0' },
      },
    ];
    const edges: Edges = [e('s', 'sp'), e('s', 'g'), e('g', 'co', 'out', 'x')];
    expect(brief(errorsOf(doc('app', nodes, edges)))).toEqual([
      ['expression_syntax', 'nodes[1].config.branches[1].predicate', 'sp'],
      ['expression_type', 'nodes[3].config.inputs[0].aggregator', 'co'],
    ]);
  });

  it('refuses malformed function references and, given registries, unknown names', () => {
    const nodes: Nodes = [
      source,
      { id: 'f', kind: 'filter', config: { expression: { function: 'has space' } } },
      { id: 'p', kind: 'peek', config: { action: { function: 'log' } } },
      { id: 'm', kind: 'mapValues', config: { expression: { fn: 'x' } } },
      { id: 'pr', kind: 'process', config: { processor: 'dedupe' } },
      { id: 'f2', kind: 'filter', config: { expression: { function: 'known' } } },
    ];
    const edges: Edges = [e('s', 'f'), e('s', 'p'), e('s', 'm'), e('s', 'pr'), e('s', 'f2')];
    expect(brief(errorsOf(doc('app', nodes, edges)))).toEqual([
      ['invalid_config', 'nodes[1].config.expression.function', 'f'],
      ['invalid_config', 'nodes[3].config.expression', 'm'],
    ]);
    const fixed = doc(
      'app',
      nodes.filter((n) => n.id !== 'f' && n.id !== 'm'),
      edges.filter((x) => x.to !== 'f' && x.to !== 'm'),
    );
    expect(validateTopology(fixed).ok).toBe(true);
    expect(
      errorsOf(fixed, { functions: ['known'], processors: ['other'] }).map((i) => [
        i.code,
        i.path,
        i.message,
      ]),
    ).toEqual([
      ['unknown_function', 'nodes[1].config.action.function', 'no function "log" is registered'],
      ['unknown_processor', 'nodes[2].config.processor', 'no processor "dedupe" is registered'],
    ]);
    expect(
      validateTopology(fixed, { functions: ['known', 'log'], processors: ['dedupe'] }).ok,
    ).toBe(true);
  });

  it('refuses, given a partitioner registry, a foreign-key join naming another partitioner', () => {
    const nodes: Nodes = [
      { id: 'l', kind: 'table', config: { topic: 'left' } },
      { id: 'r', kind: 'table', config: { topic: 'right' } },
      {
        id: 'j',
        kind: 'foreignKeyJoin',
        config: {
          foreignKeyExtractor: 'value.fk',
          joiner: 'left',
          partitioner: 'by-region',
          otherPartitioner: 'by-id',
        },
      },
    ];
    const edges: Edges = [
      { from: 'l', to: 'j', toPort: 'left' },
      { from: 'r', to: 'j', toPort: 'right' },
    ];
    const fk = doc('app', nodes, edges);
    expect(validateTopology(fk).ok).toBe(true);
    expect(
      errorsOf(fk, { partitioners: ['by-id'] }).map((i) => [i.code, i.path, i.message]),
    ).toEqual([
      [
        'unknown_partitioner',
        'nodes[2].config.partitioner',
        'no partitioner "by-region" is registered',
      ],
    ]);
    expect(validateTopology(fk, { partitioners: ['by-id', 'by-region'] }).ok).toBe(true);
  });
});

describe('validateTopology: kind rules', () => {
  it('wants exactly one of topic and topicExtractor on a sink', () => {
    const nodes: Nodes = [
      source,
      { id: 'a', kind: 'sink', config: {} },
      { id: 'b', kind: 'sink', config: { topic: 'in', topicExtractor: '"in"' } },
    ];
    expect(
      errorsOf(doc('app', nodes, [e('s', 'a'), e('s', 'b')])).map((i) => [i.path, i.message]),
    ).toEqual([
      ['nodes[1].config.topic', 'a sink needs a topic or a topicExtractor'],
      [
        'nodes[2].config.topicExtractor',
        'a sink writes to a fixed topic or through a topic extractor, not both',
      ],
    ]);
  });

  it('refuses two split branches with the same port, named or by position', () => {
    const nodes: Nodes = [
      source,
      {
        id: 'sp',
        kind: 'split',
        config: {
          branches: [{ predicate: 'true' }, { name: '1', predicate: 'true' }],
          defaultBranch: { name: '1' },
        },
      },
    ];
    expect(brief(errorsOf(doc('app', nodes, [e('s', 'sp')])))).toEqual([
      ['invalid_config', 'nodes[1].config.branches[1].name', 'sp'],
      ['invalid_config', 'nodes[1].config.defaultBranch.name', 'sp'],
    ]);
  });

  it('checks process stores: declared, materialized by name, never global', () => {
    const nodes: Nodes = [
      source,
      { id: 'gt', kind: 'globalTable', config: { topic: 'g', store: 'global-store' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'c', kind: 'count', config: { store: 'counts' } },
      {
        id: 'p',
        kind: 'process',
        config: { processor: 'x', stores: ['declared', 'counts', 'missing', 'global-store'] },
      },
    ];
    const topology = doc('app', nodes, [e('s', 'g'), e('g', 'c'), e('s', 'p')], {
      stores: [{ name: 'declared' }, { name: 'declared' }],
    });
    expect(errorsOf(topology).map((i) => [i.code, i.path])).toEqual([
      ['duplicate_store', 'stores[1].name'],
      ['unknown_store', 'nodes[4].config.stores[2]'],
      ['invalid_config', 'nodes[4].config.stores[3]'],
    ]);
  });

  it('refuses a DSL store named like a document store', () => {
    const nodes: Nodes = [
      source,
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'c', kind: 'count', config: { store: 'shared' } },
    ];
    const topology = doc('app', nodes, [e('s', 'g'), e('g', 'c')], {
      stores: [{ name: 'shared' }],
    });
    expect(brief(errorsOf(topology))).toEqual([['duplicate_store', 'nodes[2].config.store', 'c']]);
  });
});

describe('validateTopology: ports and flow types of the new kinds', () => {
  it('takes edges from split branches by port and refuses unknown branch ports', () => {
    const nodes: Nodes = [
      source,
      {
        id: 'sp',
        kind: 'split',
        config: { branches: [{ name: 'big', predicate: 'true' }], defaultBranch: {} },
      },
      { id: 'a', kind: 'sink', config: { topic: 'in' } },
      { id: 'b', kind: 'sink', config: { topic: 'in' } },
      { id: 'c', kind: 'sink', config: { topic: 'in' } },
    ];
    const edges: Edges = [
      e('s', 'sp'),
      e('sp', 'a', 'big'),
      e('sp', 'b', '0'),
      e('sp', 'c', 'out'),
    ];
    expect(errorsOf(doc('app', nodes, edges)).map((i) => [i.code, i.path, i.message])).toEqual([
      ['bad_port', 'edges[3].fromPort', 'split has no output port "out" (ports: big, 0)'],
      ['wrong_input_count', 'nodes[4]', 'sink "c" needs exactly one input on port "in", has 0'],
    ]);
  });

  it('needs at least two inputs on a merge and one edge per cogroup port from distinct groupings', () => {
    const nodes: Nodes = [
      source,
      { id: 'm', kind: 'merge', config: {} },
      { id: 'g', kind: 'groupByKey', config: {} },
      {
        id: 'co',
        kind: 'cogroup',
        config: {
          inputs: [
            { port: 'a', aggregator: 'agg' },
            { port: 'b', aggregator: 'agg' },
            { port: 'c', aggregator: 'agg' },
          ],
          initializer: '0',
        },
      },
    ];
    const edges: Edges = [
      e('s', 'm'),
      e('s', 'g'),
      e('g', 'co', 'out', 'a'),
      e('g', 'co', 'out', 'b'),
    ];
    expect(errorsOf(doc('app', nodes, edges)).map((i) => [i.code, i.path, i.message])).toEqual([
      ['wrong_input_count', 'nodes[1]', 'merge "m" needs at least two inputs on port "in", has 1'],
      ['wrong_input_count', 'nodes[3]', 'cogroup "co" needs exactly one input on port "c", has 0'],
      [
        'duplicate_edge',
        'edges[3]',
        'cogroup "co" already takes "g" on port "a": each input must be a different grouped stream',
      ],
    ]);
  });

  it('takes a windowed cogroup in its config, refusing what Kafka Streams cannot express', () => {
    const nodes = (config: Record<string, unknown>): Nodes => [
      source,
      { id: 'g', kind: 'groupByKey', config: {} },
      {
        id: 'co',
        kind: 'cogroup',
        config: { inputs: [{ port: 'a', aggregator: 'agg + 1' }], initializer: '0', ...config },
      },
    ];
    const edges: Edges = [e('s', 'g'), e('g', 'co', 'out', 'a')];
    const session = { type: 'session', gapMs: 100 };
    expect(
      validateTopology(doc('app', nodes({ window: session, merger: 'agg + value' }), edges)).ok,
    ).toBe(true);
    expect(
      validateTopology(doc('app', nodes({ window: { type: 'tumbling', sizeMs: 10 } }), edges)).ok,
    ).toBe(true);
    expect(
      [
        nodes({ window: session }),
        nodes({ merger: 'agg + value' }),
        nodes({ retentionMs: 100 }),
        nodes({
          window: { type: 'tumbling', sizeMs: 10 },
          store: 'v',
          versioned: { historyRetentionMs: 10 },
        }),
      ].map((n) => errorsOf(doc('app', n, edges)).map((i) => [i.path, i.message])),
    ).toEqual([
      [
        [
          'nodes[2].config.merger',
          'a session-windowed cogroup needs a merger (SessionWindowedCogroupedKStream#aggregate(initializer, merger))',
        ],
      ],
      [['nodes[2].config.merger', 'only a session-windowed cogroup takes a merger']],
      [
        [
          'nodes[2].config.retentionMs',
          'retentionMs is for windowed cogroups (a window or session store)',
        ],
      ],
      [
        [
          'nodes[2].config.versioned',
          'a windowed cogroup keeps a window or session store, which cannot be versioned',
        ],
      ],
    ]);
    // windowedBy → cogroup: the windows go into the cogroup's config
    const windowed: Nodes = [
      source,
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'w', kind: 'windowedBy', config: { window: session } },
      {
        id: 'co',
        kind: 'cogroup',
        config: { inputs: [{ port: 'a', aggregator: 'agg + 1' }], initializer: '0' },
      },
    ];
    const refused = errorsOf(
      doc('app', windowed, [e('s', 'g'), e('g', 'w'), e('w', 'co', 'out', 'a')]),
    );
    expect(refused.map((i) => i.code)).toContain('flow_type_mismatch');
    expect(refused.find((i) => i.code === 'flow_type_mismatch')?.message).toContain(
      'set its config.window',
    );
  });

  it('explains the grouping or conversion a flow-type mismatch needs', () => {
    const nodes: Nodes = [
      source,
      { id: 't', kind: 'table', config: { topic: 't' } },
      { id: 'gt', kind: 'globalTable', config: { topic: 'g' } },
      { id: 'r', kind: 'reduce', config: { expression: 'value' } },
      { id: 'tc', kind: 'tableCount', config: {} },
      { id: 'tf', kind: 'tableFilter', config: { expression: 'true' } },
      { id: 'f', kind: 'filter', config: { expression: 'true' } },
    ];
    const edges: Edges = [e('s', 'r'), e('t', 'tc'), e('s', 'tf'), e('gt', 'f')];
    expect(errorsOf(doc('app', nodes, edges)).map((i) => [i.code, i.message])).toEqual([
      [
        'count_without_grouping',
        'reduce aggregates a grouped stream (KGroupedStream): put a groupByKey or groupBy between source and reduce',
      ],
      [
        'count_without_grouping',
        'tableCount aggregates a grouped table (KGroupedTable): put a tableGroupBy between table and tableCount',
      ],
      [
        'flow_type_mismatch',
        'tableFilter takes a table (KTable) but source produces a stream (KStream); convert it with toTable first',
      ],
      [
        'flow_type_mismatch',
        'filter takes a stream (KStream) but globalTable produces a global table (GlobalKTable)',
      ],
    ]);
  });
});

describe('checkConnection with config-defined ports', () => {
  const graph = {
    nodes: [
      { id: 's', kind: 'source', config: { topic: 'in' } },
      { id: 's2', kind: 'source', config: { topic: 'in2' } },
      { id: 'sp', kind: 'split', config: { branches: [{ name: 'x', predicate: 'true' }] } },
      { id: 'm', kind: 'merge', config: {} },
      { id: 'g', kind: 'groupByKey', config: {} },
      {
        id: 'co',
        kind: 'cogroup',
        config: {
          inputs: [
            { port: 'a', aggregator: 'agg' },
            { port: 'b', aggregator: 'agg' },
          ],
          initializer: '0',
        },
      },
    ],
    edges: [
      { from: 's', to: 'm' },
      { from: 's', to: 'g' },
      { from: 'g', to: 'co', toPort: 'a' },
    ],
  };
  it('allows a second edge into a merge, and a split branch port as the source', () => {
    expect(checkConnection(graph, { from: 's2', to: 'm' })).toEqual({ ok: true });
    expect(checkConnection(graph, { from: 'sp', fromPort: 'x', to: 'm' })).toEqual({ ok: true });
    expect(checkConnection(graph, { from: 'sp', fromPort: 'y', to: 'm' })).toEqual({
      ok: false,
      code: 'bad_port',
      reason: 'split has no output port "y" (ports: x)',
    });
  });
  it('refuses a second cogroup input from the same grouping and names the free port default', () => {
    expect(checkConnection(graph, { from: 'g', to: 'co', toPort: 'b' })).toEqual({
      ok: false,
      code: 'duplicate_edge',
      reason: 'cogroup "co" already takes "g": each input must be a different grouped stream',
    });
    expect(checkConnection(graph, { from: 's', to: 'co', toPort: 'b' })).toMatchObject({
      ok: false,
      code: 'count_without_grouping',
    });
  });
});

describe('validateTopology: conflicts Kafka Streams refuses while building', () => {
  it('refuses a cogroup of two repartitioned unnamed groupings (both repartition topics get the store name)', () => {
    const nodes: Nodes = [
      { id: 's1', kind: 'source', config: { topic: 'a' } },
      { id: 's2', kind: 'source', config: { topic: 'b' } },
      { id: 'g1', kind: 'groupBy', config: { expression: 'value' } },
      { id: 'g2', kind: 'groupBy', config: { expression: 'value' } },
      {
        id: 'co',
        kind: 'cogroup',
        config: {
          inputs: [
            { port: 'x', aggregator: 'agg' },
            { port: 'y', aggregator: 'agg' },
          ],
          initializer: '0',
          store: 'totals',
        },
      },
    ];
    const edges: Edges = [
      e('s1', 'g1'),
      e('s2', 'g2'),
      e('g1', 'co', 'out', 'x'),
      e('g2', 'co', 'out', 'y'),
    ];
    expect(errorsOf(doc('app', nodes, edges))[0]).toEqual({
      path: 'nodes[4].name',
      nodeId: 'co',
      code: 'duplicate_name',
      message: 'Kafka Streams node name "totals-repartition-filter" is used twice',
    });
    // Naming one grouping (Grouped.as) gives its repartition topic a name of its own.
    const named = nodes.map((n) => (n.id === 'g1' ? { ...n, name: 'by-x' } : n));
    expect(validateTopology(doc('app', named, edges)).ok).toBe(true);
  });
});
