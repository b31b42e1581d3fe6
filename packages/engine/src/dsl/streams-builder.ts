// StreamsBuilder: the DSL's entry point. build() turns the program into a topology document
// (topology-model's format, validated; export it with exportTopology) plus the in-process
// registries of the TypeScript functions and processors it refers to by name.
import {
  describeTopology,
  planTopology,
  validateTopology,
  type AppConfig,
  type Topology,
  type TopologyDocumentInput,
} from '@streamwright/topology-model';
import type {
  FunctionRegistry,
  PartitionerRegistry,
  ProcessorRegistry,
  ValueTransformerRegistry,
} from '../processor/registries.js';
import { DocumentBuilder } from './document-builder.js';
import { derive, factories, materializedConfig, type Origin } from './internals.js';
import { KGroupedStreamImpl, CogroupedKStreamImpl } from './kgrouped-stream-impl.js';
import { KStreamImpl } from './kstream-impl.js';
import { GlobalKTableImpl, KGroupedTableImpl, KTableImpl } from './ktable-impl.js';
import type {
  Consumed,
  KeyValueBytesStoreSupplier,
  Materialized,
  VersionedBytesStoreSupplier,
  WindowBytesStoreSupplier,
} from './options.js';

export type {
  KeyValueBytesStoreSupplier,
  VersionedBytesStoreSupplier,
  WindowBytesStoreSupplier,
} from './options.js';
import type { DslSerde } from './serdes.js';
import type { GlobalKTable, KStream, KTable } from './types.js';

factories.stream = (origin) => new KStreamImpl(origin);
factories.table = (origin, store) => new KTableImpl(origin, store);
factories.groupedStream = (origin) => new KGroupedStreamImpl(origin);
factories.groupedTable = (origin) => new KGroupedTableImpl(origin);
factories.cogrouped = (first) => new CogroupedKStreamImpl(first);

/** What build() returns; createStreamsApp and createTestDriver accept it as their topology. */
export interface BuiltTopology {
  readonly kind: 'streamwright.built-topology';
  /** The validated topology. */
  readonly topology: Topology;
  /** The document as written (for canonical JSON: exportTopology(built.topology)). */
  readonly document: TopologyDocumentInput;
  readonly functions: FunctionRegistry;
  readonly processors: ProcessorRegistry;
  /** KTable#transformValues' suppliers, by the names the document gives them. */
  readonly valueTransformers: ValueTransformerRegistry;
  /** TableJoined's partitioners, by the names the document gives them. */
  readonly partitioners: PartitionerRegistry;
  /** Topology#describe() text. */
  describe(): string;
}

export function isBuiltTopology(value: unknown): value is BuiltTopology {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'streamwright.built-topology'
  );
}

export interface BuildOptions {
  /** `application.id` (Kafka Streams' StreamsConfig.APPLICATION_ID_CONFIG). */
  applicationId: string;
  /** Kafka Streams config with its dotted keys, e.g. `{"num.stream.threads": 2}`. */
  config?: AppConfig;
  /** Topics to declare with their partition counts (others are created with 1 on deploy). */
  topics?: { name: string; partitions: number; config?: Record<string, string | number> }[];
}

/**
 * A store for process / processValues (StoreBuilder from Stores.keyValueStoreBuilder,
 * windowStoreBuilder or sessionStoreBuilder).
 */
export interface StoreBuilder<K, V> {
  readonly name: string;
  readonly type: 'keyValue' | 'window' | 'session' | 'versioned';
  /** Versioned stores: the history retention and segment interval (ms). */
  readonly historyRetentionMs?: number;
  readonly segmentIntervalMs?: number;
  /** Window and session stores: the retention period (ms). */
  readonly retentionMs?: number;
  /** Window stores: the window size (ms) and whether duplicates are kept. */
  readonly windowSizeMs?: number;
  readonly retainDuplicates?: boolean;
  readonly keySerde: DslSerde<K>;
  readonly valueSerde: DslSerde<V>;
  readonly logging: boolean;
  readonly caching: boolean;
  readonly storeType: 'persistent' | 'inMemory';
  withLoggingDisabled(): StoreBuilder<K, V>;
  withLoggingEnabled(): StoreBuilder<K, V>;
  withCachingEnabled(): StoreBuilder<K, V>;
  withCachingDisabled(): StoreBuilder<K, V>;
}

