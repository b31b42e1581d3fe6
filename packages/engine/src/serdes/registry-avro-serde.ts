// Avro through a schema registry, in Confluent's wire format: a 0 magic byte, the writer schema's
// registry id as a 4-byte big-endian integer, then the Avro binary encoding of the datum. What
// Confluent's KafkaAvroSerializer / KafkaAvroDeserializer do, with their settings:
// - the subject a schema lives under follows `subjectNameStrategy` (key.subject.name.strategy /
//   value.subject.name.strategy): TopicNameStrategy `<topic>-key|value`, RecordNameStrategy the
//   record's full name, TopicRecordNameStrategy `<topic>-<full name>`;
// - serializing registers the schema under its subject (`autoRegisterSchemas`,
//   auto.register.schemas, default true), else writes with the subject's latest version
//   (`useLatestVersion`, use.latest.version), else looks the schema's id up and fails when the
//   subject does not have it (Java's precedence of the three);
// - deserializing fetches the writer schema by the record's id and resolves it to the reader
//   schema (the serde's schema, or the subject's latest version with `useLatestVersion`) by
//   Avro's schema resolution, so records written with an older or newer compatible schema read.
import { Buffer } from 'node:buffer';
import type avroTypes from 'avsc';
import { DeserializationError, SerializationError } from '../errors.js';
import { avro, checkAvroValue, plainAvroValue, type AvroSchema } from './avro-serde.js';
import { schemaRegistryClient, type SchemaRegistryClient } from './schema-registry-client.js';
import type { Serde, SerdeContext } from './serde.js';

export type SubjectNameStrategy =
  'TopicNameStrategy' | 'RecordNameStrategy' | 'TopicRecordNameStrategy';

export interface SchemaRegistrySettings {
  /** The registry's base URL (several separated by commas), e.g. Apicurio's `…/apis/ccompat/v7`. */
  url: string;
  /** Default `TopicNameStrategy`. */
  subjectNameStrategy?: SubjectNameStrategy;
  /** auto.register.schemas; default true. */
  autoRegisterSchemas?: boolean;
  /** use.latest.version; default false. */
  useLatestVersion?: boolean;
}

const NAME = 'avro (schema registry)';
const MAGIC = 0;

/** The subject a schema goes under, as Confluent's strategy of that name picks it. */
export function subjectName(
  strategy: SubjectNameStrategy,
  context: SerdeContext | undefined,
  recordName: string,
): string {
  if (strategy === 'RecordNameStrategy') return recordName;
  if (context === undefined)
    throw new Error(
      `the ${strategy} names subjects after the topic, and this serde is used where there is none (a store or buffer); use RecordNameStrategy there`,
    );
  return strategy === 'TopicNameStrategy'
    ? `${context.topic}-${context.isKey ? 'key' : 'value'}`
    : `${context.topic}-${recordName}`;
}

export function registryAvroSerde<T = unknown>(
  schema: AvroSchema,
  settings: SchemaRegistrySettings,
  /** Used when a call brings no context: a node's topic, or where to find one when called. */
  defaultContext?: SerdeContext | (() => SerdeContext | undefined),
): Serde<T> {
  const fallback = (): SerdeContext | undefined =>
    typeof defaultContext === 'function' ? defaultContext() : defaultContext;
  let readerType: avroTypes.Type;
  try {
    readerType = avro().Type.forSchema(schema as avroTypes.Schema);
  } catch (error) {
    throw new SerializationError(NAME, `invalid Avro schema: ${(error as Error).message}`, error);
  }
  // The schema as registered: the JSON as written (avsc's own export would drop field defaults).
  const schemaText = JSON.stringify(schema);
  const recordName = readerType.name ?? readerType.typeName;
  const strategy = settings.subjectNameStrategy ?? 'TopicNameStrategy';
  const autoRegister = settings.autoRegisterSchemas ?? true;
  const useLatest = settings.useLatestVersion ?? false;
  let client: SchemaRegistryClient | null = null;
  const registry = () => (client ??= schemaRegistryClient(settings.url));

  // Per subject: the id and type records are written with (after the first, no registry call).
  const writers = new Map<string, { id: number; type: avroTypes.Type }>();
  // Per writer id (and reader subject): how to read it.
  const readers = new Map<string, { type: avroTypes.Type; resolver?: avroTypes.Resolver }>();
  const types = new Map<number, avroTypes.Type>();
  const typeOf = (id: number): avroTypes.Type => {
    let type = types.get(id);
    if (type === undefined) {
      const text = registry().schemaById(id);
      type = avro().Type.forSchema(JSON.parse(text) as avroTypes.Schema);
      types.set(id, type);
    }
    return type;
  };

  const writerFor = (context: SerdeContext | undefined) => {
    const subject = subjectName(strategy, context ?? fallback(), recordName);
    let writer = writers.get(subject);
    if (writer === undefined) {
      if (!autoRegister && useLatest) {
        const latest = registry().latest(subject);
        writer = { id: latest.id, type: typeOf(latest.id) };
      } else {
        writer = { id: registry().idOf(subject, schemaText, autoRegister), type: readerType };
      }
      writers.set(subject, writer);
    }
    return writer;
  };

  const readerFor = (id: number, context: SerdeContext | undefined) => {
    const ctx = context ?? fallback();
    const subject = useLatest && ctx !== undefined ? subjectName(strategy, ctx, recordName) : '';
    const cacheKey = `${id}\u0000${subject}`;
    let reader = readers.get(cacheKey);
    if (reader === undefined) {
      const writerType = typeOf(id);
      const type = subject === '' ? readerType : typeOf(registry().latest(subject).id);
      let resolver: avroTypes.Resolver | undefined;
      if (!type.equals(writerType)) {
        try {
          resolver = type.createResolver(writerType);
        } catch (error) {
          throw new DeserializationError(
            NAME,
            `the writer schema with id ${id} cannot be read as ${type.name ?? type.typeName}: ${(error as Error).message}`,
            error,
          );
        }
      }
      readers.set(cacheKey, (reader = { type, resolver }));
    }
    return reader;
  };

  return {
    name: 'avro',
    serialize(value, context) {
      if (value === null || value === undefined) return null;
      let writer;
      try {
        writer = writerFor(context);
      } catch (error) {
        if (error instanceof SerializationError) throw error;
        throw new SerializationError(NAME, (error as Error).message, error);
      }
      checkAvroValue(NAME, writer.type, value);
      const body = writer.type.toBuffer(value);
      const out = new Uint8Array(5 + body.length);
      out[0] = MAGIC;
      new DataView(out.buffer).setInt32(1, writer.id);
      out.set(body, 5);
      return out;
    },
    deserialize(bytes, context) {
      if (bytes === null) return null;
      // Java's messages for a record that is not in the wire format.
      if (bytes.byteLength > 0 && bytes[0] !== MAGIC)
        throw new DeserializationError(NAME, `Unknown magic byte! (${bytes[0]})`);
      if (bytes.byteLength < 5)
        throw new DeserializationError(
          NAME,
          `${bytes.byteLength} bytes are too few for the magic byte and schema id`,
        );
      const id = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(1);
      try {
        const reader = readerFor(id, context);
        const body = Buffer.from(bytes.buffer, bytes.byteOffset + 5, bytes.byteLength - 5);
        return plainAvroValue(reader.type.fromBuffer(body, reader.resolver)) as T;
      } catch (error) {
        if (error instanceof DeserializationError) throw error;
        throw new DeserializationError(
          NAME,
          `record with schema id ${id}: ${(error as Error).message}`,
          error,
        );
      }
    },
  };
}
