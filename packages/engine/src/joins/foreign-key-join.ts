// The foreign-key table–table join, after Kafka Streams' foreignkeyjoin package (4.1):
// SubscriptionSend (left side: registers the left key under its foreign key, with a hash of the
// left value), SubscriptionReceive + SubscriptionJoin (right side: keeps the subscriptions and
// answers each with the current right value), ForeignTableJoin (right side: a right update
// answers every subscription of its key) and ResponseJoin (left side: joins a response only if
// the left value still hashes the same, so stale responses are dropped). The wire formats are
// Kafka's (fk-wire.ts); the subscription store holds Kafka's bytes (fk-subscription-index.ts).
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { Change, isNullish, type EngineRecord } from '../processor/record.js';
import type { Serde } from '../serdes/serde.js';
import type { KeyValueStore } from '../state/key-value-store.js';
import { EngineError } from '../errors.js';
import {
  combinedKey,
  combinedKeyPrefix,
  decodeSubscription,
  encodeSubscription,
  sameBytes,
  splitCombinedKey,
  SUBSCRIPTION_VERSION,
  RESPONSE_VERSION,
  type Instruction,
  type Subscription,
  type SubscriptionResponse,
} from './fk-wire.js';
import { subscriptionIndex } from './fk-subscription-index.js';
import { hash128 } from './murmur3.js';
import { getThrough, type TableGetter } from './table-getter.js';

export type { Instruction, Subscription, SubscriptionResponse } from './fk-wire.js';

type Bytes = Uint8Array | null;

/** The left value's identity: Murmur3.hash128 of its bytes, as Kafka's send and resolver use. */
export function valueHash(serde: Serde<unknown>, value: unknown): Uint8Array | null {
  if (isNullish(value)) return null;
  const bytes = serde.serialize(value);
  if (bytes === null) return null;
  return hash128(bytes);
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
      // KIP-914: an out-of-order update of a versioned left table subscribes nothing (dropped).
      if (!change.isLatest) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      let hash: Uint8Array | null | undefined;
      const send = (foreignKey: unknown, instruction: Instruction): void => {
        if (hash === undefined) hash = valueHash(options.valueSerde, change.newValue);
        const value: Subscription = {
          hash,
          instruction,
          primaryKey: record.key,
          primaryPartition: ctx.partition,
          version: SUBSCRIPTION_VERSION,
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

/** What the receive processor forwards: Kafka's CombinedKey (foreign key, primary key). */
type CombinedKey = [unknown, unknown];

function checkVersion(version: number, max: number, what: string): void {
  // Kafka guards rolling upgrades the same way: a newer wrapper than this version knows fails.
  if (version > max)
    throw new EngineError('PROCESSING_FAILED', `${what} is of an incompatible version.`);
}

/**
 * SubscriptionReceiveProcessorSupplier + SubscriptionJoinProcessorSupplier (two processors in
 * Kafka's graph, one function each here): the receive side stores or deletes the subscription
 * under its CombinedKey bytes, the join side answers it with the right table's current value.
 */
export function subscriptionReceiveProcessor(
  ctx: ProcessorContext,
  options: {
    store: () => KeyValueStore;
    foreignKeySerde: Serde<unknown>;
    primaryKeySerde: Serde<unknown>;
  },
): Processor {
  return {
    process(record: EngineRecord) {
      const wrapper = record.value as Subscription;
      const nullKey = isNullish(record.key);
      if (nullKey && wrapper.instruction !== 'PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE') {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      checkVersion(wrapper.version, SUBSCRIPTION_VERSION, 'SubscriptionWrapper');
      if (!nullKey) {
        const store = options.store();
        const index = subscriptionIndex(store);
        const pk = options.primaryKeySerde.serialize(wrapper.primaryKey)!;
        const key = combinedKey(options.foreignKeySerde.serialize(record.key)!, pk);
        if (
          wrapper.instruction === 'DELETE_KEY_AND_PROPAGATE' ||
          wrapper.instruction === 'DELETE_KEY_NO_PROPAGATE'
        ) {
          store.delete(key, record.timestamp);
          index.remove(key);
        } else {
          store.put(key, encodeSubscription(wrapper, pk), record.timestamp);
          index.add(key);
        }
      }
      const key: CombinedKey = [nullKey ? null : record.key, wrapper.primaryKey];
      ctx.forward({ ...record, key, value: wrapper });
    },
  };
}

export function subscriptionJoinProcessor(
  ctx: ProcessorContext,
  foreign: () => KeyValueStore | undefined,
  /** The right table's filter / mapValues getters over its store. */
  getter: TableGetter | null = null,
): Processor {
  return {
    process(record: EngineRecord) {
      const [foreignKey, primaryKey] = record.key as CombinedKey;
      const wrapper = record.value as Subscription;
      const other = isNullish(foreignKey) ? undefined : getThrough(foreign(), foreignKey, getter);
      const timestamp =
        other === undefined ? record.timestamp : Math.max(record.timestamp, other.timestamp);
      const respond = (foreignValue: unknown): void => {
        const value: SubscriptionResponse = {
          hash: wrapper.hash,
          foreignValue: foreignValue ?? null,
          primaryPartition: wrapper.primaryPartition,
          version: RESPONSE_VERSION,
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
 * in the order of their CombinedKey bytes (Kafka range-scans its store from the foreign key's
 * prefix); the subscription index finds them without visiting other keys' subscriptions.
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
      // KIP-914: an out-of-order update of a versioned right table answers no one (dropped).
      if (!change.isLatest) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const store = options.store();
      const prefix = combinedKeyPrefix(options.foreignKeySerde.serialize(record.key)!);
      for (const key of subscriptionIndex(store).prefixScan(prefix)) {
        const stored = store.get(key);
        if (stored === undefined) continue;
        const subscription = decodeSubscription(stored.value as Uint8Array);
        const value: SubscriptionResponse = {
          hash: subscription.hash,
          foreignValue: change.newValue ?? null,
          primaryPartition: subscription.primaryPartition,
          version: RESPONSE_VERSION,
        };
        const pk = options.primaryKeySerde.deserialize(splitCombinedKey(key).primaryKey);
        ctx.forward({ ...record, key: pk, value });
      }
    },
  };
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
    /** The left table's filter / mapValues getters over its store. */
    getter?: TableGetter | null;
  },
): Processor {
  return {
    process(record: EngineRecord) {
      const response = record.value as SubscriptionResponse;
      if (response.version !== RESPONSE_VERSION)
        throw new EngineError(
          'PROCESSING_FAILED',
          'SubscriptionResponseWrapper is of an incompatible version.',
        );
      const current = getThrough(options.left(), record.key, options.getter ?? null);
      const currentHash =
        current === undefined ? null : valueHash(options.valueSerde, current.value);
      if (!sameBytes(response.hash, currentHash)) {
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
