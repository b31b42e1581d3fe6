// Interactive queries of a running application (Kafka Streams' KafkaStreams#store,
// #queryMetadataForKey, #streamsMetadataForStore, #metadataForAllStreamsClients): read-only
// views over the stores of this instance's tasks, the query that worker threads answer, and
// which instance holds a key or a task.
// Apart from streams-app.ts, which owns the lifecycle: queries only read what the lifecycle
// built (the plan, the compiled sub-topologies, the threads and the group's assignor).
import type { Plan, StorePlan } from '@streamwright/topology-model';
import type {
  InstanceTasks,
  KeyQueryMetadata,
  LocalStoreAnswer,
  QueryScope,
  QueryableKeyValueStore,
  QueryableSessionStore,
  QueryableWindowStore,
  StoreHostMetadata,
  StoreQueryPart,
} from '../api.js';
import type { Backend } from '../backend-spi.js';
import { EngineError, UnsupportedConfigError } from '../errors.js';
import { partitionFor } from '../partitioner/default-partitioner.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { getSerde } from '../serdes/index.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import { isKeyValueStore } from '../state/store-factory.js';
import type { TaskStateStore } from '../state/task-store.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import type { StreamsAssignor } from '../assignment/streams-assignor.js';
import { StreamThread, type StreamThreadHandle } from '../thread/stream-thread.js';
import { WorkerStreamThread } from '../thread/worker/worker-stream-thread.js';
import type { EngineConfig } from './config.js';
import { queryableStore } from './queryable-store.js';
import { queryableSessionStore, queryableWindowStore } from './queryable-windowed-stores.js';
import {
  answerStoreQuery,
  forwardQuery,
  mergeStoreAnswers,
  scopedStores,
  type StoreQuery,
} from './store-query.js';
import { windowedOrdersOf, type WindowedOrders } from './windowed-store-order.js';

export interface QuerySources {
  plan: Plan;
  compiled: readonly CompiledSubtopology[];
  config: EngineConfig;
  backend: Backend;
  /** The application's stream threads (filled in at start). */
  threads: readonly StreamThreadHandle[];
  /** On Kafka: the group's assignor, which knows every instance's tasks by application.server. */
  streamsAssignor: () => StreamsAssignor | null;
}

export class InteractiveQueries {
  readonly #s: QuerySources;

  constructor(sources: QuerySources) {
    this.#s = sources;
  }

  /**
   * KafkaStreams#queryMetadataForKey: which instance (application.server) holds `key` of store
   * `name` as an active task, which hold standbys, and the key's partition (the default
   * partitioner over the store's key serde, as the store's sub-topology's source topics are
   * partitioned). activeHost is null while the task has no active instance (its assignment is
   * migrating during a rebalance, or no instance has an application.server). A global store is
   * on every instance: this one's, partition -1. Null for an unknown store.
   */
  async queryMetadataForKey(name: string, key: unknown): Promise<KeyQueryMetadata | null> {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const own = this.#s.config.applicationServer;
    if (planned.global) return { activeHost: own, standbyHosts: [], partition: -1 };
    const partitions = await this.#storePartitions(planned);
    if (partitions === 0) return { activeHost: null, standbyHosts: [], partition: -1 };
    const keyBytes = getSerde(planned.keySerde).serialize(key);
    if (keyBytes === null)
      throw new EngineError(
        'INVALID_STATE_STORE',
        `queryMetadataForKey: a null key of store ${name}`,
      );
    const partition = partitionFor(keyBytes, partitions);
    const taskId = `${planned.subtopology}_${partition}`;
    const assignor = this.#s.streamsAssignor();
    if (assignor === null) return { activeHost: own, standbyHosts: [], partition };
    const hosts = Object.entries(assignor.tasksByHost());
    return {
      activeHost: hosts.find(([, t]) => t.active.includes(taskId))?.[0] ?? null,
      standbyHosts: hosts.filter(([, t]) => t.standby.includes(taskId)).map(([h]) => h),
      partition,
    };
  }

  /**
   * KafkaStreams#streamsMetadataForStore: every instance (application.server) holding tasks of
   * store `name`, with those active and standby task ids. Null for an unknown store.
   */
  streamsMetadataForStore(name: string): StoreHostMetadata[] | null {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const own = this.#s.config.applicationServer;
    const assignor = this.#s.streamsAssignor();
    if (assignor === null)
      return own === null ? [] : [{ host: own, activeTasks: [], standbyTasks: [] }];
    const ofStore = (ids: string[]) =>
      ids.filter((id) => planned.global || id.startsWith(`${planned.subtopology}_`));
    return Object.entries(assignor.tasksByHost())
      .map(([host, t]) => ({
        host,
        activeTasks: ofStore(t.active),
        standbyTasks: ofStore(t.standby),
      }))
      .filter((h) => planned.global || h.activeTasks.length + h.standbyTasks.length > 0);
  }

