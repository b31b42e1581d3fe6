// The foreign-key table–table join, after Kafka Streams' foreignkeyjoin package (4.1):
// SubscriptionSend (left side: registers the left key under its foreign key, with a hash of the
// left value), SubscriptionReceive + SubscriptionJoin (right side: keeps the subscriptions and
// answers each with the current right value), ForeignTableJoin (right side: a right update
// answers every subscription of its key) and ResponseJoin (left side: joins a response only if
// the left value still hashes the same, so stale responses are dropped).
import { createHash } from 'node:crypto';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { Change, isNullish, type EngineRecord } from '../processor/record.js';
import type { Serde } from '../serdes/serde.js';
import type { KeyValueStore } from '../state/key-value-store.js';

/** SubscriptionWrapper.Instruction. */
export type Instruction =
  | 'DELETE_KEY_NO_PROPAGATE'
  | 'DELETE_KEY_AND_PROPAGATE'
  | 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE'
  | 'PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE';

/** What the registration topic carries (JSON), keyed by the foreign key. */
export interface Subscription {
  hash: string | null;
  instruction: Instruction;
  primaryKey: unknown;
  primaryPartition: number;
}

/** What the response topic carries (JSON), keyed by the left key. */
export interface SubscriptionResponse {
  hash: string | null;
  foreignValue: unknown;
  primaryPartition: number;
}

type Bytes = Uint8Array | null;

function sameBytes(a: Bytes, b: Bytes): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The left value's identity: a 128-bit digest of its bytes (Kafka uses Murmur3 128). */
export function valueHash(serde: Serde<unknown>, value: unknown): string | null {
  if (isNullish(value)) return null;
  const bytes = serde.serialize(value);
  if (bytes === null) return null;
  return createHash('md5').update(bytes).digest('base64');
}

function changeOf(record: EngineRecord): Change {
  return record.value instanceof Change ? record.value : new Change(record.value, null);
}

