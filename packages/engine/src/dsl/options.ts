// Kafka Streams' option objects (Named, Consumed, Produced, Grouped, Materialized, Repartitioned,
// Branched, Printed) and KeyValue, as immutable builders. They only carry what the topology
// document can express; the DSL reads their fields when it writes a node.
import type { TimestampExtractorSpec } from '@streamwright/topology-model';
import type { DslSerde } from './serdes.js';

/** Stores.persistentKeyValueStore / inMemoryKeyValueStore. */
export interface KeyValueBytesStoreSupplier {
  readonly name: string;
  readonly storeType: 'persistent' | 'inMemory';
}

/**
 * Stores.persistentWindowStore / inMemoryWindowStore (durations in ms); here (not in
 * streams-builder.ts) so that window-options.ts (StreamJoined's suppliers) imports no cycle.
 */
export interface WindowBytesStoreSupplier extends KeyValueBytesStoreSupplier {
  readonly retentionMs: number;
  readonly windowSizeMs: number;
  readonly retainDuplicates: boolean;
}

export interface KeyValue<K, V> {
  readonly key: K;
  readonly value: V;
}

export const KeyValue = {
  pair: <K, V>(key: K, value: V): KeyValue<K, V> => ({ key, value }),
};

/** Named.as(name): the processor's name instead of a generated `KSTREAM-…-NNNNNNNNNN`. */
export class Named {
  private constructor(readonly name: string) {}
  static as(name: string): Named {
    return new Named(name);
  }
}

export class Consumed<K, V> {
  private constructor(
    readonly keySerde?: DslSerde<K>,
    readonly valueSerde?: DslSerde<V>,
    readonly name?: string,
    readonly offsetReset?: 'earliest' | 'latest',
    readonly timestampExtractor?: TimestampExtractorSpec,
  ) {}
  static with<K, V>(keySerde: DslSerde<K>, valueSerde: DslSerde<V>): Consumed<K, V> {
    return new Consumed(keySerde, valueSerde);
  }
  static as<K = unknown, V = unknown>(name: string): Consumed<K, V> {
    return new Consumed<K, V>(undefined, undefined, name);
  }
  withName(name: string): Consumed<K, V> {
    return new Consumed(
      this.keySerde,
      this.valueSerde,
      name,
      this.offsetReset,
      this.timestampExtractor,
    );
  }
  withKeySerde<K2>(serde: DslSerde<K2>): Consumed<K2, V> {
    return new Consumed(
      serde,
      this.valueSerde,
      this.name,
      this.offsetReset,
      this.timestampExtractor,
    );
  }
  withValueSerde<V2>(serde: DslSerde<V2>): Consumed<K, V2> {
    return new Consumed(this.keySerde, serde, this.name, this.offsetReset, this.timestampExtractor);
  }
  /** Kafka's AutoOffsetReset.earliest() / latest(). */
  withOffsetResetPolicy(policy: 'earliest' | 'latest'): Consumed<K, V> {
    return new Consumed(this.keySerde, this.valueSerde, this.name, policy, this.timestampExtractor);
  }
  /**
   * Consumed.withTimestampExtractor: `'record'`, `'wallclock'` or `{ expression: CEL }` (epoch ms
   * from `key`, `value`, `timestamp`, `headers`), as the topology format names extractors.
   */
  withTimestampExtractor(extractor: TimestampExtractorSpec): Consumed<K, V> {
    return new Consumed(this.keySerde, this.valueSerde, this.name, this.offsetReset, extractor);
  }
}

export class Produced<K, V> {
  private constructor(
    readonly keySerde?: DslSerde<K>,
    readonly valueSerde?: DslSerde<V>,
    readonly name?: string,
  ) {}
  static with<K, V>(keySerde: DslSerde<K>, valueSerde: DslSerde<V>): Produced<K, V> {
    return new Produced(keySerde, valueSerde);
  }
  static as<K = unknown, V = unknown>(name: string): Produced<K, V> {
    return new Produced<K, V>(undefined, undefined, name);
  }
  withName(name: string): Produced<K, V> {
    return new Produced(this.keySerde, this.valueSerde, name);
  }
  withKeySerde<K2>(serde: DslSerde<K2>): Produced<K2, V> {
    return new Produced(serde, this.valueSerde, this.name);
  }
  withValueSerde<V2>(serde: DslSerde<V2>): Produced<K, V2> {
    return new Produced(this.keySerde, serde, this.name);
  }
}