  /**
   * Every instance with an application.server and the tasks the last rebalance gave it (Kafka
   * Streams' metadataForAllStreamsClients), by host; empty without the group's assignor.
   */
  instances(): InstanceTasks[] {
    const own = this.#s.config.applicationServer;
    return Object.entries(this.#s.streamsAssignor()?.tasksByHost() ?? {})
      .map(([host, t]) => ({
        host,
        self: host === own,
        activeTasks: [...t.active],
        standbyTasks: [...t.standby],
      }))
      .sort((a, b) => a.host.localeCompare(b.host));
  }

  store(name: string): QueryableKeyValueStore | null {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const globalStores = this.#s.compiled[0]?.globalStores;
    if (!globalStores?.has(name)) this.#requireLocalStores(name);
    return queryableStore(
      name,
      () => {
        const global = globalStores?.get(name);
        if (global) return [global];
        const instances = [];
        for (const thread of this.#s.threads) {
          if (!(thread instanceof StreamThread)) continue;
          for (const task of thread.tasks.values())
            for (const s of task.stores)
              if (s.name === name && isKeyValueStore(s)) instances.push(s);
        }
        return instances;
      },
      planned.versioned !== undefined,
    );
  }

  windowStore(name: string): QueryableWindowStore | null {
    const planned = this.#queryablePlan(name, 'window', 'windowStore');
    if (planned === null) return null;
    const size = planned.windowSizeMs ?? planned.windowStore?.sizeMs ?? 0;
    return queryableWindowStore(
      name,
      size,
      () =>
        this.#localStores(
          name,
          (s): s is SegmentedWindowStore => s instanceof SegmentedWindowStore,
        ),
      this.#windowedOrders(planned),
    );
  }

