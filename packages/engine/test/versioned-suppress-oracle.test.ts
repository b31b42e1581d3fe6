// suppress() of a versioned table against Apache Kafka Streams 4.1.
import { runOracle } from '@streamwright/ks-oracle';
import { validateTopology } from '@streamwright/topology-model';
import { expect, it } from 'vitest';
import { doc, type Node, sink, table, toStream, versioned } from './fixtures/versioned-docs.js';

// suppress() of a versioned table: Kafka Streams refuses it when building (KTableImpl#suppress
// for a versioned table itself, InternalStreamsBuilder#enableVersionedSemantics below one).
const suppressed = (between: Node[]) =>
  doc(
    [
      table('t', 'long', versioned('t-store', 10)),
      ...between,
      { id: 's', kind: 'suppress', config: { until: 'timeLimit', timeLimitMs: 1000 } },
      toStream('ss'),
      sink('out', 'long'),
    ],
    [
      ...[{ id: 't' }, ...between].map((n, i, all) => ({
        from: n.id as string,
        to: (all[i + 1]?.id as string | undefined) ?? 's',
      })),
      { from: 's', to: 'ss' },
      { from: 'ss', to: 'out' },
    ],
    ['t', 'out'],
  );

it('suppress() of a versioned table, or below one, is refused with Kafka Streams’ messages', async () => {
  const direct = suppressed([]);
  const inherited = suppressed([{ id: 'f', kind: 'tableFilter', config: { expression: 'true' } }]);
  const notVersioned = suppressed([
    { id: 'f', kind: 'tableFilter', config: { expression: 'true', store: 'plain' } },
  ]);
  const reference = await runOracle([
    { name: 'direct', topology: direct, describeOnly: true },
    { name: 'inherited', topology: inherited, describeOnly: true },
    { name: 'not versioned', topology: notVersioned, describeOnly: true },
  ]);
  const mine = [direct, inherited, notVersioned].map((d) => {
    const result = validateTopology(d);
    return result.ok ? null : result.errors.map((e) => [e.path, e.code, e.message]);
  });
  const message = (i: number) => reference[i]?.error?.replace(/^TopologyException: /, '');
  expect(mine).toEqual([
    [['nodes[1]', 'suppress_of_versioned_table', message(0)]],
    [['nodes[2]', 'suppress_of_versioned_table', message(1)]],
    null,
  ]);
  expect(message(0)).toBe(
    'Invalid topology: suppress() is only supported for non-versioned KTables',
  );
  expect(reference[2]?.error).toBeUndefined();
}, 300_000);

it('suppress() below a transformValues of a versioned table: refused unless its own store is not versioned', async () => {
  const tv = (config: Record<string, unknown>) =>
    suppressed([
      { id: 'tv', kind: 'transformValues', config: { transformer: 'upperCase', ...config } },
    ]);
  const docs = [
    tv({}), // inherits the versioned semantics
    tv({ store: 'plain' }),
    tv({ store: 'own', versioned: { historyRetentionMs: 10 } }),
  ];
  const reference = await runOracle(
    docs.map((topology, i) => ({ name: `tv ${i}`, topology, describeOnly: true })),
  );
  const mine = docs.map((d) => {
    const result = validateTopology(d);
    return result.ok ? null : result.errors.map((e) => [e.path, e.code, e.message]);
  });
  const message = (i: number) => reference[i]?.error?.replace(/^TopologyException: /, '');
  expect(message(0)).toMatch(/might be inherited from upstream/);
  expect(reference[1]?.error).toBeUndefined();
  expect(mine).toEqual([
    [['nodes[2]', 'suppress_of_versioned_table', message(0)]],
    null,
    [['nodes[2]', 'suppress_of_versioned_table', message(2)]],
  ]);
}, 300_000);