export class Grouped<K, V> {
  private constructor(
    readonly name?: string,
    readonly keySerde?: DslSerde<K>,
    readonly valueSerde?: DslSerde<V>,
  ) {}
  static as<K = unknown, V = unknown>(name: string): Grouped<K, V> {
    return new Grouped<K, V>(name);
  }
  static with<K, V>(keySerde: DslSerde<K>, valueSerde: DslSerde<V>): Grouped<K, V> {
    return new Grouped(undefined, keySerde, valueSerde);
  }
  withName(name: string): Grouped<K, V> {
    return new Grouped(name, this.keySerde, this.valueSerde);
  }
  withKeySerde<K2>(serde: DslSerde<K2>): Grouped<K2, V> {
    return new Grouped(this.name, serde, this.valueSerde);
  }
  withValueSerde<V2>(serde: DslSerde<V2>): Grouped<K, V2> {
    return new Grouped(this.name, this.keySerde, serde);
  }
}

/**
 * Stores.persistentVersionedKeyValueStore (KIP-889): for Stores.versionedKeyValueStoreBuilder and
 * Materialized.as on any operation whose result is a key-value table.
 */
export interface VersionedBytesStoreSupplier {
  readonly name: string;
  readonly versioned: true;
  readonly historyRetentionMs: number;
  /** Absent: Kafka Streams' default for the history retention. */
  readonly segmentIntervalMs?: number;
}

export class Materialized<K, V> {
  private constructor(
    readonly storeName?: string,
    readonly keySerde?: DslSerde<K>,
    readonly valueSerde?: DslSerde<V>,
    readonly logging?: boolean,
    readonly caching?: boolean,
    readonly storeType?: 'persistent' | 'inMemory',
    readonly retentionMs?: number,
    readonly versioned?: { historyRetentionMs: number; segmentIntervalMs?: number },
  ) {}
  /**
   * Materialized.as(storeName), or Materialized.as(Stores.persistentVersionedKeyValueStore(…)):
   * a versioned store named after the supplier (any key-value table: KIP-914).
   */
  static as<K = unknown, V = unknown>(
    store: string | VersionedBytesStoreSupplier,
  ): Materialized<K, V> {
    if (typeof store === 'string') return new Materialized<K, V>(store);
    const versioned =
      store.segmentIntervalMs === undefined
        ? { historyRetentionMs: store.historyRetentionMs }
        : {
            historyRetentionMs: store.historyRetentionMs,
            segmentIntervalMs: store.segmentIntervalMs,
          };
    return new Materialized<K, V>(
      store.name,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      versioned,
    );
  }
  static with<K, V>(keySerde: DslSerde<K>, valueSerde: DslSerde<V>): Materialized<K, V> {
    return new Materialized(undefined, keySerde, valueSerde);
  }
  #copy(patch: Partial<Materialized<K, V>>): Materialized<K, V> {
    const m = { ...this.fields(), ...patch };
    return new Materialized(
      m.storeName,
      m.keySerde,
      m.valueSerde,
      m.logging,
      m.caching,
      m.storeType,
      m.retentionMs,
      m.versioned,
    );
  }
  withKeySerde(serde: DslSerde<K>): Materialized<K, V> {
    return this.#copy({ keySerde: serde });
  }
  withValueSerde(serde: DslSerde<V>): Materialized<K, V> {
    return this.#copy({ valueSerde: serde });
  }
  withLoggingEnabled(): Materialized<K, V> {
    return this.#copy({ logging: true });
  }
  withLoggingDisabled(): Materialized<K, V> {
    return this.#copy({ logging: false });
  }
  withCachingEnabled(): Materialized<K, V> {
    return this.#copy({ caching: true });
  }
  withCachingDisabled(): Materialized<K, V> {
    return this.#copy({ caching: false });
  }
  /** Kafka's withStoreType(DslStoreSuppliers): `inMemory` or `persistent`. */
  withStoreType(type: 'persistent' | 'inMemory'): Materialized<K, V> {
    if (this.versioned !== undefined)
      throw new Error('Cannot set store type when store supplier is pre-configured.');
    return this.#copy({ storeType: type });
  }
  /**
   * Window and session stores: how long windows are kept (milliseconds). Kafka Streams refuses
   * less than size + grace (sliding windows: 2 × time difference + grace; sessions: gap + grace).
   */
  withRetention(retentionMs: number): Materialized<K, V> {
    return this.#copy({ retentionMs });
  }
  /** The document's Materialized fields (only those that were set). */
  fields(): {
    storeName?: string;
    keySerde?: DslSerde<K>;
    valueSerde?: DslSerde<V>;
    logging?: boolean;
    caching?: boolean;
    storeType?: 'persistent' | 'inMemory';
    retentionMs?: number;
    versioned?: { historyRetentionMs: number; segmentIntervalMs?: number };
  } {
    const out: ReturnType<Materialized<K, V>['fields']> = {};
    if (this.storeName !== undefined) out.storeName = this.storeName;
    if (this.keySerde !== undefined) out.keySerde = this.keySerde;
    if (this.valueSerde !== undefined) out.valueSerde = this.valueSerde;
    if (this.logging !== undefined) out.logging = this.logging;
    if (this.caching !== undefined) out.caching = this.caching;
    if (this.storeType !== undefined) out.storeType = this.storeType;
    if (this.retentionMs !== undefined) out.retentionMs = this.retentionMs;
    if (this.versioned !== undefined) out.versioned = { ...this.versioned };
    return out;
  }
}