  sessionStore(name: string): QueryableSessionStore | null {
    const planned = this.#queryablePlan(name, 'session', 'sessionStore');
    if (planned === null) return null;
    return queryableSessionStore(
      name,
      () =>
        this.#localStores(
          name,
          (s): s is SegmentedSessionStore => s instanceof SegmentedSessionStore,
        ),
      this.#windowedOrders(planned).keyRange,
    );
  }

  /** Kafka's iteration orders of the store's range reads (persistent: RocksDB's segments). */
  #windowedOrders(planned: StorePlan): WindowedOrders {
    let owner: Parameters<typeof windowedOrdersOf>[1] = null;
    for (const st of this.#s.plan.subtopologies)
      for (const n of st.nodes)
        if (n.windowing !== undefined && n.stores.includes(planned.name))
          owner = { emitStrategy: n.windowing.emitStrategy, windowType: n.windowing.window.type };
    return windowedOrdersOf(planned, owner);
  }

  async queryStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
  ): Promise<unknown> {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    const global = this.#s.compiled[0]?.globalStores?.has(name) === true;
    if (this.#s.config.numStreamThreads === 1 || global) {
      const view =
        type === 'keyValue'
          ? this.store(name)
          : type === 'window'
            ? this.windowStore(name)
            : this.sessionStore(name);
      const call = (view as unknown as Record<string, unknown> | null)?.[method];
      if (typeof call !== 'function')
        throw new TypeError(`queryStore: ${type} stores have no method ${method}`);
      return (call as (...a: unknown[]) => unknown).apply(view, args);
    }
    if (type !== 'keyValue') this.#queryablePlan(name, type, `${type}Store`, false);
    else if (planned.type !== 'keyValue')
      throw new EngineError(
        'INVALID_STATE_STORE',
        `Cannot get state store ${name} because the queryable store type [keyValueStore] does not accept the state store: it is a ${planned.type} store`,
      );
    const { query, reverse } = forwardQuery(this.#storeQuery(planned, type, method, args));
    const answers = await Promise.all(
      this.#s.threads.map((t) => (t instanceof WorkerStreamThread ? t.query(query) : null)),
    );
    return mergeStoreAnswers(
      query,
      answers.filter((a) => a !== null),
      reverse,
    );
  }

  #storeQuery(
    planned: StorePlan,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
  ): StoreQuery {
    return {
      store: planned.name,
      type,
      method,
      args,
      versioned: planned.versioned !== undefined,
      windowSizeMs: planned.windowSizeMs ?? planned.windowStore?.sizeMs ?? 0,
      ...(type === 'keyValue' ? {} : { orders: this.#windowedOrders(planned) }),
    };
  }

  /** StreamsApp#queryLocalStore: this instance's share of a query routed across instances. */
  async queryLocalStore(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
    scope: QueryScope,
  ): Promise<LocalStoreAnswer> {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined)
      throw new EngineError('INVALID_STATE_STORE', `queryLocalStore: no store ${name}`);
    if (planned.type !== type)
      throw new EngineError(
        'INVALID_STATE_STORE',
        `Cannot get state store ${name} because the queryable store type [${type}Store] does not accept the state store: it is a ${planned.type} store`,
      );
    const { query } = forwardQuery({ ...this.#storeQuery(planned, type, method, args), scope });
    const parts: StoreQueryPart[] = [];
    if (this.#s.config.numStreamThreads === 1) {
      for (const thread of this.#s.threads) {
        if (!(thread instanceof StreamThread)) continue;
        const scoped = scopedStores(scope, thread.tasks.values(), thread.standbys.values());
        parts.push({ ...answerStoreQuery(query, scoped.stores), tasks: scoped.tasks });
      }
    } else {
      const answers = await Promise.all(
        this.#s.threads.map((t) => (t instanceof WorkerStreamThread ? t.query(query) : null)),
      );
      for (const a of answers) if (a !== null) parts.push(a);
    }
    return { parts, tasks: parts.flatMap((p) => p.tasks ?? []) };
  }

  /** StreamsApp#mergeStoreParts: the instances' shares of a routed query as one view's answer. */
  mergeStoreParts(
    name: string,
    type: 'keyValue' | 'window' | 'session',
    method: string,
    args: unknown[],
    parts: StoreQueryPart[],
  ): unknown {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined)
      throw new EngineError('INVALID_STATE_STORE', `mergeStoreParts: no store ${name}`);
    const { query, reverse } = forwardQuery(this.#storeQuery(planned, type, method, args));
    return mergeStoreAnswers(query, parts, reverse);
  }

  /** StreamsApp#storeTaskIds: the store's tasks (its sub-topology's partitions). */
  async storeTaskIds(name: string): Promise<string[] | null> {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined || planned.global) return null;
    const partitions = await this.#storePartitions(planned);
    return Array.from({ length: partitions }, (_, p) => `${planned.subtopology}_${p}`);
  }

  /** The partition count of the store's sub-topology's source topics (its tasks). */
  async #storePartitions(planned: StorePlan): Promise<number> {
    const sub = this.#s.compiled.find((s) => s.id === planned.subtopology);
    let partitions = 0;
    for (const topic of sub?.sourceTopics ?? [])
      partitions = Math.max(
        partitions,
        (await this.#s.backend.describeTopic(topic))?.partitions ?? 0,
      );
    return partitions;
  }

  /** The planned store `name` of `type`; null when there is none; throws for another type. */
  #queryablePlan(
    name: string,
    type: 'window' | 'session',
    queryType: string,
    local = true,
  ): StorePlan | null {
    const planned = this.#s.plan.stores.find((s) => s.name === name);
    if (planned === undefined) return null;
    if (planned.type !== type)
      throw new EngineError(
        'INVALID_STATE_STORE',
        `Cannot get state store ${name} because the queryable store type [${queryType}] does not accept the state store: it is a ${planned.type} store`,
      );
    if (local) this.#requireLocalStores(name);
    return planned;
  }

  #requireLocalStores(name: string): void {
    if (this.#s.config.numStreamThreads > 1)
      throw new UnsupportedConfigError(
        `interactive queries on ${name}: with num.stream.threads=${this.#s.config.numStreamThreads} the stores live in worker threads, which answer queryStore only`,
      );
  }

  /** Every instance of store `name` in this instance's tasks. */
  #localStores<S extends TaskStateStore>(name: string, kind: (s: TaskStateStore) => s is S): S[] {
    const instances: S[] = [];
    for (const thread of this.#s.threads) {
      if (!(thread instanceof StreamThread)) continue;
      for (const task of thread.tasks.values())
        for (const s of task.stores) if (s.name === name && kind(s)) instances.push(s);
    }
    return instances;
  }
}
