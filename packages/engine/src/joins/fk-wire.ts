// The foreign-key join's wire formats, byte for byte as Kafka Streams 4.1 writes them
// (kstream/internals/foreignkeyjoin), so the internal topics and the subscription store's
// changelog interoperate with Kafka and carry any serde's bytes:
// - SubscriptionWrapperSerde (registration topic, subscription store values), version 1:
//   {1 bit hash-is-null, 7 bits version}{instruction byte}{16-byte hash, if any}{primary key bytes}
//   {int32 primary partition}; version 0 has no partition.
// - SubscriptionResponseWrapperSerde (response topic), version 0:
//   {1 bit hash-is-null, 7 bits version}{16-byte hash, if any}{foreign value bytes, if any}.
//   The primary partition travels with the object only (it picks the response's partition).
// - CombinedKeySchema (subscription store keys): {int32 foreign key length}{fk bytes}{pk bytes};
//   the prefix of a foreign key is the first two parts.
import { DeserializationError, SerializationError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';

/** SubscriptionWrapper.Instruction, with its byte value. */
export const INSTRUCTIONS = {
  DELETE_KEY_NO_PROPAGATE: 0,
  DELETE_KEY_AND_PROPAGATE: 1,
  PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE: 2,
  PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE: 3,
} as const;
export type Instruction = keyof typeof INSTRUCTIONS;
const INSTRUCTION_OF_BYTE = Object.keys(INSTRUCTIONS) as Instruction[];

/** SubscriptionWrapper.CURRENT_VERSION in Kafka Streams 4.1. */
export const SUBSCRIPTION_VERSION = 1;
/** SubscriptionResponseWrapper.CURRENT_VERSION in Kafka Streams 4.1. */
export const RESPONSE_VERSION = 0;

/** What the registration topic carries, keyed by the foreign key. */
export interface Subscription {
  /** Murmur3 128 of the left value's bytes (16 bytes), null for a deleted left value. */
  hash: Uint8Array | null;
  instruction: Instruction;
  primaryKey: unknown;
  /** The left record's partition (version ≥ 1): where the response goes back to. */
  primaryPartition: number | null;
  version: number;
}

/** What the response topic carries, keyed by the left key. */
export interface SubscriptionResponse {
  hash: Uint8Array | null;
  foreignValue: unknown;
  /** Not serialized: the partition the response sink sends to (Kafka's primaryPartition). */
  primaryPartition: number | null;
  version: number;
}

const NAME = 'SubscriptionWrapper';
const RESPONSE_NAME = 'SubscriptionResponseWrapper';

/** The subscription wrapper's bytes around already-serialized primary key bytes. */
export function encodeSubscription(
  s: Omit<Subscription, 'primaryKey'>,
  primaryKeyBytes: Uint8Array,
): Uint8Array {
  if (s.version !== 0 && s.version !== 1)
    throw new SerializationError(NAME, `unsupported SubscriptionWrapper version ${s.version}`);
  if (s.hash !== null && s.hash.length !== 16)
    throw new SerializationError(NAME, `the hash must have 16 bytes, got ${s.hash.length}`);
  const hashLength = s.hash === null ? 0 : 16;
  const partitionLength = s.version >= 1 ? 4 : 0;
  const out = new Uint8Array(2 + hashLength + primaryKeyBytes.length + partitionLength);
  out[0] = s.hash === null ? s.version | 0x80 : s.version;
  out[1] = INSTRUCTIONS[s.instruction];
  if (s.hash !== null) out.set(s.hash, 2);
  out.set(primaryKeyBytes, 2 + hashLength);
  if (partitionLength > 0) {
    if (s.primaryPartition === null)
      throw new SerializationError(NAME, 'a version 1 subscription needs its primary partition');
    new DataView(out.buffer).setInt32(out.length - 4, s.primaryPartition, false);
  }
  return out;
}

export interface DecodedSubscription extends Omit<Subscription, 'primaryKey'> {
  primaryKeyBytes: Uint8Array;
}

export function decodeSubscription(bytes: Uint8Array): DecodedSubscription {
  if (bytes.length < 2)
    throw new DeserializationError(NAME, `${bytes.length} bytes are too short for a subscription`);
  const version = bytes[0]! & 0x7f;
  const hashNull = (bytes[0]! & 0x80) !== 0;
  const instruction = INSTRUCTION_OF_BYTE[bytes[1]!];
  if (instruction === undefined)
    throw new DeserializationError(NAME, `Unknown instruction byte value = ${bytes[1]}`);
  const hashLength = hashNull ? 0 : 16;
  const partitionLength = version > 0 ? 4 : 0;
  const pkLength = bytes.length - 2 - hashLength - partitionLength;
  if (pkLength < 0)
    throw new DeserializationError(NAME, `${bytes.length} bytes are too short for a subscription`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    version,
    instruction,
    hash: hashNull ? null : bytes.slice(2, 18),
    primaryKeyBytes: bytes.subarray(2 + hashLength, 2 + hashLength + pkLength),
    primaryPartition: version > 0 ? view.getInt32(bytes.length - 4, false) : null,
  };
}

/** SubscriptionWrapperSerde over the left table's key serde. */
export function subscriptionWrapperSerde(primaryKeySerde: Serde<unknown>): Serde<Subscription> {
  return {
    name: `subscription<${primaryKeySerde.name}>`,
    serialize(s) {
      if (s === null || s === undefined) return null;
      const pk = primaryKeySerde.serialize(s.primaryKey);
      if (pk === null) throw new SerializationError(NAME, 'the primary key cannot be null');
      return encodeSubscription(s, pk);
    },
    deserialize(bytes) {
      if (bytes === null) return null;
      const { primaryKeyBytes, ...rest } = decodeSubscription(bytes);
      return { ...rest, primaryKey: primaryKeySerde.deserialize(primaryKeyBytes) };
    },
  };
}

export function encodeResponse(
  hash: Uint8Array | null,
  foreignValue: Uint8Array | null,
): Uint8Array {
  const hashLength = hash === null ? 0 : 16;
  const out = new Uint8Array(1 + hashLength + (foreignValue?.length ?? 0));
  out[0] = hash === null ? RESPONSE_VERSION | 0x80 : RESPONSE_VERSION;
  if (hash !== null) out.set(hash, 1);
  if (foreignValue !== null) out.set(foreignValue, 1 + hashLength);
  return out;
}

/** SubscriptionResponseWrapperSerde over the right table's value serde. */
export function responseWrapperSerde(
  foreignValueSerde: Serde<unknown>,
): Serde<SubscriptionResponse> {
  return {
    name: `subscription-response<${foreignValueSerde.name}>`,
    serialize(r) {
      if (r === null || r === undefined) return null;
      if (r.hash !== null && r.hash.length !== 16)
        throw new SerializationError(
          RESPONSE_NAME,
          `the hash must have 16 bytes, got ${r.hash.length}`,
        );
      const value =
        r.foreignValue === null || r.foreignValue === undefined
          ? null
          : foreignValueSerde.serialize(r.foreignValue);
      return encodeResponse(r.hash, value);
    },
    deserialize(bytes) {
      if (bytes === null) return null;
      if (bytes.length < 1)
        throw new DeserializationError(RESPONSE_NAME, 'an empty response wrapper');
      const version = bytes[0]! & 0x7f;
      const hashNull = (bytes[0]! & 0x80) !== 0;
      const start = hashNull ? 1 : 17;
      if (bytes.length < start)
        throw new DeserializationError(RESPONSE_NAME, `${bytes.length} bytes are too short`);
      return {
        version,
        hash: hashNull ? null : bytes.slice(1, 17),
        foreignValue:
          bytes.length > start ? foreignValueSerde.deserialize(bytes.subarray(start)) : null,
        primaryPartition: null,
      };
    },
  };
}

/** CombinedKeySchema#prefixBytes: {int32 fk length}{fk bytes}. */
export function combinedKeyPrefix(foreignKey: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + foreignKey.length);
  new DataView(out.buffer).setInt32(0, foreignKey.length, false);
  out.set(foreignKey, 4);
  return out;
}

/** CombinedKeySchema#toBytes: {int32 fk length}{fk bytes}{pk bytes}. */
export function combinedKey(foreignKey: Uint8Array, primaryKey: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + foreignKey.length + primaryKey.length);
  new DataView(out.buffer).setInt32(0, foreignKey.length, false);
  out.set(foreignKey, 4);
  out.set(primaryKey, 4 + foreignKey.length);
  return out;
}

/** CombinedKeySchema#fromBytes, as bytes: the foreign key's and the primary key's. */
export function splitCombinedKey(bytes: Uint8Array): {
  foreignKey: Uint8Array;
  primaryKey: Uint8Array;
} {
  if (bytes.length < 4)
    throw new DeserializationError('CombinedKey', `${bytes.length} bytes are too short`);
  const fkLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(
    0,
    false,
  );
  if (fkLength < 0 || fkLength > bytes.length - 4)
    throw new DeserializationError('CombinedKey', `foreign key length ${fkLength} exceeds the key`);
  return {
    foreignKey: bytes.subarray(4, 4 + fkLength),
    primaryKey: bytes.subarray(4 + fkLength),
  };
}

export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