function versionedSupplier(
  name: string,
  historyRetentionMs: number,
  segmentIntervalMs?: number,
): VersionedBytesStoreSupplier {
  // Stores#persistentVersionedKeyValueStore's own checks and messages.
  if (!Number.isSafeInteger(historyRetentionMs) || historyRetentionMs < 0)
    throw new RangeError('historyRetention cannot be negative');
  if (segmentIntervalMs === undefined) return { name, versioned: true, historyRetentionMs };
  if (!Number.isSafeInteger(segmentIntervalMs) || segmentIntervalMs < 1)
    throw new RangeError('segmentInterval cannot be zero or negative');
  return { name, versioned: true, historyRetentionMs, segmentIntervalMs };
}

/** Stores.persistentSessionStore / inMemorySessionStore. */
export interface SessionBytesStoreSupplier extends KeyValueBytesStoreSupplier {
  readonly retentionMs: number;
}

function windowSupplier(
  name: string,
  storeType: 'persistent' | 'inMemory',
  retentionMs: number,
  windowSizeMs: number,
  retainDuplicates: boolean,
): WindowBytesStoreSupplier {
  // Stores#persistentWindowStore's own checks and messages.
  if (retentionMs < 0) throw new RangeError('retentionPeriod cannot be negative');
  if (windowSizeMs < 0) throw new RangeError('windowSize cannot be negative');
  if (windowSizeMs > retentionMs)
    throw new RangeError(
      `The retention period of the window store ${name} must be no smaller than its window size. Got size=[${windowSizeMs}], retention=[${retentionMs}]`,
    );
  return { name, storeType, retentionMs, windowSizeMs, retainDuplicates };
}

function storeBuilder<K, V>(
  base: Omit<StoreBuilder<K, V>, 'logging' | 'caching' | `with${string}`>,
): StoreBuilder<K, V> {
  const make = (logging: boolean, caching: boolean): StoreBuilder<K, V> => ({
    ...base,
    logging,
    caching,
    withLoggingDisabled: () => make(false, caching),
    withLoggingEnabled: () => make(true, caching),
    withCachingEnabled: () => {
      // VersionedKeyValueStoreBuilder#withCachingEnabled.
      if (base.type === 'versioned') throw new Error('Versioned stores do not support caching');
      return make(logging, true);
    },
    withCachingDisabled: () => make(logging, false),
  });
  // Kafka's StoreBuilder defaults: logging on, caching off.
  return make(true, false);
}

export const Stores = {
  persistentWindowStore: (
    name: string,
    retentionPeriodMs: number,
    windowSizeMs: number,
    retainDuplicates: boolean,
  ): WindowBytesStoreSupplier =>
    windowSupplier(name, 'persistent', retentionPeriodMs, windowSizeMs, retainDuplicates),
  inMemoryWindowStore: (
    name: string,
    retentionPeriodMs: number,
    windowSizeMs: number,
    retainDuplicates: boolean,
  ): WindowBytesStoreSupplier =>
    windowSupplier(name, 'inMemory', retentionPeriodMs, windowSizeMs, retainDuplicates),
  persistentSessionStore: (name: string, retentionPeriodMs: number): SessionBytesStoreSupplier => ({
    name,
    storeType: 'persistent',
    retentionMs: retentionPeriodMs,
  }),
  inMemorySessionStore: (name: string, retentionPeriodMs: number): SessionBytesStoreSupplier => ({
    name,
    storeType: 'inMemory',
    retentionMs: retentionPeriodMs,
  }),
  windowStoreBuilder<K, V>(
    supplier: WindowBytesStoreSupplier,
    keySerde: DslSerde<K>,
    valueSerde: DslSerde<V>,
  ): StoreBuilder<K, V> {
    return storeBuilder<K, V>({
      name: supplier.name,
      type: 'window',
      storeType: supplier.storeType,
      keySerde,
      valueSerde,
      retentionMs: supplier.retentionMs,
      windowSizeMs: supplier.windowSizeMs,
      retainDuplicates: supplier.retainDuplicates,
    });
  },
  sessionStoreBuilder<K, V>(
    supplier: SessionBytesStoreSupplier,
    keySerde: DslSerde<K>,
    valueSerde: DslSerde<V>,
  ): StoreBuilder<K, V> {
    return storeBuilder<K, V>({
      name: supplier.name,
      type: 'session',
      storeType: supplier.storeType,
      keySerde,
      valueSerde,
      retentionMs: supplier.retentionMs,
    });
  },
  /**
   * A versioned key-value store keeping every version of a key for `historyRetentionMs` behind
   * its observed stream time (KIP-889). In memory here, rebuilt from its changelog on start.
   */
  persistentVersionedKeyValueStore: (
    name: string,
    historyRetentionMs: number,
    segmentIntervalMs?: number,
  ): VersionedBytesStoreSupplier => versionedSupplier(name, historyRetentionMs, segmentIntervalMs),
  /** A process / processValues store: getStateStore gives a VersionedKeyValueStore. */
  versionedKeyValueStoreBuilder<K, V>(
    supplier: VersionedBytesStoreSupplier,
    keySerde: DslSerde<K>,
    valueSerde: DslSerde<V>,
  ): StoreBuilder<K, V> {
    return storeBuilder<K, V>({
      name: supplier.name,
      type: 'versioned',
      storeType: 'persistent',
      keySerde,
      valueSerde,
      historyRetentionMs: supplier.historyRetentionMs,
      ...(supplier.segmentIntervalMs === undefined
        ? {}
        : { segmentIntervalMs: supplier.segmentIntervalMs }),
    });
  },
  persistentKeyValueStore: (name: string): KeyValueBytesStoreSupplier => ({
    name,
    storeType: 'persistent',
  }),
  inMemoryKeyValueStore: (name: string): KeyValueBytesStoreSupplier => ({
    name,
    storeType: 'inMemory',
  }),
  keyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde: DslSerde<K>,
    valueSerde: DslSerde<V>,
  ): StoreBuilder<K, V> {
    return storeBuilder<K, V>({
      name: supplier.name,
      type: 'keyValue',
      storeType: supplier.storeType,
      keySerde,
      valueSerde,
    });
  },
};

