// Validation of what would otherwise fail only at start or on the first record (issue 23):
// co-partitioning with declared and existing partition counts, windowed keys and types into
// serdes, CEL typed against the inferred key/value types, null sides of left/outer joins.
import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  unguardedNullUses,
  validateTopology,
  type TopologyDocumentInput,
  type ValidateOptions,
  type ValidationIssue,
} from '../index.js';

type NodeInput = { id: string; kind: string; config: Record<string, unknown> };
type EdgeInput = { from: string; to: string; fromPort?: string; toPort?: string };

function doc(
  topics: [string, number][],
  nodes: NodeInput[],
  edges: EdgeInput[],
): TopologyDocumentInput {
  return {
    schemaVersion: 1,
    application: { id: 'app', config: {} },
    topics: topics.map(([name, partitions]) => ({ name, partitions, config: {} })),
    nodes,
    edges,
    layout: { nodes: {} },
  } as TopologyDocumentInput;
}

function issuesOf(input: TopologyDocumentInput, options: ValidateOptions = {}): ValidationIssue[] {
  const result = validateTopology(input, options);
  return result.ok ? [] : result.errors;
}

/** orders (stream) ⋈ users (table) → enriched. */
function streamTableJoin(
  ordersPartitions: number,
  usersPartitions: number,
  joiner = 'string(left) + "+" + string(right)',
  type: 'inner' | 'left' = 'inner',
  between: NodeInput[] = [],
): TopologyDocumentInput {
  const chain = between.map((n) => n.id);
  const path = ['orders', ...chain, 'join'];
  return doc(
    [
      ['orders', ordersPartitions],
      ['users', usersPartitions],
      ['enriched', 1],
    ],
    [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'users', kind: 'table', config: { topic: 'users' } },
      ...between,
      { id: 'join', kind: 'streamTableJoin', config: { type, joiner } },
      { id: 'out', kind: 'sink', config: { topic: 'enriched' } },
    ],
    [
      ...path.slice(0, -1).map((from, i) => ({
        from,
        to: path[i + 1] as string,
        ...(i === path.length - 2 ? { toPort: 'left' } : {}),
      })),
      { from: 'users', to: 'join', toPort: 'right' },
      { from: 'join', to: 'out' },
    ],
  );
}

describe('co-partitioning', () => {
  it('refuses a join over topics declared with different partition counts, naming both', () => {
    const issues = issuesOf(streamTableJoin(2, 3));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      path: 'nodes[2]',
      nodeId: 'join',
      code: 'topics_not_copartitioned',
    });
    expect(issues[0]?.message).toContain('"orders" has 2 (declared), "users" has 3 (declared)');
    // Kafka Streams' own words, as the engine would fail at start
    expect(issues[0]?.message).toContain('Topics not co-partitioned: [{orders=2, users=3}]');
    expect(issues[0]?.fix).toContain('repartition node with partitions 3');
  });

  it('judges by the partition count a topic already has, which deploy never changes', () => {
    const declaredAlike = streamTableJoin(3, 3);
    expect(issuesOf(declaredAlike)).toEqual([]);
    const issues = issuesOf(declaredAlike, { existingTopics: { users: 2, other: 7 } });
    expect(issues.map((i) => i.code)).toEqual(['topics_not_copartitioned']);
    expect(issues[0]?.message).toContain(
      '"users" has 2 (it exists with 2; the 3 declared are not applied to an existing topic)',
    );
    expect(issues[0]?.fix).toContain('delete and recreate "users"');
    // both existing with the same count: fine whatever is declared
    expect(issuesOf(streamTableJoin(2, 3), { existingTopics: { orders: 4, users: 4 } })).toEqual(
      [],
    );
  });

  it('lets a repartition topic take the other side’s count, unless its count is fixed', () => {
    const rekeyed = (partitions?: number): NodeInput[] => [
      { id: 'rekey', kind: 'selectKey', config: { expression: 'key + "!"' } },
      {
        id: 'rp',
        kind: 'repartition',
        config: partitions === undefined ? {} : { partitions },
      },
    ];
    expect(issuesOf(streamTableJoin(2, 3, undefined, 'inner', rekeyed()))).toEqual([]);
    expect(issuesOf(streamTableJoin(2, 3, undefined, 'inner', rekeyed(3)))).toEqual([]);
    const issues = issuesOf(streamTableJoin(2, 3, undefined, 'inner', rekeyed(4)));
    expect(issues.map((i) => [i.code, i.nodeId])).toEqual([['topics_not_copartitioned', 'join']]);
    expect(issues[0]?.message).toContain('(fixed by repartition node "rp")');
  });
});

