// transformValues nodes: the transformer is a registered name (checked when a registry is given),
// its connected stores must exist and not be global, and it takes a table only; the plan names it
// KTABLE-TRANSFORMVALUES-…, connects its stores, and gives joins reading it a getter step.
import { describe, expect, it } from 'vitest';
import { doc } from '../../test/support/dsl-scenarios.js';
import { planTopology, validateTopology, type ValidationIssue } from '../index.js';

type Nodes = Parameters<typeof doc>[1];

function errorsOf(
  input: unknown,
  options?: Parameters<typeof validateTopology>[1],
): [string, string, string][] {
  const result = validateTopology(input, options);
  if (result.ok) throw new Error('expected validation errors');
  return result.errors.map((e: ValidationIssue) => [e.code, e.path, e.message]);
}

const t = { id: 't', kind: 'table', config: { topic: 'in' } };
const counting = (config: Record<string, unknown>) => ({
  id: 'tv',
  kind: 'transformValues',
  config: { transformer: 'runningCount', ...config },
});
const stores = [{ name: 'calls', type: 'keyValue' as const }];

describe('validateTopology: transformValues', () => {
  it('checks the transformer against the registry given, at its path', () => {
    const d = doc('app', [t, counting({ stores: ['calls'] })], [{ from: 't', to: 'tv' }], {
      stores,
    });
    expect(validateTopology(d).ok).toBe(true);
    expect(validateTopology(d, { valueTransformers: ['runningCount'] }).ok).toBe(true);
    expect(errorsOf(d, { valueTransformers: ['upperCase'] })).toEqual([
      [
        'unknown_transformer',
        'nodes[1].config.transformer',
        'no value transformer "runningCount" is registered',
      ],
    ]);
  });

  it('refuses unknown and global connected stores, a bad name and a stream input', () => {
    const nodes: Nodes = [
      t,
      { id: 'g', kind: 'globalTable', config: { topic: 'countries', store: 'countries' } },
      counting({ stores: ['calls', 'nope', 'countries'] }),
      { id: 's', kind: 'source', config: { topic: 's' } },
      { id: 'bad', kind: 'transformValues', config: { transformer: 'has space' } },
    ];
    expect(
      errorsOf(
        doc(
          'app',
          nodes,
          [
            { from: 't', to: 'tv' },
            { from: 's', to: 'bad' },
          ],
          { stores },
        ),
      ).map(([code, path]) => [code, path]),
    ).toEqual([
      ['unknown_store', 'nodes[2].config.stores[1]'],
      ['invalid_config', 'nodes[2].config.stores[2]'],
      ['invalid_config', 'nodes[4].config.transformer'],
      ['flow_type_mismatch', 'edges[1].to'],
    ]);
  });

  it('plans KTABLE-TRANSFORMVALUES-… with its stores, materialized or read through a getter', () => {
    const nodes: Nodes = [
      t,
      counting({ stores: ['calls'], params: { store: 'calls' } }),
      { id: 'm', kind: 'transformValues', config: { transformer: 'upperCase', store: 'upper' } },
      { id: 's', kind: 'source', config: { topic: 's' } },
      { id: 'j', kind: 'streamTableJoin', config: { joiner: 'left' } },
      { id: 'out', kind: 'sink', config: { topic: 'out' } },
    ];
    const result = validateTopology(
      doc(
        'app',
        nodes,
        [
          { from: 't', to: 'tv' },
          { from: 'tv', to: 'm' },
          { from: 's', to: 'j', toPort: 'left' },
          { from: 'tv', to: 'j', toPort: 'right' },
          { from: 'j', to: 'out' },
        ],
        { stores },
      ),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const planned = planTopology(result.topology).subtopologies.flatMap((s) => s.nodes);
    const byOp = (op: string) => planned.filter((n) => n.op === op);
    expect(byOp('transformValues').map((n) => [n.name, n.stores])).toEqual([
      ['KTABLE-TRANSFORMVALUES-0000000003', ['calls']],
      ['KTABLE-TRANSFORMVALUES-0000000004', ['upper']],
    ]);
    // The join reads the table source's store (materialized for it) through the transformer.
    const join = byOp('streamTableJoin')[0]!;
    expect(join.stores).toEqual(['in-STATE-STORE-0000000000']);
    expect(join.tableGetter).toEqual([
      {
        op: 'transformValues',
        transformer: 'runningCount',
        params: { store: 'calls' },
        stores: ['calls'],
        node: 'KTABLE-TRANSFORMVALUES-0000000003',
      },
    ]);
  });
});