export class StreamsBuilder {
  readonly #doc = new DocumentBuilder();

  /**
   * builder.stream(topic | topics | Pattern, Consumed). A pattern reads the topics declared with
   * `build({ topics })` whose whole name matches it.
   */
  stream<K = string, V = unknown>(
    topic: string | readonly string[] | RegExp,
    consumed?: Consumed<K, V>,
  ): KStream<K, V> {
    const node = this.#doc.addNode(
      'source',
      {
        ...this.#sourceTopics(topic),
        keySerde: consumed?.keySerde?.name,
        valueSerde: consumed?.valueSerde?.name,
        offsetReset: consumed?.offsetReset,
        timestampExtractor: consumed?.timestampExtractor,
      },
      consumed?.name,
    );
    return new KStreamImpl<K, V>(this.#origin(node, consumed));
  }

  table<K = string, V = unknown>(
    topic: string,
    consumed?: Consumed<K, V>,
    materialized?: Materialized<K, V>,
  ): KTable<K, V> {
    const node = this.#doc.addNode(
      'table',
      {
        topic,
        keySerde: consumed?.keySerde?.name,
        valueSerde: consumed?.valueSerde?.name,
        offsetReset: consumed?.offsetReset,
        timestampExtractor: consumed?.timestampExtractor,
        // The table's serdes are Consumed's: Materialized only names and configures the store.
        ...withoutSerdes(
          materializedConfig(materialized as Materialized<unknown, unknown> | undefined),
        ),
      },
      consumed?.name,
    );
    return new KTableImpl<K, V>(
      this.#origin(node, consumed),
      materialized?.fields().storeName ?? null,
    );
  }

  globalTable<K = string, V = unknown>(
    topic: string,
    consumed?: Consumed<K, V>,
    materialized?: Materialized<K, V>,
  ): GlobalKTable<K, V> {
    // InternalStreamsBuilder#globalTable's TopologyException.
    if (materialized?.fields().versioned !== undefined)
      throw new Error('Invalid topology: GlobalTables cannot be versioned.');
    const store = materialized?.fields().storeName;
    const node = this.#doc.addNode(
      'globalTable',
      { topic, keySerde: consumed?.keySerde?.name, valueSerde: consumed?.valueSerde?.name, store },
      consumed?.name,
    );
    return new GlobalKTableImpl<K, V>(this.#origin(node, consumed), store ?? null);
  }

  /** Declares a store that process / processValues nodes connect to by name. */
  addStateStore(store: StoreBuilder<unknown, unknown>): this {
    if (this.#doc.stores.some((s) => s.name === store.name))
      throw new Error(`a store named ${store.name} was already added`);
    this.#doc.stores.push({
      name: store.name,
      type: store.type,
      ...(store.retentionMs === undefined ? {} : { retentionMs: store.retentionMs }),
      ...(store.windowSizeMs === undefined ? {} : { windowSizeMs: store.windowSizeMs }),
      ...(store.retainDuplicates === undefined ? {} : { retainDuplicates: store.retainDuplicates }),
      ...(store.historyRetentionMs === undefined
        ? {}
        : { historyRetentionMs: store.historyRetentionMs }),
      ...(store.segmentIntervalMs === undefined
        ? {}
        : { segmentIntervalMs: store.segmentIntervalMs }),
      keySerde: store.keySerde.name,
      valueSerde: store.valueSerde.name,
      logging: store.logging,
      caching: store.caching,
      storeType: store.storeType,
    });
    return this;
  }

  /** @throws Error listing every validation error (path and message) when the program is invalid. */
  build(options: BuildOptions): BuiltTopology {
    const document: TopologyDocumentInput = {
      schemaVersion: 1,
      application: { id: options.applicationId, config: { ...options.config } },
      topics: this.#topics(options.topics ?? []),
      stores: this.#doc.stores.map((s) => ({ ...s })),
      nodes: this.#doc.nodes.map((n) => structuredCloneConfig(n)),
      edges: this.#doc.edges.map((e) => ({ ...e })),
    } as TopologyDocumentInput;
    const result = validateTopology(document);
    if (!result.ok) {
      const lines = result.errors.map(
        (e) => `  ${e.path === undefined ? '' : `${String(e.path)}: `}${e.message}`,
      );
      throw new Error(`the DSL program does not make a valid topology:\n${lines.join('\n')}`);
    }
    const topology = result.topology;
    const { functions, processors, valueTransformers, partitioners } = this.#doc.registries();
    return {
      kind: 'streamwright.built-topology',
      topology,
      document,
      functions,
      processors,
      valueTransformers,
      partitioners,
      describe: () => describeTopology(planTopology(topology)),
    };
  }

  /** Declared topics, then every other topic the program names (1 partition, as deploy would create). */
  #topics(
    declared: NonNullable<BuildOptions['topics']>,
  ): { name: string; partitions: number; config: Record<string, string | number> }[] {
    const out = declared.map((t) => ({
      name: t.name,
      partitions: t.partitions,
      config: { ...t.config },
    }));
    const known = new Set(out.map((t) => t.name));
    for (const node of this.#doc.nodes) {
      const { topic, topics } = node.config;
      for (const t of [topic, ...(Array.isArray(topics) ? topics : [])]) {
        if (typeof t === 'string' && !known.has(t)) {
          known.add(t);
          out.push({ name: t, partitions: 1, config: {} });
        }
      }
    }
    return out;
  }

  #sourceTopics(
    topic: string | readonly string[] | RegExp,
  ): { topic: string } | { topics: string[] } | { topicPattern: string } {
    if (typeof topic === 'string') return { topic };
    if (topic instanceof RegExp) {
      // Java's Pattern has no flags in a topology: a flagged RegExp would mean something else.
      if (topic.flags !== '')
        throw new Error(
          `stream(): a topic pattern takes no flags (got /${topic.source}/${topic.flags})`,
        );
      return { topicPattern: topic.source };
    }
    return topic.length === 1 ? { topic: topic[0] as string } : { topics: [...topic] };
  }

  #origin(
    node: ReturnType<DocumentBuilder['addNode']>,
    consumed?: Consumed<unknown, unknown> | Consumed<never, never>,
  ): Origin {
    const c = consumed as Consumed<unknown, unknown> | undefined;
    return derive({ builder: this.#doc, node }, node, {
      keySerde: c?.keySerde,
      valueSerde: c?.valueSerde,
    });
  }
}

function withoutSerdes(config: Record<string, unknown>): Record<string, unknown> {
  const { keySerde: _k, valueSerde: _v, ...rest } = config;
  return rest;
}

// Node configs may hold function references (plain objects) and arrays: copy them so the built
// document does not change if the builder is used again.
function structuredCloneConfig<T extends { config: Record<string, unknown> }>(node: T): T {
  return { ...node, config: JSON.parse(JSON.stringify(node.config)) as Record<string, unknown> };
}