describe('types along edges', () => {
  const windowedCount = (sink: Record<string, unknown>): TopologyDocumentInput =>
    doc(
      [
        ['clicks', 1],
        ['counts', 1],
      ],
      [
        { id: 'clicks', kind: 'source', config: { topic: 'clicks' } },
        { id: 'group', kind: 'groupByKey', config: {} },
        {
          id: 'win',
          kind: 'windowedBy',
          config: { window: { type: 'tumbling', sizeMs: 60000 } },
        },
        { id: 'count', kind: 'windowedCount', config: {} },
        { id: 'stream', kind: 'toStream', config: {} },
        { id: 'out', kind: 'sink', config: { topic: 'counts', valueSerde: 'long', ...sink } },
      ],
      [
        { from: 'clicks', to: 'group' },
        { from: 'group', to: 'win' },
        { from: 'win', to: 'count' },
        { from: 'count', to: 'stream' },
        { from: 'stream', to: 'out' },
      ],
    );

  it('refuses a windowed key into a sink whose key serde cannot write it, with the fix', () => {
    const issues = issuesOf(windowedCount({}));
    expect(issues).toEqual([
      {
        path: 'nodes[5].config.keySerde',
        nodeId: 'out',
        code: 'serde_mismatch',
        message:
          'the keys reaching this sink are windowed (by "win"): the string key serde cannot write a windowed key',
        fix: 'set windowedKey to "time" with windowSizeMs 60000 (Kafka\'s TimeWindowedSerde), or keySerde "json" to write {key, start, end}',
      },
    ]);
    expect(issuesOf(windowedCount({ windowedKey: 'time', windowSizeMs: 60000 }))).toEqual([]);
    expect(issuesOf(windowedCount({ keySerde: 'json' }))).toEqual([]);
    expect(
      issuesOf(windowedCount({ windowedKey: 'session' })).map((i) => [i.code, i.path]),
    ).toEqual([['serde_mismatch', 'nodes[5].config.windowedKey']]);
  });

  it('refuses a count (a long) into a string value serde', () => {
    const issues = issuesOf(windowedCount({ keySerde: 'json', valueSerde: 'string' }));
    expect(issues.map((i) => [i.code, i.path, i.message])).toEqual([
      [
        'serde_mismatch',
        'nodes[5].config.valueSerde',
        'the values reaching this sink are int, which the string value serde cannot write',
      ],
    ]);
  });

  const filtered = (valueSerde: string, expression: string): TopologyDocumentInput =>
    doc(
      [
        ['in', 1],
        ['out', 1],
      ],
      [
        { id: 'src', kind: 'source', config: { topic: 'in', valueSerde } },
        { id: 'big', kind: 'filter', config: { expression } },
        { id: 'len', kind: 'mapValues', config: { expression: 'size(value)' } },
        { id: 'sink', kind: 'sink', config: { topic: 'out', valueSerde: 'long' } },
      ],
      [
        { from: 'src', to: 'big' },
        { from: 'big', to: 'len' },
        { from: 'len', to: 'sink' },
      ],
    );

  it('type-checks CEL against the serdes’ types (a string value is not a map)', () => {
    expect(issuesOf(filtered('json', 'value.qty > 10'))).toEqual([]);
    const issues = issuesOf(filtered('string', 'value.qty > 10'));
    expect(issues).toMatchObject([
      {
        path: 'nodes[1].config.expression',
        nodeId: 'big',
        code: 'expression_type',
        position: { line: 1, column: 7 },
      },
    ]);
    expect(issues[0]?.message).toContain("Cannot index type 'string'");
    expect(issues[0]?.message).toContain('here key: string, value: string');
    expect(issuesOf(filtered('string', 'value > 10'))[0]?.message).toMatch(
      /^no such overload: string > int/,
    );
    // size(value) of a string is an int: a long serde writes it
    expect(issuesOf(filtered('string', 'value.startsWith("a")'))).toEqual([]);
  });
});

