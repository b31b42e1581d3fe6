import { describe, expect, it } from 'vitest';
import { chain } from '../../test/support/docs.js';
import {
  describeTopology,
  exampleTopology,
  internalTopicPartitions,
  planTopology,
  taskIdsFor,
  validateTopology,
  type Plan,
  type Topology,
  type TopologyDocumentInput,
} from '../index.js';
import { PlanBuilder } from './builder.js';
import { kindPlanners } from './kind-planners.js';
import { assemblePlan } from './plan.js';

function topologyOf(doc: TopologyDocumentInput): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe('planTopology', () => {
  it('plans the example: one sub-topology, the count store and its changelog', () => {
    const plan = planTopology(topologyOf(exampleTopology()));
    expect(plan.applicationId).toBe('streamwright-example');
    expect(plan.subtopologies).toHaveLength(1);
    const sub = plan.subtopologies[0] as Plan['subtopologies'][number];
    expect(sub.sourceTopics).toEqual(['orders']);
    expect(sub.sinkTopics).toEqual(['large-orders', 'orders-per-user']);
    expect(plan.nodeNames).toEqual({
      generator: ['KSTREAM-SOURCE-0000000000'],
      filterLarge: ['KSTREAM-FILTER-0000000001'],
      markBig: ['KSTREAM-MAPVALUES-0000000002'],
      toLargeOrders: ['KSTREAM-SINK-0000000003'],
      groupByUser: [],
      countPerUser: ['KSTREAM-AGGREGATE-0000000004'],
      countsToStream: ['KTABLE-TOSTREAM-0000000005'],
      toOrdersPerUser: ['KSTREAM-SINK-0000000006'],
    });
    expect(plan.stores).toEqual([
      {
        name: 'orders-per-user',
        type: 'keyValue',
        changelogTopic: 'streamwright-example-orders-per-user-changelog',
        keySerde: 'string',
        valueSerde: 'long',
        subtopology: 0,
        processor: 'KSTREAM-AGGREGATE-0000000004',
        processors: ['KSTREAM-AGGREGATE-0000000004'],
        caching: true,
        storeType: 'persistent',
        global: false,
      },
    ]);
    // Kafka Streams' UnwindowedUnversionedChangelogTopicConfig defaults.
    expect(plan.internalTopics).toEqual([
      {
        name: 'streamwright-example-orders-per-user-changelog',
        kind: 'changelog',
        partitions: null,
        config: { 'cleanup.policy': 'compact', 'message.timestamp.type': 'CreateTime' },
      },
    ]);
    const source = sub.nodes.find((n) => n.role === 'source');
    expect(source).toMatchObject({
      op: 'generator',
      topics: ['orders'],
      keySerde: 'string',
      valueSerde: 'json',
      modelNodeId: 'generator',
    });
    expect(source?.modelNode?.kind).toBe('generator');
    const sink = sub.nodes.find((n) => n.modelNodeId === 'toOrdersPerUser');
    expect(sink).toMatchObject({
      role: 'sink',
      op: 'sink',
      topic: 'orders-per-user',
      valueSerde: 'long',
    });
  });

  it('burns a counter value for a user-named node, so the others keep their numbers (NamedInternal#orElseGenerateWithPrefix)', () => {
    const doc = chain('app', [
      { id: 's', kind: 'source', config: { topic: 'in' } },
      { id: 'f', kind: 'filter', name: 'only-big', config: { expression: 'true' } },
      { id: 'p', kind: 'peek', config: {} },
      { id: 'o', kind: 'sink', config: { topic: 'out' } },
    ]);
    expect(planTopology(topologyOf(doc)).nodeNames).toEqual({
      s: ['KSTREAM-SOURCE-0000000000'],
      f: ['only-big'],
      p: ['KSTREAM-PEEK-0000000002'],
      o: ['KSTREAM-SINK-0000000003'],
    });
  });

  it('names nodes the same whatever the order of the edges array (children in canonical edge order)', () => {
    const doc = exampleTopology();
    const reversed = { ...doc, edges: [...(doc.edges ?? [])].reverse() };
    expect(planTopology(topologyOf(reversed))).toEqual(planTopology(topologyOf(doc)));
  });

  it('numbers sub-topologies in the order their sources appear in the nodes array', () => {
    const doc: TopologyDocumentInput = {
      schemaVersion: 1,
      application: { id: 'app' },
      topics: ['a', 'b', 'x', 'y'].map((name) => ({ name, partitions: 1 })),
      nodes: [
        { id: 'zeta', kind: 'source', config: { topic: 'b' } },
        { id: 'alpha', kind: 'source', config: { topic: 'a' } },
        { id: 'toX', kind: 'sink', config: { topic: 'x' } },
        { id: 'toY', kind: 'sink', config: { topic: 'y' } },
      ],
      edges: [
        { from: 'alpha', to: 'toX' },
        { from: 'zeta', to: 'toY' },
      ],
    };
    const plan = planTopology(topologyOf(doc));
    expect(plan.subtopologies.map((s) => s.sourceTopics)).toEqual([['b'], ['a']]);
    expect(plan.nodeNames.zeta).toEqual(['KSTREAM-SOURCE-0000000000']);
  });

  it('inserts a repartition topic and a new sub-topology when an aggregation follows a key change', () => {
    // StreamsGraphTest.expectedComplexMergeOptimizeTopology (apache/kafka): a key-changing
    // process() before groupByKey().count() yields store 2, aggregate 3, then sink 4, filter 5 and
    // source 6 on the topic KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition.
    const b = new PlanBuilder('app');
    const source = b.nameOrGenerate(undefined, 'KSTREAM-SOURCE-');
    b.addSource(source, 'source', ['retryTopic'], 'src');
    const keyChanger = b.nameOrGenerate(undefined, 'KSTREAM-PROCESSOR-');
    b.addProcessor(keyChanger, 'peek', [source], 'proc');
    const flow = {
      type: 'grouped' as const,
      from: keyChanger,
      keySerde: 'string' as const,
      valueSerde: 'json' as const,
      repartitionRequired: true,
    };
    kindPlanners.count({ id: 'cnt', kind: 'count', config: {} }, new Map([['in', [flow]]]), b);
    const plan = assemblePlan(b);
    expect(describeTopology(plan)).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [retryTopic])\n' +
        '      --> KSTREAM-PROCESSOR-0000000001\n' +
        '    Processor: KSTREAM-PROCESSOR-0000000001 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-PROCESSOR-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000005\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition])\n' +
        '      --> KSTREAM-AGGREGATE-0000000003\n' +
        '    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n\n',
    );
    const repartition = 'app-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition';
    expect(plan.internalTopics.map((t) => [t.name, t.kind])).toEqual([
      [repartition, 'repartition'],
      ['app-KSTREAM-AGGREGATE-STATE-STORE-0000000002-changelog', 'changelog'],
    ]);
    // Kafka Streams' RepartitionTopicConfig defaults.
    expect(plan.internalTopics[0]?.config).toEqual({
      'cleanup.policy': 'delete',
      'segment.bytes': '52428800',
      'retention.ms': '-1',
      'message.timestamp.type': 'CreateTime',
    });
    expect(plan.subtopologies[0]?.sinkTopics).toEqual([repartition]);
    expect(plan.subtopologies[1]?.sourceTopics).toEqual([repartition]);
    expect(plan.stores[0]?.subtopology).toBe(1);
    expect(taskIdsFor(plan, { retryTopic: 4 }).map((t) => t.taskId)).toEqual([
      '0_0',
      '0_1',
      '0_2',
      '0_3',
      '1_0',
      '1_1',
      '1_2',
      '1_3',
    ]);
  });

  it('names repartition nodes after a user-given grouping name (SuppressTopologyTest: counts-repartition-*)', () => {
    const b = new PlanBuilder('app');
    const source = b.nameOrGenerate(undefined, 'KSTREAM-SOURCE-');
    b.addSource(source, 'source', ['input'], 'src');
    const keyChanger = b.nameOrGenerate(undefined, 'KSTREAM-KEY-SELECT-');
    b.addProcessor(keyChanger, 'peek', [source], 'sel');
    const flow = {
      type: 'grouped' as const,
      from: keyChanger,
      keySerde: 'string' as const,
      valueSerde: 'string' as const,
      repartitionRequired: true,
    };
    kindPlanners.count(
      { id: 'cnt', kind: 'count', config: { store: 'counts' } },
      new Map([['in', [flow]]]),
      b,
    );
    const names = assemblePlan(b).subtopologies.map((s) => s.nodes.map((n) => n.name));
    expect(names).toEqual([
      [
        'KSTREAM-SOURCE-0000000000',
        'KSTREAM-KEY-SELECT-0000000001',
        'counts-repartition-filter',
        'counts-repartition-sink',
      ],
      ['counts-repartition-source', 'KSTREAM-AGGREGATE-0000000002'],
    ]);
  });
});

