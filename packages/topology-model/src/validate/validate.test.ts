import { describe, expect, it } from 'vitest';
import {
  exampleTopology,
  validateTopology,
  type TopologyDocumentInput,
  type ValidationIssue,
} from '../index.js';

function errorsOf(doc: unknown): ValidationIssue[] {
  const result = validateTopology(doc);
  if (result.ok) throw new Error('expected validation errors');
  return result.errors;
}

const codes = (doc: unknown): [string, string][] => errorsOf(doc).map((e) => [e.code, e.path]);

const base = (): TopologyDocumentInput => structuredClone(exampleTopology());

describe('validateTopology', () => {
  it('accepts the example and fills defaults', () => {
    const result = validateTopology({ ...base(), layout: undefined });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.topology.layout).toEqual({ nodes: {} });
    const group = result.topology.nodes.find((n) => n.id === 'groupByUser');
    expect(group).toEqual({ id: 'groupByUser', kind: 'groupByKey', config: {} });
  });

  it('reports every error at once, each with its path and node id', () => {
    const doc = base();
    const nodes = doc.nodes ?? [];
    nodes.push({ id: 'mystery', kind: 'flatMapEverything', config: {} });
    (nodes[1] as { config: unknown }).config = { expression: 'value.amount >' }; // filterLarge
    (nodes[2] as { config: unknown }).config = { expression: 1 }; // markBig
    doc.edges?.push({ from: 'toLargeOrders', to: 'mystery' }, { from: 'nowhere', to: 'markBig' });
    const errors = errorsOf(doc);
    expect(errors).toEqual([
      {
        path: 'nodes[1].config.expression',
        nodeId: 'filterLarge',
        code: 'expression_syntax',
        message: 'Unexpected token: EOF',
        position: { line: 1, column: 15, offset: 14 },
      },
      {
        path: 'nodes[2].config.expression',
        nodeId: 'markBig',
        code: 'invalid_config',
        message:
          'expected a CEL expression (string) or a function reference {"function": "<name>"}, received number',
      },
      {
        path: 'nodes[8].kind',
        nodeId: 'mystery',
        code: 'unknown_kind',
        message:
          'unknown node kind "flatMapEverything"; known kinds: generator, source, table, globalTable, filter, filterNot, map, mapValues, selectKey, flatMap, flatMapValues, peek, split, merge, repartition, tableFilter, tableFilterNot, tableMapValues, transformValues, toStream, groupByKey, groupBy, count, reduce, aggregate, cogroup, toTable, tableGroupBy, tableCount, tableReduce, tableAggregate, windowedBy, windowedCount, windowedReduce, windowedAggregate, suppress, streamStreamJoin, streamTableJoin, streamGlobalTableJoin, tableTableJoin, foreignKeyJoin, process, processValues, sink, foreach, print',
      },
      {
        path: 'edges[7].from',
        nodeId: 'toLargeOrders',
        code: 'sink_has_outputs',
        message: 'a sink is terminal and has no outputs',
      },
      {
        path: 'edges[8].from',
        code: 'dangling_edge',
        message: 'edge source "nowhere" is not a node',
      },
    ]);
  });

  it('rejects a count without a grouping before it, and other flow-type mismatches', () => {
    const doc = base();
    doc.edges = (doc.edges ?? []).map((e) =>
      e.to === 'countPerUser' ? { ...e, from: 'generator' } : e,
    );
    // groupByUser now has no successor (allowed); count receives a stream.
    expect(codes(doc)).toEqual([['count_without_grouping', 'edges[4].to']]);

    const tableToSink = base();
    tableToSink.edges = (tableToSink.edges ?? []).map((e) =>
      e.from === 'countsToStream' ? { ...e, from: 'countPerUser' } : e,
    );
    expect(errorsOf(tableToSink)).toEqual([
      {
        path: 'edges[6].to',
        nodeId: 'toOrdersPerUser',
        code: 'flow_type_mismatch',
        message:
          'sink takes a stream (KStream) but count produces a table (KTable); convert it with toStream first',
      },
    ]);

    const groupedToFilter = base();
    groupedToFilter.edges = (groupedToFilter.edges ?? []).map((e) =>
      e.to === 'filterLarge' ? { ...e, from: 'groupByUser' } : e,
    );
    expect(errorsOf(groupedToFilter).map((e) => e.message)).toEqual([
      'filter takes a stream (KStream) but groupByKey produces a grouped stream (KGroupedStream); a grouped stream can only be aggregated (count, reduce, aggregate, cogroup)',
    ]);
  });

  it('rejects wrong input counts, bad ports, cycles and duplicate edges', () => {
    const doc = base();
    doc.edges = [
      ...(doc.edges ?? []).filter((e) => e.to !== 'toLargeOrders'),
      { from: 'filterLarge', to: 'filterLarge' },
      { from: 'markBig', fromPort: 'left', to: 'toLargeOrders' },
      { from: 'generator', to: 'groupByUser' },
      { from: 'markBig', to: 'generator' },
    ];
    expect(codes(doc)).toEqual([
      ['cycle', 'edges[6]'],
      ['bad_port', 'edges[7].fromPort'],
      ['duplicate_edge', 'edges[8]'],
      ['bad_port', 'edges[9].to'],
      ['wrong_input_count', 'nodes[3]'],
    ]);

    const loop = base();
    const nodes = loop.nodes ?? [];
    nodes.push({ id: 'p1', kind: 'peek', config: {} }, { id: 'p2', kind: 'peek', config: {} });
    loop.edges?.push({ from: 'p1', to: 'p2' }, { from: 'p2', to: 'p1' });
    const errors = errorsOf(loop);
    expect(errors.map((e) => [e.code, e.path, e.message])).toEqual([
      ['cycle', 'edges[8]', 'cycle: p1 → p2 → p1'],
    ]);
  });

  it("says what a bad number was and what it may be, instead of zod's stock words", () => {
    const doc = base();
    doc.topics![0]!.partitions = 0;
    doc.topics![1]!.partitions = 2.5;
    const messages = errorsOf(doc).map((e) => [e.path, e.message]);
    expect(messages).toContainEqual([
      'topics[0].partitions',
      'partitions must be an integer from 1 to 1024, got 0',
    ]);
    expect(messages).toContainEqual([
      'topics[1].partitions',
      'partitions must be an integer from 1 to 1024, got 2.5',
    ]);
    const threads = base();
    threads.application.config = { 'num.stream.threads': 100 };
    expect(errorsOf(threads).map((e) => e.message)).toContain(
      'num.stream.threads must be ≤ 64, got 100',
    );
  });

  it('checks topics: declared, unique, one source per topic', () => {
    const doc = base();
    doc.topics?.push({ name: 'orders', partitions: 1 });
    doc.nodes?.push(
      { id: 'again', kind: 'source', config: { topic: 'orders' } },
      { id: 'lost', kind: 'sink', config: { topic: 'nowhere' } },
    );
    doc.edges?.push({ from: 'again', to: 'lost' });
    expect(codes(doc)).toEqual([
      ['duplicate_topic', 'topics[3].name'],
      ['duplicate_source_topic', 'nodes[8].config.topic'],
      ['unknown_topic', 'nodes[9].config.topic'],
    ]);
  });

  it('reports config errors under nodes[i].config, including unknown keys', () => {
    const doc = base();
    (doc.nodes?.[0] as { config: Record<string, unknown> }).config.ratePerSecond = -1;
    (doc.nodes?.[5] as { config: Record<string, unknown> }).config = {
      store: 'bad store',
      stor: 'x',
    };
    expect(errorsOf(doc).map((e) => [e.code, e.path, e.nodeId])).toEqual([
      ['invalid_config', 'nodes[0].config.ratePerSecond', 'generator'],
      ['invalid_config', 'nodes[5].config.store', 'countPerUser'],
      ['invalid_config', 'nodes[5].config', 'countPerUser'],
    ]);
  });

  it('reports a type error in a generator expression with its position', () => {
    const doc = base();
    (doc.nodes?.[0] as { config: Record<string, unknown> }).config.key = '"u" +\n seq';
    expect(errorsOf(doc)).toEqual([
      {
        path: 'nodes[0].config.key',
        nodeId: 'generator',
        code: 'expression_type',
        message: 'no such overload: string + int',
        position: { line: 1, column: 1, offset: 0 },
      },
    ]);
  });

  it('says what is missing: an expression, the schemaVersion', () => {
    // a filter just dropped from the palette has no expression yet
    const doc = base() as unknown as { nodes: { config: Record<string, unknown> }[] };
    delete doc.nodes[1]!.config.expression;
    expect(errorsOf(doc)).toContainEqual({
      path: 'nodes[1].config.expression',
      nodeId: 'filterLarge',
      code: 'invalid_config',
      message: 'a CEL expression is required (or a function reference {"function": "<name>"})',
    });
    const { schemaVersion: _v, ...unversioned } = base();
    expect(errorsOf(unversioned)).toContainEqual({
      path: 'schemaVersion',
      code: 'invalid_schema',
      message: 'schemaVersion is required (1)',
    });
    expect(errorsOf({ ...base(), schemaVersion: '1' })).toContainEqual({
      path: 'schemaVersion',
      code: 'invalid_schema',
      message: 'schemaVersion "1" is not known; this version reads 1',
    });
  });

  it('reports duplicate ids, names and stores', () => {
    const doc = base();
    doc.nodes?.push({ id: 'markBig', kind: 'peek', config: {} });
    expect(codes(doc)).toEqual([['duplicate_node_id', 'nodes[8].id']]);

    const names = base();
    (names.nodes?.[1] as { name?: string }).name = 'same';
    (names.nodes?.[2] as { name?: string }).name = 'same';
    expect(errorsOf(names)).toEqual([
      {
        path: 'nodes[2].name',
        nodeId: 'markBig',
        code: 'duplicate_name',
        message: 'Kafka Streams node name "same" is used twice (also by node "filterLarge")',
      },
    ]);

    const stores = base();
    stores.nodes?.push(
      { id: 'g2', kind: 'groupByKey', config: {} },
      { id: 'c2', kind: 'count', config: { store: 'orders-per-user' } },
    );
    stores.edges?.push({ from: 'generator', to: 'g2' }, { from: 'g2', to: 'c2' });
    // The DSL program builds c2's branch first (children in id order: g2 < groupByUser), so the
    // example's own count is the second to claim the store.
    expect(codes(stores)).toEqual([['duplicate_store', 'nodes[5].config.store']]);
  });

  it('reports structural errors with paths and still checks the well-formed parts', () => {
    const doc = base() as Record<string, unknown>;
    (doc.application as Record<string, unknown>).config = { 'commit.interval.ms': -5 };
    (doc.nodes as unknown[]).push({ id: '9bad', kind: 'peek' });
    (doc.edges as unknown[]).push(
      { from: 'generator', to: '9bad' },
      { from: 'generator', to: 'ghost' },
    );
    (doc.layout as { nodes: Record<string, unknown> }).nodes.gone = { x: 1, y: 2 };
    expect(codes(doc)).toEqual([
      ['invalid_schema', 'application.config["commit.interval.ms"]'],
      ['invalid_schema', 'nodes[8].id'],
      ['invalid_schema', 'edges[7].to'],
      ['dangling_layout', 'layout.nodes.gone'],
      ['dangling_edge', 'edges[8].to'],
    ]);
  });

  it('refuses a document from a newer Streamwright and non-objects', () => {
    expect(errorsOf({ ...base(), schemaVersion: 7 })).toEqual([
      {
        path: 'schemaVersion',
        code: 'unsupported_version',
        message:
          'schemaVersion 7 is newer than this Streamwright understands (1); upgrade Streamwright to open it',
      },
    ]);
    expect(codes([])).toEqual([['invalid_schema', '']]);
  });
});