describe('null sides of joins', () => {
  it('refuses a left join whose joiner uses right without a null guard', () => {
    const issues = issuesOf(streamTableJoin(1, 1, 'left + "+" + right', 'left'));
    expect(issues).toMatchObject([
      {
        path: 'nodes[2].config.joiner',
        nodeId: 'join',
        code: 'nullable_join_value',
        position: { line: 1, column: 14 },
      },
    ]);
    expect(issues[0]?.fix).toContain('right == null ?');
    expect(issuesOf(streamTableJoin(1, 1, 'left + "+" + right', 'inner'))).toEqual([]);
    expect(
      issuesOf(streamTableJoin(1, 1, 'right == null ? left : left + "+" + right', 'left')),
    ).toEqual([]);
  });

  // Each expression flagged exactly when it fails with right = null in the engine's evaluator.
  const cases = [
    'left + "+" + right',
    'right + 1',
    'size(right)',
    'right.name',
    'right.size()',
    'string(right)',
    '!right',
    'right ? 1 : 2',
    '{"l": left, "r": right}',
    '[left, right]',
    'right == null ? left : left + right',
    'right != null ? left + right : left',
    'right != null && right.ok',
    'right == null || right.ok',
    'has(right.name)',
    'right.?name.orValue("none")',
    'dyn(right)',
    'left',
  ];
  it.each(cases)('%s: flagged iff it fails on a null right', (source) => {
    const flagged = unguardedNullUses(source, ['right']).length > 0;
    const joiner = compileExpression(source, 'joiner');
    let fails = false;
    try {
      joiner.evaluate({ key: 'k', left: 'l', right: null });
    } catch {
      fails = true;
    }
    expect(flagged).toBe(fails);
  });
});

describe('topic names', () => {
  it('refuses a topic named like a store’s changelog', () => {
    const issues = issuesOf(
      doc(
        [
          ['in', 1],
          ['app-counts-changelog', 1],
        ],
        [
          { id: 'src', kind: 'source', config: { topic: 'in' } },
          { id: 'g', kind: 'groupByKey', config: {} },
          { id: 'c', kind: 'count', config: { store: 'counts' } },
        ],
        [
          { from: 'src', to: 'g' },
          { from: 'g', to: 'c' },
        ],
      ),
    );
    expect(issues.map((i) => [i.code, i.path])).toEqual([['topic_clash', 'topics[1].name']]);
    expect(issues[0]?.message).toContain('changelog of store "counts"');
  });
});

describe('typed variables and null', () => {
  it('lets a typed key or value be compared with null, as tombstones and missing sides need', () => {
    expect(
      issuesOf(streamTableJoin(1, 1, 'right == null ? left : left + "+" + right', 'left')),
    ).toEqual([]);
    const guarded = doc(
      [
        ['in', 1],
        ['out', 1],
      ],
      [
        { id: 'src', kind: 'source', config: { topic: 'in', valueSerde: 'string' } },
        {
          id: 'f',
          kind: 'filter',
          config: { expression: 'value != null && value.startsWith("a") && key != null' },
        },
        { id: 'sink', kind: 'sink', config: { topic: 'out', valueSerde: 'string' } },
      ],
      [
        { from: 'src', to: 'f' },
        { from: 'f', to: 'sink' },
      ],
    );
    expect(issuesOf(guarded)).toEqual([]);
  });

  // Decided for issue 28: refused as cel-go and cel-java refuse it (`_?_:_` is (bool, A, A) → A;
  // null is no string), with the dyn(...) fix named; docs/EXPRESSIONS.md "null in a conditional".
  it('refuses a null and a typed branch in one conditional, naming the dyn fix', () => {
    const mapped = (expression: string) =>
      doc(
        [
          ['in', 1],
          ['out', 1],
        ],
        [
          { id: 'src', kind: 'source', config: { topic: 'in', valueSerde: 'string' } },
          { id: 'm', kind: 'mapValues', config: { expression } },
          { id: 'sink', kind: 'sink', config: { topic: 'out', valueSerde: 'string' } },
        ],
        [
          { from: 'src', to: 'm' },
          { from: 'm', to: 'sink' },
        ],
      );
    const issues = issuesOf(mapped('value == "" ? null : value.split(":")[0]'));
    expect(issues.map((i) => i.code)).toEqual(['expression_type']);
    expect(issues[0]?.message).toMatch(
      /^Ternary branches must have the same type, got 'null' and 'string'; CEL has no nullable string.*dyn\(/,
    );
    expect(issuesOf(mapped('value == "" ? value.split(":")[0] : null'))[0]?.message).toContain(
      'wrap the other branch in dyn(...)',
    );
    expect(issuesOf(mapped('value == "" ? null : dyn(value.split(":")[0])'))).toEqual([]);
  });
});