describe('taskIdsFor', () => {
  it('gives a 3-partition source tasks 0_0, 0_1 and 0_2', () => {
    const plan = planTopology(topologyOf(exampleTopology()));
    expect(taskIdsFor(plan, { orders: 3, 'large-orders': 3, 'orders-per-user': 3 })).toEqual([
      { subtopology: 0, partition: 0, taskId: '0_0' },
      { subtopology: 0, partition: 1, taskId: '0_1' },
      { subtopology: 0, partition: 2, taskId: '0_2' },
    ]);
  });

  it('uses the largest partition count of a sub-topology’s source topics (5 and 6 → 6 tasks)', () => {
    const plan: Plan = {
      applicationId: 'app',
      subtopologies: [
        { id: 0, global: false, nodes: [], sourceTopics: ['five', 'six'], sinkTopics: [] },
      ],
      stores: [],
      internalTopics: [],
      nodeNames: {},
    };
    expect(taskIdsFor(plan, { five: 5, six: 6 }).map((t) => t.taskId)).toEqual([
      '0_0',
      '0_1',
      '0_2',
      '0_3',
      '0_4',
      '0_5',
    ]);
  });

  it('refuses to guess an unknown partition count', () => {
    const plan = planTopology(topologyOf(exampleTopology()));
    expect(() => taskIdsFor(plan, {})).toThrow('partition count of topic "orders" is unknown');
  });

  it('sizes a changelog by its sub-topology’s task count', () => {
    const plan = planTopology(topologyOf(exampleTopology()));
    expect(internalTopicPartitions(plan, { orders: 3 })).toEqual({
      'streamwright-example-orders-per-user-changelog': 3,
    });
  });
});
