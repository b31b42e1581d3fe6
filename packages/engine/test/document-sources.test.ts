// Topology-document features of sources and serdes that the DSL already had in TypeScript:
// Avro serdes named in the document.
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { avroSerde } from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

function valid(doc: unknown): Topology {
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

const orderSchema = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'long' },
  ],
};

describe('Avro serdes in topology JSON', () => {
  it('decodes Avro at the source, filters on its fields with CEL and encodes Avro at the sink', () => {
    const avro = { type: 'avro', schema: orderSchema };
    const topology = valid({
      schemaVersion: 1,
      application: { id: 'avro-doc' },
      topics: [
        { name: 'orders', partitions: 1 },
        { name: 'large', partitions: 1 },
      ],
      nodes: [
        { id: 'in', kind: 'source', config: { topic: 'orders', valueSerde: avro } },
        { id: 'f', kind: 'filter', config: { expression: 'value.amount > 10' } },
        { id: 'out', kind: 'sink', config: { topic: 'large', valueSerde: avro } },
      ],
      edges: [
        { from: 'in', to: 'f' },
        { from: 'f', to: 'out' },
      ],
    });
    const driver = createTestDriver(topology);
    const serde = avroSerde(orderSchema);
    // Bytes as a Java producer with the same writer schema would write them.
    driver.pipeRawInput('orders', new TextEncoder().encode('k1'), serde.serialize({ id: 'a', amount: 5 }), 1);
    driver.pipeRawInput('orders', new TextEncoder().encode('k2'), serde.serialize({ id: 'b', amount: 50 }), 2);
    expect(driver.readOutput('large').map((r) => [r.key, r.value, r.timestamp])).toEqual([['k2', { id: 'b', amount: 50 }, 2]]);
    driver.close();
  });
});
