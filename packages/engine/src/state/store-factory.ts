// Which store a task gets: lmdb for a key-value store materialized as persistent (Materialized's
// default) when the application's `default.dsl.store` is `rocksDB` (Kafka Streams' default) and
// the task has a state dir (a running app always has; the test driver has not); otherwise in
// memory (`default.dsl.store: in_memory`, or the store says `inMemory`); a store whose supplier
// chose its type (`storeTypeExplicit`: StreamJoined's suppliers) is persistent or not whatever
// the default. Window and session
// stores (windowed aggregations, stream–stream join buffers, Processor API stores) follow the same
// rule when logged (lmdb-window-stores.ts), as do stream–table join buffers
// (time-ordered-buffer-disk.ts) and stream–stream join outer stores (outer-join-store-disk.ts);
// suppression buffers are in memory either way, owning their changelog.
// Versioned key-value stores are in memory (rebuilt from their changelog) either way.
import { join } from 'node:path';
import type { SerdeName, StorePlan } from '@streamwright/topology-model';
import { OuterJoinStore } from './outer-join-store.js';
import { SuppressionBufferStore } from './suppression-buffer.js';
import { TimeOrderedKeyValueBuffer } from './time-ordered-buffer.js';
import {
  InMemoryKeyValueStore,
  type StoreSpec,
  type TaskKeyValueStore,
} from './key-value-store.js';
import { LmdbKeyValueStore } from './lmdb-key-value-store.js';
import { MeteredKeyValueStore } from './metered-store.js';
import { LmdbSessionStore, LmdbWindowStore } from './lmdb-window-stores.js';
import { SegmentedSessionStore } from './session-store.js';
import type { TaskStateStore } from './task-store.js';
import { InMemoryVersionedKeyValueStore, isVersionedStore } from './versioned-store.js';
import { SegmentedWindowStore } from './window-store.js';

export interface StoreFactoryConfig {
  /** The task's directory in the state dir, or null without one. */
  taskDir: string | null;
  persistentStores: boolean;
}

/** What compile.ts adds to a planned store for the engine's own store kinds. */
export interface EngineStoreSpec
  extends
    StoreSpec,
    Partial<
      Pick<StorePlan, 'type' | 'storeType' | 'storeTypeExplicit' | 'retentionMs' | 'versioned'>
    > {
  /** Window stores: keep every put (stream–stream join buffers; Stores…(retainDuplicates)). */
  retainDuplicates?: boolean;
  /** Window stores: values logged with their timestamp (the DSL's timestamped stores). */
  timestamped?: boolean;
  /** Window stores of the Processor API: the window size. */
  windowSizeMs?: number;
  /** A stream–stream join's outer store: the serdes of both sides. */
  outerJoin?: { keySerde: SerdeName; leftValueSerde: SerdeName; rightValueSerde: SerdeName };
  /** A stream–table join's buffer (Joined#withGracePeriod): the grace period. */
  timeOrderedBuffer?: { graceMs: number };
  /** A suppression buffer over a windowed table: the window size its keys' ends derive from. */
  windowed?: { type: 'time'; sizeMs: number } | { type: 'session' };
}

export function createTaskStore(
  spec: EngineStoreSpec,
  partition: number,
  config: StoreFactoryConfig,
): TaskStateStore {
  const common = {
    name: spec.name,
    keySerde: spec.keySerde,
    valueSerde: spec.valueSerde,
    changelogTopic: spec.changelogTopic,
    logging: spec.logging !== false,
  };
  if (spec.outerJoin !== undefined)
    return new OuterJoinStore(
      { ...common, ...spec.outerJoin },
      partition,
      persistentPath(spec, config, common.logging),
    );
  switch (spec.type ?? 'keyValue') {
    case 'window': {
      const options = {
        ...common,
        retentionMs: spec.retentionMs ?? 86_400_000,
        retainDuplicates: spec.retainDuplicates ?? false,
        timestamped: spec.timestamped ?? true,
        ...(spec.windowSizeMs === undefined ? {} : { windowSizeMs: spec.windowSizeMs }),
      };
      const path = persistentPath(spec, config, common.logging);
      return path === null
        ? new SegmentedWindowStore(options, partition)
        : new LmdbWindowStore(options, partition, path);
    }
    case 'session': {
      const options = { ...common, retentionMs: spec.retentionMs ?? 86_400_000 };
      const path = persistentPath(spec, config, common.logging);
      return path === null
        ? new SegmentedSessionStore(options, partition)
        : new LmdbSessionStore(options, partition, path);
    }
    case 'suppression':
      return new SuppressionBufferStore(
        { ...common, ...(spec.windowed ? { windowed: spec.windowed } : {}) },
        partition,
      );
    case 'timeOrderedBuffer':
      return new TimeOrderedKeyValueBuffer(
        { ...common, graceMs: spec.timeOrderedBuffer?.graceMs ?? 0 },
        partition,
        persistentPath(spec, config, common.logging),
      );
    case 'keyValue':
      return createKeyValueStore(spec, partition, config);
  }
}

/**
 * Whether the store is of a persistent type: `persistent` under `default.dsl.store: rocksDB`, or
 * chosen as persistent by a store supplier whatever the default (StreamJoined's suppliers and
 * withDslStoreSuppliers: `storeTypeExplicit`). topology-model's effectiveStoreType, written out:
 * a value import of topology-model would pull all of it (zod's JSON Schema generator too) into
 * the worker bundle.
 */
function persistentType(spec: EngineStoreSpec, config: StoreFactoryConfig): boolean {
  if (spec.storeType === 'inMemory') return false;
  return config.persistentStores || spec.storeTypeExplicit === true;
}

/**
 * Where a persistent window or session store (or join buffer, or outer store) keeps its data, or
 * null for an in-memory one.
 * Only logged stores are persistent: their segments on disk are written from the changelog
 * records each commit produces (a store with logging off stays in memory).
 */
function persistentPath(
  spec: EngineStoreSpec,
  config: StoreFactoryConfig,
  logged: boolean,
): string | null {
  if (!persistentType(spec, config) || config.taskDir === null) return null;
  if (!logged || spec.changelogTopic === null) return null;
  return join(config.taskDir, 'lmdb', spec.name);
}

function createKeyValueStore(
  spec: EngineStoreSpec,
  partition: number,
  config: StoreFactoryConfig,
): TaskKeyValueStore {
  // Versioned stores are in memory and rebuilt from their changelog (docs/STATE.md).
  if (spec.versioned !== undefined)
    return new InMemoryVersionedKeyValueStore(
      { ...spec, historyRetentionMs: spec.versioned.historyRetentionMs },
      partition,
    );
  const persistent = persistentType(spec, config) && config.taskDir !== null;
  if (!persistent) return new InMemoryKeyValueStore(spec, partition);
  return new LmdbKeyValueStore(spec, partition, join(config.taskDir!, 'lmdb', spec.name));
}

/** Whether a task store is a key-value store (what key-value readers and queries take). */
export function isKeyValueStore(store: TaskStateStore): store is TaskKeyValueStore {
  return (
    store instanceof InMemoryKeyValueStore ||
    store instanceof LmdbKeyValueStore ||
    store instanceof MeteredKeyValueStore ||
    isVersionedStore(store)
  );
}