export class Repartitioned<K, V> {
  private constructor(
    readonly name?: string,
    readonly partitions?: number,
    readonly keySerde?: DslSerde<K>,
    readonly valueSerde?: DslSerde<V>,
  ) {}
  static as<K = unknown, V = unknown>(name: string): Repartitioned<K, V> {
    return new Repartitioned<K, V>(name);
  }
  static with<K, V>(keySerde: DslSerde<K>, valueSerde: DslSerde<V>): Repartitioned<K, V> {
    return new Repartitioned(undefined, undefined, keySerde, valueSerde);
  }
  static numberOfPartitions<K = unknown, V = unknown>(partitions: number): Repartitioned<K, V> {
    return new Repartitioned<K, V>(undefined, partitions);
  }
  withName(name: string): Repartitioned<K, V> {
    return new Repartitioned(name, this.partitions, this.keySerde, this.valueSerde);
  }
  withNumberOfPartitions(partitions: number): Repartitioned<K, V> {
    return new Repartitioned(this.name, partitions, this.keySerde, this.valueSerde);
  }
  withKeySerde<K2>(serde: DslSerde<K2>): Repartitioned<K2, V> {
    return new Repartitioned(this.name, this.partitions, serde, this.valueSerde);
  }
  withValueSerde<V2>(serde: DslSerde<V2>): Repartitioned<K, V2> {
    return new Repartitioned(this.name, this.partitions, this.keySerde, serde);
  }
}

/** Printed.toSysOut(): labels default to the processor name, lines to `key, value`. */
export class Printed<K, V> {
  private constructor(
    readonly label?: string,
    readonly mapper?: string | ((key: K, value: V) => string),
  ) {}
  static toSysOut<K = unknown, V = unknown>(): Printed<K, V> {
    return new Printed<K, V>();
  }
  withLabel(label: string): Printed<K, V> {
    return new Printed(label, this.mapper);
  }
  /** A CEL expression (print context) or a function returning the printed text. */
  withKeyValueMapper(mapper: string | ((key: K, value: V) => string)): Printed<K, V> {
    return new Printed(this.label, mapper);
  }
}
