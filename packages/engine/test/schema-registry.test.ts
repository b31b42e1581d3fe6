// The registry Avro serde against a real schema registry: Apicurio Registry 2.6 (in-memory,
// tools/schema-registry) through its Confluent-compatible API. What it must do is what
// Confluent's KafkaAvroSerializer / KafkaAvroDeserializer do: the wire format (magic byte 0, the
// schema id big-endian, the Avro body), the subject each naming strategy picks, the
// auto.register.schemas / use.latest.version precedence, and writer → reader schema resolution.
import { startSchemaRegistry, type SchemaRegistry } from '@streamwright/schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeserializationError, SerializationError } from '../src/errors.js';
import { avroSerde, getSerde, registryAvroSerde } from '../src/serdes/index.js';

let registry: SchemaRegistry;
beforeAll(async () => {
  registry = await startSchemaRegistry();
}, 180_000);
afterAll(async () => {
  await registry?.stop();
});

const H = { 'content-type': 'application/vnd.schemaregistry.v1+json' };
async function rest(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(registry.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: H,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}
const register = async (subject: string, schema: unknown) =>
  (
    (await rest(`/subjects/${subject}/versions`, { schema: JSON.stringify(schema) })) as {
      id: number;
    }
  ).id;
const latestId = async (subject: string) =>
  ((await rest(`/subjects/${subject}/versions/latest`)) as { id: number }).id;

// Versions of one record, as services evolve it compatibly.
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
const idOf = (bytes: Uint8Array) => Buffer.from(bytes).readInt32BE(1);
const value = (topic: string) => ({ topic, isKey: false });

describe('registry Avro serde (Confluent wire format, real registry)', () => {
  it('registers under <topic>-value, frames magic byte + id, reads back', async () => {
    const serde = registryAvroSerde(orderV1, { url: registry.url });
    const bytes = serde.serialize({ id: 'o-1', amount: 42 }, value('orders'))!;
    const id = await latestId('orders-value');
    expect(bytes[0]).toBe(0);
    expect(idOf(bytes)).toBe(id);
    // The body is exactly the plain Avro encoding of the datum with that schema.
    expect(Buffer.from(bytes.subarray(5))).toEqual(
      Buffer.from(avroSerde(orderV1).serialize({ id: 'o-1', amount: 42 })!),
    );
    expect(serde.deserialize(bytes, value('orders'))).toEqual({ id: 'o-1', amount: 42 });
    // Keys go under <topic>-key; the registry answers the same id for the same schema text.
    const key = registryAvroSerde('string', { url: registry.url });
    const keyBytes = key.serialize('k-1', { topic: 'orders', isKey: true })!;
    expect(idOf(keyBytes)).toBe(await latestId('orders-key'));
    expect(key.deserialize(keyBytes, { topic: 'orders', isKey: true })).toBe('k-1');
    expect(serde.serialize(null, value('orders'))).toBeNull();
    expect(serde.deserialize(null, value('orders'))).toBeNull();
  });

  it('names subjects as RecordNameStrategy and TopicRecordNameStrategy do', async () => {
    const record = registryAvroSerde(orderV1, {
      url: registry.url,
      subjectNameStrategy: 'RecordNameStrategy',
    });
    const topicRecord = registryAvroSerde(orderV1, {
      url: registry.url,
      subjectNameStrategy: 'TopicRecordNameStrategy',
    });
    const a = record.serialize({ id: 'a', amount: 1 }, value('payments'))!;
    const b = topicRecord.serialize({ id: 'b', amount: 2 }, value('payments'))!;
    const subjects = (await rest('/subjects')) as string[];
    expect(subjects).toContain('com.acme.Order');
    expect(subjects).toContain('payments-com.acme.Order');
    expect(subjects).not.toContain('payments-value');
    expect(idOf(a)).toBe(await latestId('com.acme.Order'));
    expect(idOf(b)).toBe(await latestId('payments-com.acme.Order'));
    // RecordNameStrategy needs no topic (a store's serde); the topic strategies say why they do.
    expect(record.deserialize(record.serialize({ id: 'c', amount: 3 })!)).toEqual({
      id: 'c',
      amount: 3,
    });
    expect(() => topicRecord.serialize({ id: 'd', amount: 4 })).toThrow(
      /TopicRecordNameStrategy names subjects after the topic.*use RecordNameStrategy/,
    );
  });

  it('with auto.register.schemas false, writes only a schema the subject has', async () => {
    const serde = registryAvroSerde(orderV1, { url: registry.url, autoRegisterSchemas: false });
    expect(() => serde.serialize({ id: 'x', amount: 1 }, value('unregistered'))).toThrow(
      SerializationError,
    );
    expect(() => serde.serialize({ id: 'x', amount: 1 }, value('unregistered'))).toThrow(
      /subject unregistered-value \(auto\.register\.schemas is false.*HTTP 404/,
    );
    expect((await rest('/subjects')) as string[]).not.toContain('unregistered-value');
    const id = await register('preregistered-value', orderV1);
    const bytes = serde.serialize({ id: 'x', amount: 1 }, value('preregistered'))!;
    expect(idOf(bytes)).toBe(id);
  });

  it('with use.latest.version, writes with the subject’s latest schema', async () => {
    await register('evolving-value', orderV1);
    const v2 = await register('evolving-value', orderV2);
    const serde = registryAvroSerde(orderV1, {
      url: registry.url,
      autoRegisterSchemas: false,
      useLatestVersion: true,
    });
    const bytes = serde.serialize({ id: 'e', amount: 5 }, value('evolving'))!;
    expect(idOf(bytes)).toBe(v2);
    // Written with v2 (its default filled in), read back as v2 (the latest is the reader too).
    expect(serde.deserialize(bytes, value('evolving'))).toEqual({
      id: 'e',
      amount: 5,
      currency: 'EUR',
    });
    // auto.register.schemas wins over use.latest.version, as in Java's serializer.
    const auto = registryAvroSerde(orderV1, { url: registry.url, useLatestVersion: true });
    const written = auto.serialize({ id: 'f', amount: 6 }, value('evolving'))!;
    expect(idOf(written)).not.toBe(v2);
    expect(await rest(`/schemas/ids/${idOf(written)}`)).toMatchObject({
      schema: JSON.stringify(orderV1),
    });
  });

  it('resolves the writer schema to the reader schema, both ways', () => {
    const oldWriter = registryAvroSerde(orderV1, { url: registry.url });
    const newWriter = registryAvroSerde(orderV2, { url: registry.url });
    const oldBytes = oldWriter.serialize({ id: 'old', amount: 1 }, value('resolved'))!;
    const newBytes = newWriter.serialize(
      { id: 'new', amount: 2, currency: 'USD' },
      value('resolved'),
    )!;
    expect(idOf(oldBytes)).not.toBe(idOf(newBytes));
    // A newer reader fills the field the old writer lacked with its default…
    expect(newWriter.deserialize(oldBytes, value('resolved'))).toEqual({
      id: 'old',
      amount: 1,
      currency: 'EUR',
    });
    // …and an older reader skips the field it does not know.
    expect(oldWriter.deserialize(newBytes, value('resolved'))).toEqual({ id: 'new', amount: 2 });
    // An incompatible reader (a required field without default the writer lacks) is refused.
    const strict = registryAvroSerde(
      { ...orderV1, fields: [...orderV1.fields, { name: 'sku', type: 'string' }] },
      { url: registry.url },
    );
    expect(() => strict.deserialize(oldBytes, value('resolved'))).toThrow(
      /writer schema with id \d+ cannot be read as com\.acme\.Order/,
    );
  });

  it('refuses bytes that are not in the wire format, as Java does', () => {
    const serde = registryAvroSerde(orderV1, { url: registry.url });
    const plain = avroSerde(orderV1).serialize({ id: 'p', amount: 1 })!;
    expect(() => serde.deserialize(new Uint8Array([1, ...plain]), value('t'))).toThrow(
      /Unknown magic byte!/,
    );
    expect(() => serde.deserialize(new Uint8Array([0, 0, 0]), value('t'))).toThrow(
      DeserializationError,
    );
    expect(() => serde.deserialize(new Uint8Array([0, 0x7f, 0, 0, 9, 2]), value('t'))).toThrow(
      /fetching the writer schema with id 2130706441 failed: HTTP 404/,
    );
  });

  it('a topology serde spec with `registry` is this serde; a table store names its topic', () => {
    const spec = { type: 'avro' as const, schema: orderV1, registry: { url: registry.url } };
    const bound = getSerde(spec, value('table-topic'));
    const storeSerde = getSerde(JSON.parse(JSON.stringify(spec)) as typeof spec);
    const bytes = storeSerde.serialize({ id: 's', amount: 9 })!;
    expect(bound.deserialize(bytes)).toEqual({ id: 's', amount: 9 });
    expect(getSerde(spec, value('table-topic'))).toBe(bound);
  });

  it('keeps serving what it cached when the registry is gone; says so for the rest', async () => {
    const serde = registryAvroSerde(orderV2, { url: registry.url });
    const bytes = serde.serialize({ id: 'c', amount: 1, currency: 'CHF' }, value('cached'))!;
    expect(serde.deserialize(bytes, value('cached'))).toEqual({
      id: 'c',
      amount: 1,
      currency: 'CHF',
    });
    const url = registry.url;
    await registry.stop();
    expect(serde.serialize({ id: 'd', amount: 2, currency: 'CHF' }, value('cached'))).toEqual(
      serde.serialize({ id: 'd', amount: 2, currency: 'CHF' }, value('cached')),
    );
    expect(serde.deserialize(bytes, value('cached'))).toEqual({
      id: 'c',
      amount: 1,
      currency: 'CHF',
    });
    const fresh = registryAvroSerde(orderV2, { url });
    expect(() => fresh.serialize({ id: 'e', amount: 3 }, value('elsewhere'))).toThrow(
      new RegExp(
        `schema registry ${url}: registering a schema under subject elsewhere-value failed`,
      ),
    );
  });
});