/** SubscriptionSendProcessorSupplier: the left table's changes become subscription instructions. */
export function subscriptionSendProcessor(
  ctx: ProcessorContext,
  options: {
    leftJoin: boolean;
    extractor: (key: unknown, value: unknown) => unknown;
    foreignKeySerde: Serde<unknown>;
    valueSerde: Serde<unknown>;
  },
): Processor {
  const { leftJoin, extractor } = options;
  const fkBytes = (fk: unknown): Bytes =>
    isNullish(fk) ? null : options.foreignKeySerde.serialize(fk);
  const dropNullForeignKey = (): void => {
    ctx.taskMetrics.droppedRecordsTotal++;
  };
  return {
    process(record: EngineRecord) {
      const change = changeOf(record);
      let hash: string | null | undefined;
      const send = (foreignKey: unknown, instruction: Instruction): void => {
        hash ??= valueHash(options.valueSerde, change.newValue);
        const value: Subscription = {
          hash,
          instruction,
          primaryKey: record.key,
          primaryPartition: ctx.partition,
        };
        ctx.forward({ ...record, key: foreignKey ?? null, value });
      };
      const oldValue = change.oldValue;
      const newValue = change.newValue;
      // Kafka Streams 4.1's instructions: an FK change unsubscribes the old key silently and
      // subscribes the new one; losing the FK deletes (inner) or joins with null (left).
      if (leftJoin) {
        if (!isNullish(oldValue)) {
          const oldFk = extractor(record.key, oldValue);
          const newFk = isNullish(newValue) ? null : extractor(record.key, newValue);
          if (!isNullish(oldFk) && !sameBytes(fkBytes(newFk), fkBytes(oldFk)))
            send(oldFk, 'DELETE_KEY_NO_PROPAGATE');
          send(newFk, 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE');
        } else if (!isNullish(newValue)) {
          send(extractor(record.key, newValue), 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE');
        }
        return;
      }
      if (!isNullish(oldValue)) {
        const oldFk = extractor(record.key, oldValue);
        const newFk = isNullish(newValue) ? null : extractor(record.key, newValue);
        if (isNullish(oldFk) && isNullish(newFk)) dropNullForeignKey();
        else if (isNullish(oldFk)) send(newFk, 'PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE');
        else if (isNullish(newFk)) send(oldFk, 'DELETE_KEY_AND_PROPAGATE');
        else if (!sameBytes(fkBytes(newFk), fkBytes(oldFk))) {
          send(oldFk, 'DELETE_KEY_NO_PROPAGATE');
          send(newFk, 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE');
        } else send(newFk, 'PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE');
      } else if (!isNullish(newValue)) {
        const newFk = extractor(record.key, newValue);
        if (isNullish(newFk)) dropNullForeignKey();
        else send(newFk, 'PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE');
      }
    },
  };
}

/** The subscription store's key: Kafka's CombinedKey (foreign key, primary key). */
type CombinedKey = [unknown, unknown];

/**
 * SubscriptionReceiveProcessorSupplier + SubscriptionJoinProcessorSupplier (two processors in
 * Kafka's graph, one function each here): the receive side stores or deletes the subscription,
 * the join side answers it with the right table's current value.
 */
export function subscriptionReceiveProcessor(
  ctx: ProcessorContext,
  store: () => KeyValueStore,
): Processor {
  return {
    process(record: EngineRecord) {
      const wrapper = record.value as Subscription;
      const nullKey = isNullish(record.key);
      if (nullKey && wrapper.instruction !== 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE') {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const key: CombinedKey = [nullKey ? null : record.key, wrapper.primaryKey];
      if (!nullKey) {
        const s = store();
        if (
          wrapper.instruction === 'DELETE_KEY_AND_PROPAGATE' ||
          wrapper.instruction === 'DELETE_KEY_NO_PROPAGATE'
        )
          s.delete(key);
        else s.put(key, wrapper, record.timestamp);
      }
      ctx.forward({ ...record, key, value: wrapper });
    },
  };
}

export function subscriptionJoinProcessor(
  ctx: ProcessorContext,
  foreign: () => KeyValueStore | undefined,
): Processor {
  return {
    process(record: EngineRecord) {
      const [foreignKey, primaryKey] = record.key as CombinedKey;
      const wrapper = record.value as Subscription;
      const other = isNullish(foreignKey) ? undefined : foreign()?.get(foreignKey);
      const timestamp =
        other === undefined ? record.timestamp : Math.max(record.timestamp, other.timestamp);
      const respond = (foreignValue: unknown): void => {
        const value: SubscriptionResponse = {
          hash: wrapper.hash,
          foreignValue: foreignValue ?? null,
          primaryPartition: wrapper.primaryPartition,
        };
        ctx.forward({ ...record, key: primaryKey, value, timestamp });
      };
      switch (wrapper.instruction) {
        case 'DELETE_KEY_AND_PROPAGATE':
          respond(null);
          break;
        case 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE':
          respond(other?.value ?? null);
          break;
        case 'PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE':
          if (other !== undefined) respond(other.value);
          break;
        case 'DELETE_KEY_NO_PROPAGATE':
          break;
      }
    },
  };
}

/**
 * ForeignTableJoinProcessorSupplier: a right-table change answers every subscription of its key,
 * in the order of the left keys' bytes (Kafka scans the store by the foreign-key prefix).
 */
export function foreignTableJoinProcessor(
  ctx: ProcessorContext,
  options: {
    store: () => KeyValueStore;
    foreignKeySerde: Serde<unknown>;
    primaryKeySerde: Serde<unknown>;
  },
): Processor {
  return {
    process(record: EngineRecord) {
      if (isNullish(record.key)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const change = changeOf(record);
      const fk = options.foreignKeySerde.serialize(record.key);
      const matches = options
        .store()
        .all()
        .filter((e) => sameBytes(options.foreignKeySerde.serialize((e.key as CombinedKey)[0]), fk))
        .map((e) => ({
          pk: (e.key as CombinedKey)[1],
          bytes: options.primaryKeySerde.serialize((e.key as CombinedKey)[1]) ?? new Uint8Array(),
          wrapper: e.value as Subscription,
        }))
        .sort((a, b) => compareBytes(a.bytes, b.bytes));
      for (const m of matches) {
        const value: SubscriptionResponse = {
          hash: m.wrapper.hash,
          foreignValue: change.newValue ?? null,
          primaryPartition: m.wrapper.primaryPartition,
        };
        ctx.forward({ ...record, key: m.pk, value });
      }
    },
  };
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * ResponseJoinProcessorSupplier: joins a response with the left table's current value if that
 * value still has the hash the subscription was sent with; else the response is stale (the left
 * value changed since) and dropped.
 */
export function responseJoinProcessor(
  ctx: ProcessorContext,
  options: {
    left: () => KeyValueStore | undefined;
    valueSerde: Serde<unknown>;
    leftJoin: boolean;
    joiner: (key: unknown, left: unknown, right: unknown) => unknown;
  },
): Processor {
  return {
    process(record: EngineRecord) {
      const response = record.value as SubscriptionResponse;
      const current = options.left()?.get(record.key);
      const currentHash =
        current === undefined ? null : valueHash(options.valueSerde, current.value);
      if (response.hash !== currentHash) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const foreign = response.foreignValue;
      const result =
        isNullish(foreign) && (!options.leftJoin || current === undefined)
          ? null
          : options.joiner(record.key, current?.value ?? null, foreign ?? null);
      ctx.forward({ ...record, value: result });
    },
  };
}
