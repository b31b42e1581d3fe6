// What the plan tells the engine about the kinds added after v1: ops, ports, split branches,
// serdes after key changes, stores (lazily materialized tables, shared and document stores,
// global stores), internal topics and tasks. describe() text is checked against Kafka Streams in
// test/describe-oracle.test.ts; here the parts describe() does not show.
import { describe, expect, it } from 'vitest';
import { doc } from '../../test/support/dsl-scenarios.js';
import {
  internalTopicPartitions,
  planTopology,
  taskIdsFor,
  validateTopology,
  type Plan,
  type PlannedNode,
  type TopologyDocumentInput,
} from '../index.js';

function plan(input: TopologyDocumentInput): Plan {
  const result = validateTopology(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return planTopology(result.topology);
}
const node = (p: Plan, name: string): PlannedNode => {
  const found = p.subtopologies.flatMap((s) => s.nodes).find((n) => n.name === name);
  if (!found) throw new Error(`no node ${name}`);
  return found;
};
const e = (from: string, to: string, fromPort = 'out', toPort = 'in') => ({
  from,
  fromPort,
  to,
  toPort,
});

describe('planTopology: stream kinds', () => {
  it('plans a split as a splitter with one pass-through child per branch, in branch order', () => {
    const p = plan(
      doc(
        'app',
        [
          { id: 's', kind: 'source', config: { topic: 'in' } },
          {
            id: 'sp',
            kind: 'split',
            config: {
              branches: [{ predicate: 'true' }, { name: 'big', predicate: 'false' }],
              defaultBranch: {},
            },
          },
          { id: 'o', kind: 'sink', config: { topic: 'in' } },
        ],
        [e('s', 'sp'), e('sp', 'o', 'big')],
      ),
    );
    expect(p.nodeNames.sp).toEqual([
      'KSTREAM-BRANCH-0000000001',
      'KSTREAM-BRANCH-00000000011',
      'KSTREAM-BRANCH-0000000001big',
      'KSTREAM-BRANCH-00000000010',
    ]);
    expect(node(p, 'KSTREAM-BRANCH-0000000001')).toMatchObject({
      op: 'split',
      branches: [
        { port: '1', index: 1, child: 'KSTREAM-BRANCH-00000000011' },
        { port: 'big', index: 2, child: 'KSTREAM-BRANCH-0000000001big' },
        { port: '0', index: 0, child: 'KSTREAM-BRANCH-00000000010' },
      ],
    });
    expect(node(p, 'KSTREAM-BRANCH-0000000001big')).toMatchObject({
      op: 'split-branch',
      port: 'big',
      modelNodeId: 'sp',
      successors: ['KSTREAM-SINK-0000000005'],
    });
  });

  it('drops serdes where Kafka Streams does (json stands in) and keeps Grouped / Repartitioned ones', () => {
    const p = plan(
      doc(
        'app',
        [
          {
            id: 's',
            kind: 'source',
            config: { topic: 'in', keySerde: 'long', valueSerde: 'string' },
          },
          { id: 'k', kind: 'selectKey', config: { expression: 'value' } },
          { id: 'g', kind: 'groupByKey', config: { keySerde: 'string' } },
          { id: 'c', kind: 'count', config: { store: 'counts' } },
          { id: 'r', kind: 'repartition', config: { partitions: 3, keySerde: 'long' } },
          { id: 'g2', kind: 'groupByKey', config: {} },
          { id: 'red', kind: 'reduce', config: { expression: 'value', store: 'latest' } },
        ],
        [e('s', 'k'), e('k', 'g'), e('g', 'c'), e('s', 'r'), e('r', 'g2'), e('g2', 'red')],
      ),
    );
    expect(p.stores.map((s) => [s.name, s.keySerde, s.valueSerde])).toEqual([
      ['counts', 'string', 'long'],
      ['latest', 'long', 'string'],
    ]);
    const sinks = p.subtopologies
      .flatMap((s) => s.nodes)
      .filter((n) => n.op === 'repartition-sink');
    // The counts repartition carries the grouping's serdes; repartition() keys use its own key
    // serde or the default serde (json), never the stream's. (A bytes value serde here would be
    // refused by validation: the values are strings.)
    expect(sinks.map((n) => [n.topic, n.keySerde, n.valueSerde]).sort()).toEqual([
      ['app-KSTREAM-REPARTITION-0000000006-repartition', 'long', 'string'],
      ['app-counts-repartition', 'string', 'string'],
    ]);
    const repartition = p.internalTopics.find((t) =>
      t.name.endsWith('REPARTITION-0000000006-repartition'),
    );
    expect(repartition?.partitions).toBe(3);
    expect(
      internalTopicPartitions(p, { in: 6 })['app-KSTREAM-REPARTITION-0000000006-repartition'],
    ).toBe(3);
    expect(taskIdsFor(p, { in: 6 }).filter((t) => t.subtopology === 2).length).toBe(3);
  });

  it('names the merges of three inputs in order, the last one with the node name', () => {
    const p = plan(
      doc(
        'app',
        [
          { id: 'c', kind: 'source', config: { topic: 'tc' } },
          { id: 'a', kind: 'source', config: { topic: 'ta' } },
          { id: 'b', kind: 'source', config: { topic: 'tb' } },
          { id: 'm', kind: 'merge', name: 'all', config: {} },
        ],
        [e('c', 'm'), e('b', 'm'), e('a', 'm')],
      ),
    );
    expect(p.nodeNames.m).toEqual(['all-1', 'all']);
    expect(node(p, 'all-1').predecessors).toEqual([
      'KSTREAM-SOURCE-0000000001',
      'KSTREAM-SOURCE-0000000002',
    ]);
    // Kafka's TreeSet order, fixed while subtree sizes grow (checked against Kafka Streams too).
    expect(node(p, 'all').predecessors).toEqual(['all-1', 'KSTREAM-SOURCE-0000000000']);
  });
});

describe('planTopology: stores', () => {
  const tableDoc = (
    extra: TopologyDocumentInput['nodes'] = [],
    edges: TopologyDocumentInput['edges'] = [],
  ) =>
    doc(
      'app',
      [{ id: 't', kind: 'table', config: { topic: 'users' } }, ...(extra ?? [])],
      edges ?? [],
    );

  it('creates an unnamed table store only when something downstream forces it', () => {
    expect(plan(tableDoc()).stores).toEqual([]);
    expect(plan(tableDoc()).internalTopics).toEqual([]);
    const forced = plan(
      tableDoc(
        [
          { id: 'f', kind: 'tableFilter', config: { expression: 'true' } },
          { id: 'g', kind: 'tableGroupBy', config: { expression: '{"key": value, "value": key}' } },
          { id: 'c', kind: 'tableCount', config: { store: 'per-value' } },
        ],
        [e('t', 'f'), e('f', 'g'), e('g', 'c')],
      ),
    );
    expect(forced.stores.map((s) => [s.name, s.processor, s.changelogTopic])).toEqual([
      [
        'users-STATE-STORE-0000000000',
        'KTABLE-SOURCE-0000000002',
        'app-users-STATE-STORE-0000000000-changelog',
      ],
      ['per-value', 'KTABLE-AGGREGATE-0000000007', 'app-per-value-changelog'],
    ]);
    expect(forced.internalTopics.map((t) => [t.name, t.kind])).toEqual([
      ['app-per-value-repartition', 'repartition'],
      ['app-users-STATE-STORE-0000000000-changelog', 'changelog'],
      ['app-per-value-changelog', 'changelog'],
    ]);
    expect(node(forced, 'KTABLE-SOURCE-0000000002').stores).toEqual([
      'users-STATE-STORE-0000000000',
    ]);
  });

  it('uses the source topic as the changelog with topology.optimization reuse.ktable.source.topics', () => {
    const input = doc(
      'app',
      [{ id: 't', kind: 'table', config: { topic: 'users', store: 'users' } }],
      [],
    );
    input.application = {
      id: 'app',
      config: { 'topology.optimization': 'reuse.ktable.source.topics' },
    };
    const p = plan(input);
    expect(p.stores[0]?.changelogTopic).toBe('users');
    expect(p.internalTopics).toEqual([]);
    expect(internalTopicPartitions(p, { users: 4 })).toEqual({});
    const unlogged = doc(
      'app',
      [{ id: 't', kind: 'table', config: { topic: 'users', store: 'users', logging: false } }],
      [],
    );
    expect(plan(unlogged).stores[0]?.changelogTopic).toBeNull();
  });

  it('connects document stores to their processors and leaves unused ones out', () => {
    const p = plan(
      doc(
        'app',
        [
          { id: 's', kind: 'source', config: { topic: 'a' } },
          { id: 's2', kind: 'source', config: { topic: 'b' } },
          { id: 'p', kind: 'process', config: { processor: 'x', stores: ['shared'] } },
          {
            id: 'p2',
            kind: 'processValues',
            config: { processor: 'y', stores: ['shared'], params: { z: 1, a: [2] } },
          },
        ],
        [e('s', 'p'), e('s2', 'p2')],
        {
          stores: [
            { name: 'shared', keySerde: 'string', valueSerde: 'long', caching: true },
            { name: 'unused' },
          ],
        },
      ),
    );
    expect(p.stores).toEqual([
      {
        name: 'shared',
        type: 'keyValue',
        changelogTopic: 'app-shared-changelog',
        keySerde: 'string',
        valueSerde: 'long',
        subtopology: 0,
        processor: 'KSTREAM-PROCESSOR-0000000001',
        processors: ['KSTREAM-PROCESSOR-0000000001', 'KSTREAM-PROCESSVALUES-0000000003'],
        caching: true,
        storeType: 'persistent',
        global: false,
      },
    ]);
    // Sharing a store puts both sources' processors in one sub-topology (one task per partition).
    expect(p.subtopologies).toHaveLength(1);
    expect(node(p, 'KSTREAM-PROCESSVALUES-0000000003').modelNode?.config).toEqual({
      processor: 'y',
      stores: ['shared'],
      params: { z: 1, a: [2] },
    });
  });

  it('plans a global table as a global sub-topology with an unlogged store and no tasks', () => {
    const p = plan(
      doc(
        'app',
        [
          { id: 'g', kind: 'globalTable', config: { topic: 'countries' } },
          { id: 's', kind: 'source', config: { topic: 'in' } },
          { id: 'o', kind: 'sink', config: { topic: 'out' } },
        ],
        [e('s', 'o')],
      ),
    );
    expect(p.subtopologies.map((s) => [s.id, s.global, s.sourceTopics])).toEqual([
      [0, true, ['countries']],
      [1, false, ['in']],
    ]);
    expect(p.stores).toMatchObject([
      {
        name: 'countries-STATE-STORE-0000000000',
        changelogTopic: null,
        global: true,
        subtopology: 0,
      },
    ]);
    expect(node(p, 'KSTREAM-SOURCE-0000000001')).toMatchObject({
      op: 'table-source',
      modelNodeId: 'g',
    });
    expect(node(p, 'KTABLE-SOURCE-0000000002')).toMatchObject({ op: 'globalTable' });
    expect(taskIdsFor(p, { countries: 3, in: 2, out: 2 }).map((t) => t.taskId)).toEqual([
      '1_0',
      '1_1',
    ]);
  });

  it('shares the cogroup store between its aggregators, each marked with its input port', () => {
    const p = plan(
      doc(
        'app',
        [
          { id: 's1', kind: 'source', config: { topic: 'a' } },
          { id: 's2', kind: 'source', config: { topic: 'b' } },
          { id: 'g1', kind: 'groupByKey', config: {} },
          { id: 'g2', kind: 'groupByKey', config: {} },
          {
            id: 'co',
            kind: 'cogroup',
            config: {
              inputs: [
                { port: 'left', aggregator: 'agg + 1' },
                { port: 'right', aggregator: 'agg + 2' },
              ],
              initializer: '0',
              store: 'totals',
            },
          },
        ],
        [e('s1', 'g1'), e('s2', 'g2'), e('g1', 'co', 'out', 'left'), e('g2', 'co', 'out', 'right')],
      ),
    );
    expect(p.stores[0]?.processors).toEqual([
      'COGROUPKSTREAM-AGGREGATE-0000000002',
      'COGROUPKSTREAM-AGGREGATE-0000000003',
    ]);
    expect(p.nodeNames.co?.map((n) => [n, node(p, n).op, node(p, n).port])).toEqual([
      ['COGROUPKSTREAM-AGGREGATE-0000000002', 'cogroup-aggregate', 'left'],
      ['COGROUPKSTREAM-AGGREGATE-0000000003', 'cogroup-aggregate', 'right'],
      ['COGROUPKSTREAM-MERGE-0000000004', 'cogroup', undefined],
    ]);
  });
});
