// Which store a task gets: lmdb when the application asks for persistent DSL stores
// (`default.dsl.store`, Kafka's key: `rocksDB`, or `lmdb`) and has a state dir, and the store is a
// key-value store materialized as persistent (Materialized's default); otherwise in memory.
// Window, session and suppression stores are in memory either way.
import { join } from 'node:path';
import type { StorePlan } from '@streamwright/topology-model';
import {
  InMemoryKeyValueStore,
  type StoreSpec,
  type TaskKeyValueStore,
} from './key-value-store.js';
import { LmdbKeyValueStore } from './lmdb-key-value-store.js';

export interface StoreFactoryConfig {
  /** The task's directory in the state dir, or null without one. */
  taskDir: string | null;
  persistentStores: boolean;
}

export function createTaskStore(
  spec: StoreSpec & Partial<Pick<StorePlan, 'type' | 'storeType'>>,
  partition: number,
  config: StoreFactoryConfig,
): TaskKeyValueStore {
  const persistent =
    config.persistentStores &&
    config.taskDir !== null &&
    (spec.type ?? 'keyValue') === 'keyValue' &&
    spec.storeType !== 'inMemory';
  if (!persistent) return new InMemoryKeyValueStore(spec, partition);
  return new LmdbKeyValueStore(spec, partition, join(config.taskDir!, 'lmdb', spec.name));
}
