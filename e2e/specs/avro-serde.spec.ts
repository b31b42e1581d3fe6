// The Avro serde in the designer's serde pickers (issue 21): chosen in a source's value serde
// select next to the built-in names, its schema edited and shown as JSON, checked as typed (a
// record without a name is refused under the field), and the schema registry's settings as
// typed fields (url, subject name strategy, auto-register, latest version); the exported document
// carries what was chosen.
import { test, expect } from '../support/fixtures.js';

const order = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double' },
  ],
};

test('an Avro value serde with its schema and a schema registry, chosen in the picker', async ({
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 90, y: 120 }, 'source1');
  await designer.configure('source1', { topic: 'e2e-avro-orders', valueSerde: 'avro' });
  const schema = designer.field('source1', 'valueSerde-schema');
  await expect(schema).toBeVisible();

  // checked as typed: a record needs a name
  await schema.fill(JSON.stringify({ type: 'record', fields: [] }));
  await expect(designer.field('source1', 'valueSerde-schema-error')).toBeVisible();
  await schema.fill(JSON.stringify(order, null, 2));
  await expect(designer.field('source1', 'valueSerde-schema-error')).toHaveCount(0);

  // the registry: off until enabled, then its settings as typed fields
  await designer.field('source1', 'valueSerde-registry-enabled').check();
  await designer.configure('source1', {
    'valueSerde-registry-url': 'http://127.0.0.1:8081/apis/ccompat/v7',
    'valueSerde-registry-subjectNameStrategy': 'RecordNameStrategy',
    'valueSerde-registry-useLatestVersion': 'true',
  });

  const exported = JSON.parse((await designer.exportJson()).text) as {
    nodes: { id: string; config: Record<string, unknown> }[];
  };
  expect(exported.nodes.find((n) => n.id === 'source1')?.config.valueSerde).toEqual({
    type: 'avro',
    schema: order,
    registry: {
      url: 'http://127.0.0.1:8081/apis/ccompat/v7',
      subjectNameStrategy: 'RecordNameStrategy',
      useLatestVersion: true,
    },
  });

  // the schema stays shown when the node is selected again
  await designer.select('source1');
  await expect(schema).toHaveValue(/"name": "Order"/);
});
