import { describe, expect, it } from 'vitest';
import {
  checkAvroSchema,
  exportTopology,
  importTopology,
  planTopology,
  serdeLabel,
  validateTopology,
  type Topology,
  type TopologyDocumentInput,
} from '../index.js';

const order = {
  type: 'record',
  name: 'Order',
  namespace: 'com.acme',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'long', default: 0 },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID'] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'previous', type: ['null', 'Status'], default: null },
  ],
};

function doc(valueSerde: unknown, keySerde: unknown = 'string'): TopologyDocumentInput {
  return {
    schemaVersion: 1,
    application: { id: 'avro-app' },
    topics: [
      { name: 'orders', partitions: 1 },
      { name: 'out', partitions: 1 },
    ],
    nodes: [
      { id: 'in', kind: 'source', config: { topic: 'orders', keySerde, valueSerde } },
      { id: 'out', kind: 'sink', config: { topic: 'out', valueSerde } },
    ],
    edges: [{ from: 'in', to: 'out' }],
  } as TopologyDocumentInput;
}

function valid(input: unknown): Topology {
  const result = validateTopology(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe('Avro serdes in the document', () => {
  it('accepts {type: "avro", schema} wherever a serde name is accepted, and plans it', () => {
    const topology = valid(doc({ type: 'avro', schema: order }, { type: 'avro', schema: 'long' }));
    const source = planTopology(topology).subtopologies[0]?.nodes[0];
    expect(source?.valueSerde).toEqual({ type: 'avro', schema: order });
    expect(source?.keySerde).toEqual({ type: 'avro', schema: 'long' });
    expect(
      serdeLabel({ type: 'avro', schema: { type: 'record', name: 'Order', fields: [] } }),
    ).toBe('avro:Order');
    expect(serdeLabel('long')).toBe('long');
  });

  it('reports a broken schema with the path of the offending part', () => {
    const broken = {
      type: 'record',
      fields: [
        { name: 'id' },
        { name: 'kind', type: { type: 'enum', name: 'K', symbols: ['A', 'A'] } },
      ],
    };
    const result = validateTopology(doc({ type: 'avro', schema: broken }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => [e.path, e.code, e.nodeId])).toEqual([
      ['nodes[0].config.valueSerde.schema.name', 'invalid_config', 'in'],
      ['nodes[0].config.valueSerde.schema.fields[0].type', 'invalid_config', 'in'],
      ['nodes[0].config.valueSerde.schema.fields[1].type.symbols[1]', 'invalid_config', 'in'],
      ['nodes[1].config.valueSerde.schema.name', 'invalid_config', 'out'],
      ['nodes[1].config.valueSerde.schema.fields[0].type', 'invalid_config', 'out'],
      ['nodes[1].config.valueSerde.schema.fields[1].type.symbols[1]', 'invalid_config', 'out'],
    ]);
    expect(result.errors[0]?.message).toMatch(/a record type needs "name"/);
    expect(result.errors[1]?.message).toBe('a field needs "type"');
  });

  it('refuses other object serdes and unknown names with one clear message', () => {
    for (const [serde, message] of [
      [{ type: 'protobuf' }, 'an object serde is {"type": "avro", "schema": <Avro schema>}'],
      [
        'avro',
        'a serde is one of string, json, bytes, long, integer, double or {"type": "avro", "schema": …}',
      ],
    ] as const) {
      const result = validateTopology(doc(serde));
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.errors[0]).toMatchObject({ path: 'nodes[0].config.valueSerde', message });
    }
  });

  it('checks the shape rules of the Avro specification', () => {
    const paths = (schema: unknown): string[] =>
      checkAvroSchema(schema).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(checkAvroSchema(order)).toEqual([]);
    expect(checkAvroSchema(['null', 'string', { type: 'map', values: 'long' }])).toEqual([]);
    expect(checkAvroSchema({ type: 'fixed', name: 'md5', size: 16 })).toEqual([]);
    expect(checkAvroSchema({ type: 'string', logicalType: 'uuid' })).toEqual([]);
    // A reference resolves against the enclosing namespace, or by full name.
    expect(
      checkAvroSchema({
        type: 'record',
        name: 'a.b.Outer',
        fields: [
          { name: 'x', type: { type: 'fixed', name: 'Hash', size: 4 } },
          { name: 'y', type: 'Hash' },
          { name: 'z', type: 'a.b.Hash' },
        ],
      }),
    ).toEqual([]);
    expect(paths('Order')).toEqual([
      ': "Order" is neither an Avro primitive type (null, boolean, int, long, float, double, bytes, string) nor a named type defined before it',
    ]);
    expect(paths({ name: 'X' })).toEqual([': an Avro schema object needs "type"']);
    expect(paths(42)).toEqual([
      ': an Avro schema is a type name, a union (array) or an object with "type", got number',
    ]);
    expect(paths({ type: 'array' })).toEqual(['items: an array type needs "items"']);
    expect(paths({ type: 'map', values: 'lng' })[0]).toMatch(/^values: "lng" is neither/);
    expect(paths({ type: 'fixed', name: 'F', size: -1 })).toEqual([
      'size: a fixed type needs "size", a non-negative integer',
    ]);
    expect(paths(['null', 'null'])).toEqual(['1: a union may hold "null" only once']);
    expect(paths(['null', ['string']])).toEqual([
      '1: a union may not directly contain another union',
    ]);
    expect(
      paths({
        type: 'record',
        name: 'R',
        fields: [
          { name: 'a', type: 'int' },
          { name: 'a', type: 'int' },
        ],
      }),
    ).toEqual(['fields.1.name: the field "a" is defined twice']);
    expect(paths({ type: 'record', name: 'R', fields: [{ name: '1a', type: 'int' }] })).toEqual([
      'fields.0.name: a field needs "name", an Avro name ([A-Za-z_][A-Za-z0-9_]*)',
    ]);
    expect(paths({ type: 'enum', name: 'E' })).toEqual([
      'symbols: an enum type needs "symbols", a list of names',
    ]);
    expect(paths({ type: 'record', name: 'int', fields: [] })).toEqual([
      'name: "int" is a primitive type name',
    ]);
  });

  it('exports canonically: schema keys in Avro canonical order, stable through re-import', () => {
    const shuffled = {
      fields: [{ type: 'string', name: 'id', doc: 'the id' }],
      namespace: 'com.acme',
      type: 'record',
      name: 'Order',
    };
    const topology = valid({
      ...doc({ type: 'avro', schema: shuffled }),
      stores: [{ name: 's', valueSerde: { schema: shuffled, type: 'avro' } }],
    });
    const text = exportTopology(topology);
    const expected = {
      type: 'avro',
      schema: {
        name: 'Order',
        namespace: 'com.acme',
        type: 'record',
        fields: [{ name: 'id', type: 'string', doc: 'the id' }],
      },
    };
    const exported = JSON.parse(text) as {
      nodes: { config: { valueSerde: unknown } }[];
      stores: { valueSerde: unknown }[];
    };
    expect(JSON.stringify(exported.nodes[0]?.config.valueSerde)).toBe(JSON.stringify(expected));
    expect(JSON.stringify(exported.stores[0]?.valueSerde)).toBe(JSON.stringify(expected));
    const again = importTopology(text);
    expect(again.ok).toBe(true);
    if (again.ok) expect(exportTopology(again.topology)).toBe(text);
  });
});
