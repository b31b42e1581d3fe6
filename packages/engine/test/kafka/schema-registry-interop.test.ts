// Avro through a schema registry between Java and Streamwright on the real broker, with a real
// registry (Apicurio Registry 2.6, tools/schema-registry, Confluent-compatible API). Java side:
// Apache Avro's Java library frames values as Confluent's serializer does (magic byte 0, schema
// id) after registering its schema through the REST API, and Kafka's Java producer writes them
// (tools/java-peer AvroRegistryCodec + Interop). Half the orders are written with an older schema
// version, half with the newer one the application reads with (writer → reader resolution). The
// application's own output goes through the registry too, and Java reads it back: fetching each
// schema by the id in the record, resolving it to its own reader schema.
import { javaAvroDecode, javaAvroEncode, javaConsume, javaProduce } from '@streamwright/java-peer';
import { startSchemaRegistry, type SchemaRegistry } from '@streamwright/schema-registry';
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { kafkaBackend } from './kafka-fixtures.js';

let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await startSchemaRegistry();
}, 180_000);
afterAll(async () => {
  await registry?.stop();
});

const orderV1 = {
  type: 'record',
  name: 'Order',
  namespace: 'com.acme',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'long' },
  ],
};
const orderV2 = {
  ...orderV1,
  fields: [...orderV1.fields, { name: 'currency', type: 'string', default: 'EUR' }],
};
const seen = {
  type: 'record',
  name: 'OrderSeen',
  namespace: 'com.acme.out',
  fields: [
    { name: 'order', type: 'string' },
    { name: 'currency', type: 'string' },
    { name: 'amount', type: 'long' },
  ],
};
const bootstrap = () => inject('kafkaBootstrapServers');
const bytes = (s: string) => new TextEncoder().encode(s);

function topology(url: string): Topology {
  const registryAvro = (schema: unknown) => ({ type: 'avro', schema, registry: { url } });
  const doc = {
    schemaVersion: 1,
    application: {
      id: 'sr-interop',
      config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
    },
    topics: [
      { name: 'sr-orders', partitions: 1 },
      { name: 'sr-seen', partitions: 1 },
      { name: 'sr-latest', partitions: 1 },
    ],
    nodes: [
      // A table of the orders: its store keeps the Avro values (framed, under the subject of
      // the topic it reads); every update goes on as a stream.
      {
        id: 'latest',
        kind: 'table',
        config: {
          topic: 'sr-orders',
          keySerde: 'string',
          valueSerde: registryAvro(orderV2),
          store: 'latest-orders',
        },
      },
      { id: 'changes', kind: 'toStream', config: {} },
      {
        id: 'latestOut',
        kind: 'sink',
        config: { topic: 'sr-latest', keySerde: 'string', valueSerde: registryAvro(orderV2) },
      },
      {
        id: 'project',
        kind: 'mapValues',
        config: {
          expression: '{"order": value.id, "currency": value.currency, "amount": value.amount}',
        },
      },
      {
        id: 'seen',
        kind: 'sink',
        config: { topic: 'sr-seen', keySerde: 'string', valueSerde: registryAvro(seen) },
      },
    ],
    edges: [
      { from: 'latest', to: 'changes' },
      { from: 'changes', to: 'latestOut' },
      { from: 'changes', to: 'project' },
      { from: 'project', to: 'seen' },
    ],
  };
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe('Avro through the schema registry, Java ↔ Streamwright', () => {
  it('reads what Java wrote (old and new schema), writes what Java reads', async () => {
    const url = registry.url;
    // Java registers both versions under sr-orders-value and frames the orders.
    const old = await javaAvroEncode({
      registry: url,
      subject: 'sr-orders-value',
      schema: orderV1,
      datums: [
        { id: 'o-1', amount: 100 },
        { id: 'o-2', amount: 250 },
      ],
    });
    const current = await javaAvroEncode({
      registry: url,
      subject: 'sr-orders-value',
      schema: orderV2,
      datums: [
        { id: 'o-3', amount: 75, currency: 'USD' },
        { id: 'o-1', amount: 120, currency: 'CHF' },
      ],
    });
    expect(old[0]!.id).not.toBe(current[0]!.id);
    expect(old[0]!.bytes[0]).toBe(0);

    const backend = await kafkaBackend();
    const app = createStreamsApp({ topology: topology(url), backend, stateDir: tempStateDir() });
    try {
      await app.start();
      const keys = ['o-1', 'o-2', 'o-3', 'o-1'];
      await javaProduce({
        bootstrapServers: bootstrap(),
        topic: 'sr-orders',
        records: [...old, ...current].map((e, i) => ({
          key: bytes(keys[i]!),
          value: e.bytes,
          timestamp: 1_700_000_000_000 + i,
        })),
      });
      const [seenRecords, latestRecords] = await Promise.all([
        javaConsume({ bootstrapServers: bootstrap(), topic: 'sr-seen', count: 4 }),
        javaConsume({ bootstrapServers: bootstrap(), topic: 'sr-latest', count: 4 }),
      ]);

      // The projection, read by Java with the registry's schema for the id in each record.
      const projected = await javaAvroDecode({
        registry: url,
        values: seenRecords.map((r) => r.value!),
      });
      expect(projected.map((p) => p.value)).toEqual([
        { order: 'o-1', currency: 'EUR', amount: 100 },
        { order: 'o-2', currency: 'EUR', amount: 250 },
        { order: 'o-3', currency: 'USD', amount: 75 },
        { order: 'o-1', currency: 'CHF', amount: 120 },
      ]);
      // Registered by the application under the sink topic's subject (TopicNameStrategy).
      const subject = (await (
        await fetch(`${url}/subjects/sr-seen-value/versions/latest`)
      ).json()) as { id: number; schema: string };
      expect(new Set(projected.map((p) => p.id))).toEqual(new Set([subject.id]));
      expect(JSON.parse(subject.schema)).toEqual(seen);
      expect(seenRecords.map((r) => new TextDecoder().decode(r.key!))).toEqual(keys);

      // The table's changes, written with the new schema; an old Java reader drops the currency.
      const asOld = await javaAvroDecode({
        registry: url,
        values: latestRecords.map((r) => r.value!),
        readerSchema: orderV1,
      });
      expect(asOld.map((p) => p.value)).toEqual([
        { id: 'o-1', amount: 100 },
        { id: 'o-2', amount: 250 },
        { id: 'o-3', amount: 75 },
        { id: 'o-1', amount: 120 },
      ]);
      expect(asOld[0]!.id).toBe(current[0]!.id);
    } finally {
      await app.close();
      await backend.close();
    }
  });
});
