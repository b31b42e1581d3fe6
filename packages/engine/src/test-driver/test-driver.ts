// A TopologyTestDriver for Streamwright topologies: every piped record is processed synchronously
// through the same compiled processor graph and StreamTask code the running app uses, with one
// partition per topic and no backend. Output written to a topic that the topology also reads
// (e.g. a generator's topic or a repartition topic) is fed back in, as TopologyTestDriver does.
import { Buffer } from 'node:buffer';
import type { VersionedKeyValueStore } from '../papi/types.js';
import { versionedStoreFacade } from '../state/versioned-facade.js';
import { isVersionedStore } from '../state/versioned-store.js';
import type { AppConfig, Plan, Topology } from '@streamwright/topology-model';
import { compileExpression } from '@streamwright/topology-model';
import type { BuiltTopologyLike, MetricsSnapshot, ProcessingError, RecordTap } from '../api.js';
import type { Headers, ProduceRecord, StoredRecord } from '../backend-spi.js';
import { engineConfig } from '../app/config.js';
import { windowedKeySerde } from '../windows/windowed-key.js';
import { planOf } from '../app/plan-topology.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { changedSerde } from '../processor/changed-serde.js';
import { tapSubtopologies } from '../app/record-tap.js';
import { compilePlan, type CompiledSubtopology } from '../processor/compile.js';
import type { CodeRegistries } from '../processor/registries.js';
import { fkTopicValueSerde } from '../joins/fk-join-node-factory.js';
import { getSerde } from '../serdes/index.js';
import type { Serde } from '../serdes/serde.js';
import type { KeyValueEntry, ValueAndTimestamp } from '../state/key-value-store.js';
import { ThreadCache } from '../state/record-cache.js';
import { StreamTask } from '../task/stream-task.js';
import { isKeyValueStore } from '../state/store-factory.js';

export interface TestRecord {
  topic: string;
  key: unknown;
  value: unknown;
  timestamp: number;
  headers: Headers;
}

export interface TestOutputTopic {
  readKeyValue(): { key: unknown; value: unknown };
  readRecord(): TestRecord;
  readRecordsToList(): TestRecord[];
  /** Latest value per key (keys compared as JSON text). */
  readKeyValuesToMap(): Map<unknown, unknown>;
  isEmpty(): boolean;
  getQueueSize(): number;
}

export interface RawTestRecord {
  key: Uint8Array | null;
  value: Uint8Array | null;
  timestamp: number;
}

export interface TestDriver {
  /** Serializes with the reading source's serdes, then processes synchronously. */
  pipeInput(
    topic: string,
    key: unknown,
    value: unknown,
    timestamp?: number,
    headers?: Headers,
  ): void;
  /** Pipes bytes as they would sit in the topic (to test deserialization handling). */
  pipeRawInput(
    topic: string,
    key: Uint8Array | null,
    value: Uint8Array | null,
    timestamp?: number,
    headers?: Headers,
  ): void;
  createInputTopic(topic: string): {
    pipeInput(key: unknown, value: unknown, timestamp?: number, headers?: Headers): void;
  };
  createOutputTopic(topic: string): TestOutputTopic;
  /** Takes (and removes) everything written to `topic` so far, decoded with its sink's serdes. */
  readOutput(topic: string): TestRecord[];
  /**
   * Takes (and removes) `topic`'s records as bytes, as they sit in the topic (internal topics
   * too: a foreign-key join's wrappers, changelogs). Separate from readOutput's queue.
   */
  readRawOutput(topic: string): RawTestRecord[];
  /**
   * Runs a generator node `count` times (seq continues across calls), pipes the records into its
   * topic and returns them.
   */
  generate(modelNodeId: string, count: number, now?: number): TestRecord[];
  getKeyValueStore(name: string): {
    get(key: unknown): unknown;
    getWithTimestamp(key: unknown): ValueAndTimestamp | undefined;
    all(): KeyValueEntry[];
  };
  /** A versioned store (Stores.persistentVersionedKeyValueStore, a versioned table) to query. */
  getVersionedKeyValueStore<K = unknown, V = unknown>(name: string): VersionedKeyValueStore<K, V>;
  /**
   * Advances the mock wall clock and fires due WALL_CLOCK_TIME punctuations, then processes what
   * they wrote to topics the topology reads (TopologyTestDriver#advanceWallClockTime).
   */
  advanceWallClockTime(ms: number): void;
  /** The mock wall clock: the `now` option (default Date.now) plus all advances. */
  wallClockTime(): number;
  errors(): ProcessingError[];
  metrics(): MetricsSnapshot;
  readonly plan: Plan;
  close(): void;
}

export interface TestDriverOptions extends CodeRegistries {
  /** Sees every record each node is given (the designer's data preview). */
  recordTap?: RecordTap;
  /** Overrides of the topology's application config (e.g. the exception handler). */
  config?: AppConfig;
  /** Wall clock for default timestamps, e2e latency and wall-clock punctuation (TopologyTestDriver's initial wall-clock time). */
  now?: () => number;
  /**
   * A state dir: stores are then persistent (lmdb) as in a running app (TopologyTestDriver runs
   * Kafka's default RocksDB stores in a temp dir); without one every store is in memory.
   */
  stateDir?: string;
  /**
   * Sees every record written to any topic (sinks, repartition and changelog topics), decoded as
   * readOutput decodes it, in the order written (`streamwright drive` prints them so).
   */
  onOutput?: (record: TestRecord) => void;
}

/** `topology`: a validated topology, or a DSL program's build() (its registries are used too). */
export function createTestDriver(
  topology: Topology | BuiltTopologyLike,
  options: TestDriverOptions = {},
): TestDriver {
  if ('kind' in topology && topology.kind === 'streamwright.built-topology') {
    const merged: TestDriverOptions = {
      ...options,
      functions: { ...topology.functions, ...options.functions },
      processors: { ...topology.processors, ...options.processors },
      valueTransformers: { ...topology.valueTransformers, ...options.valueTransformers },
      partitioners: { ...topology.partitioners, ...options.partitioners },
    };
    return createTestDriver(topology.topology, merged);
  }
  const t = topology as Topology;
  return createTestDriverFromPlan(
    planOf(t),
    { ...t.application.config, ...options.config },
    options,
  );
}

export function createTestDriverFromPlan(
  plan: Plan,
  appConfig: AppConfig,
  options: TestDriverOptions = {},
): TestDriver {
  const baseClock = options.now ?? Date.now;
  // TopologyTestDriver's mock wall clock: the given clock plus every advanceWallClockTime().
  let advancedMs = 0;
  const clock = (): number => baseClock() + advancedMs;
  const config = engineConfig(plan.applicationId, appConfig);
  // As TopologyTestDriver, onWindowClose aggregations check for closed windows on every record.
  const emitInterval = appConfig['__emit.interval.ms.kstreams.windowed.aggregation__'];
  const compileOptions = { ...options, windowedEmitIntervalMs: Number(emitInterval ?? 0) };
  const compiled = options.recordTap
    ? tapSubtopologies(compilePlan(plan, compileOptions), options.recordTap)
    : compilePlan(plan, compileOptions);
  const nodeModelIds: Record<string, string> = {};
  for (const [modelId, names] of Object.entries(plan.nodeNames))
    for (const n of names) nodeModelIds[n] = modelId;
  const metrics = new MetricsRegistry(plan.applicationId, nodeModelIds, clock);
  const errors: ProcessingError[] = [];
  const produced: ProduceRecord[] = [];
  const collector = { send: (r: ProduceRecord) => void produced.push(r) };

  const threadCache = config.cacheMaxBytes > 0 ? new ThreadCache(config.cacheMaxBytes) : null;
  const taskByTopic = new Map<string, StreamTask>();
  const tasks: StreamTask[] = [];
  const outputSerdes = new Map<string, { key: Serde<unknown>; value: Serde<unknown> }>();
  const inputSerdes = new Map<string, { key: Serde<unknown>; value: Serde<unknown> }>();
  for (const sub of compiled) {
    const task = new StreamTask({
      subtopology: sub,
      partition: 0,
      partitions: sub.sourceTopics.map((topic) => ({ topic, partition: 0 })),
      collector,
      metrics,
      config: {
        ...config,
        maxTaskIdleMs: -1,
        ...(options.stateDir === undefined ? {} : { stateDir: options.stateDir }),
      },
      threadCache,
      onError: (e) => void errors.unshift(e),
      now: clock,
      // TopologyTestDriver's producer knows one partition of every topic.
      partitionsFor: () => 1,
    });
    task.initializeWithoutRestore();
    if (sub.global)
      for (const store of task.stores.filter(isKeyValueStore))
        sub.globalStores.set(store.name, store);
    tasks.push(task);
    for (const s of sub.sources) {
      for (const t of s.topics) {
        taskByTopic.set(t, task);
        inputSerdes.set(t, { key: s.keySerde, value: s.valueSerde });
      }
    }
    collectOutputSerdes(sub, plan, outputSerdes);
  }

  const offsets = new Map<string, number>();
  const outputs = new Map<string, TestRecord[]>();
  const rawOutputs = new Map<string, RawTestRecord[]>();
  const nextOffset = (topic: string) => {
    const o = offsets.get(topic) ?? 0;
    offsets.set(topic, o + 1);
    return o;
  };

  // Everything written since the last call: decoded into the outputs, and fed back in when the
  // topology reads the topic (breadth-first, like TopologyTestDriver).
  const drainProduced = (queue: StoredRecord[]): void => {
    // TopologyTestDriver commits after every record: the record caches flush each time.
    for (const t of tasks) t.flushCaches();
    for (const t of tasks) produced.push(...t.takeChangelogRecords());
    for (const out of produced.splice(0)) {
      const stored: StoredRecord = {
        topic: out.topic,
        partition: 0,
        offset: nextOffset(out.topic),
        timestamp: out.timestamp ?? clock(),
        key: out.key,
        value: out.value,
        headers: out.headers ?? {},
      };
      const serdes = outputSerdes.get(out.topic) ?? outputSerdes.get(EXTRACTED);
      const decoded: TestRecord = {
        topic: out.topic,
        key: serdes ? serdes.key.deserialize(stored.key) : stored.key,
        value: serdes ? serdes.value.deserialize(stored.value) : stored.value,
        timestamp: stored.timestamp,
        headers: stored.headers,
      };
      let list = outputs.get(out.topic);
      if (!list) outputs.set(out.topic, (list = []));
      list.push(decoded);
      options.onOutput?.(decoded);
      let raw = rawOutputs.get(out.topic);
      if (!raw) rawOutputs.set(out.topic, (raw = []));
      raw.push({ key: stored.key, value: stored.value, timestamp: stored.timestamp });
      if (taskByTopic.has(out.topic)) queue.push(stored);
    }
  };

  // Process stored records one at a time, each followed by stream-time punctuation and a
  // "commit" (TopologyTestDriver#completeAllProcessableWork), then everything they caused.
  const processQueue = (queue: StoredRecord[]): void => {
    while (queue.length > 0) {
      const raw = queue.shift()!;
      const task = taskByTopic.get(raw.topic);
      if (!task) continue;
      task.addRecords({ topic: raw.topic, partition: 0 }, [raw]);
      while (task.process()) task.maybePunctuateStreamTime();
      drainProduced(queue);
    }
  };
  const processRaw = (first: StoredRecord): void => processQueue([first]);

  const pipeInput = (
    topic: string,
    key: unknown,
    value: unknown,
    timestamp?: number,
    headers: Headers = {},
  ): void => {
    const serdes = inputSerdes.get(topic);
    if (!serdes) throw new Error(`topic ${topic} is not read by this topology`);
    processRaw({
      topic,
      partition: 0,
      offset: nextOffset(topic),
      timestamp: timestamp ?? clock(),
      key: serdes.key.serialize(key),
      value: serdes.value.serialize(value),
      headers,
    });
  };

  const pipeRawInput = (
    topic: string,
    key: Uint8Array | null,
    value: Uint8Array | null,
    timestamp?: number,
    headers: Headers = {},
  ): void => {
    if (!inputSerdes.has(topic)) throw new Error(`topic ${topic} is not read by this topology`);
    processRaw({
      topic,
      partition: 0,
      offset: nextOffset(topic),
      timestamp: timestamp ?? clock(),
      key,
      value,
      headers,
    });
  };

  const readRawOutput = (topic: string): RawTestRecord[] => {
    const list = rawOutputs.get(topic) ?? [];
    rawOutputs.set(topic, []);
    return list;
  };

  const readOutput = (topic: string): TestRecord[] => {
    const list = outputs.get(topic) ?? [];
    outputs.set(topic, []);
    return list;
  };

  const generatorSeq = new Map<string, number>();

  return {
    plan,
    pipeInput,
    pipeRawInput,
    createInputTopic: (topic) => ({ pipeInput: (k, v, ts, h) => pipeInput(topic, k, v, ts, h) }),
    readOutput,
    readRawOutput,
    createOutputTopic(topic) {
      const list = () => {
        let l = outputs.get(topic);
        if (!l) outputs.set(topic, (l = []));
        return l;
      };
      const readRecord = (): TestRecord => {
        const r = list().shift();
        if (!r) throw new Error(`no more records in ${topic}`);
        return r;
      };
      return {
        readRecord,
        readKeyValue: () => {
          const r = readRecord();
          return { key: r.key, value: r.value };
        },
        readRecordsToList: () => readOutput(topic),
        readKeyValuesToMap: () => {
          const m = new Map<unknown, unknown>();
          for (const r of readOutput(topic)) m.set(r.key, r.value);
          return m;
        },
        isEmpty: () => list().length === 0,
        getQueueSize: () => list().length,
      };
    },
    generate(modelNodeId, count, at) {
      const node = plan.subtopologies
        .flatMap((sub) => sub.nodes)
        .find((n) => n.modelNodeId === modelNodeId)?.modelNode;
      if (!node || node.kind !== 'generator')
        throw new Error(`${modelNodeId} is not a generator node`);
      const key =
        node.config.key === undefined ? null : compileExpression(node.config.key, 'generatorKey');
      const value = compileExpression(node.config.value, 'generatorValue');
      const generated: TestRecord[] = [];
      for (let i = 0; i < count; i++) {
        const seq = generatorSeq.get(modelNodeId) ?? 0;
        generatorSeq.set(modelNodeId, seq + 1);
        const ts = at ?? clock();
        const vars = { seq, now: ts };
        const record = {
          topic: node.config.topic,
          key: key === null ? null : key.evaluate(vars),
          value: value.evaluate(vars),
          timestamp: ts,
          headers: {},
        };
        generated.push(record);
        pipeInput(record.topic, record.key, record.value, ts);
      }
      return generated;
    },
    getKeyValueStore(name) {
      const store = tasks
        .flatMap((t) => t.stores)
        .filter(isKeyValueStore)
        .find((s) => s.name === name);
      if (!store) throw new Error(`no key-value store named ${name}`);
      return {
        get: (k) => store.get(k)?.value ?? null,
        getWithTimestamp: (k) => store.get(k),
        // By serialized key, as TopologyTestDriver's stores iterate (RocksDB, or the in-memory
        // store's TreeMap over the key bytes); our in-memory map keeps insertion order.
        all: () =>
          store
            .all()
            .map((entry) => ({ entry, bytes: Buffer.from(store.serializeKey(entry.key) ?? []) }))
            .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
            .map(({ entry }) => entry),
      };
    },
    getVersionedKeyValueStore<K, V>(name: string) {
      const store = tasks.flatMap((t) => t.stores).find((s) => s.name === name);
      if (!isVersionedStore(store)) throw new Error(`no versioned store named ${name}`);
      return versionedStoreFacade<K, V>(store);
    },
    advanceWallClockTime(ms) {
      if (!(ms >= 0)) throw new RangeError(`advanceWallClockTime needs a duration ≥ 0, got ${ms}`);
      advancedMs += ms;
      const queue: StoredRecord[] = [];
      for (const t of tasks) {
        t.maybePunctuateSystemTime(clock());
        drainProduced(queue);
      }
      processQueue(queue);
    },
    wallClockTime: clock,
    errors: () => [...errors],
    metrics: () => metrics.snapshot(),
    close() {
      for (const t of tasks) t.close();
    },
  };
}

/** Serdes of sinks with a topic extractor, for topics only known at run time. */
const EXTRACTED = '\u0000extracted';

const RAW: Serde<unknown> = {
  name: 'raw',
  serialize: (value) => value as Uint8Array | null,
  deserialize: (bytes) => bytes,
};

function collectOutputSerdes(
  sub: CompiledSubtopology,
  plan: Plan,
  into: Map<string, { key: Serde<unknown>; value: Serde<unknown> }>,
): void {
  const byName = new Map(sub.nodes.map((c) => [c.planned.name, c.planned]));
  for (const c of sub.nodes) {
    const n = c.planned;
    if (n.role !== 'sink') continue;
    const cfg = (n.modelNode?.config ?? {}) as Record<string, unknown>;
    const topic = n.topic ?? (cfg['topic'] as string | undefined) ?? EXTRACTED;
    const value =
      (n.op === 'repartition-sink' ? fkTopicValueSerde(n, byName) : null) ??
      getSerde(n.valueSerde ?? (cfg['valueSerde'] as never) ?? 'json');
    const changes =
      n.op === 'repartition-sink' && byName.get(n.predecessors[0] ?? '')?.op === 'tableGroupBy';
    into.set(topic, {
      key: windowedKeySerde(getSerde(n.keySerde ?? (cfg['keySerde'] as never) ?? 'string'), cfg),
      value: changes ? (changedSerde(value) as Serde<unknown>) : value,
    });
  }
  for (const s of sub.stores) {
    if (s.changelogTopic && !into.has(s.changelogTopic)) {
      // Window, session, suppression and join stores log composite keys and values (the
      // window, buffer time…): their changelog records are kept as bytes.
      const plainKeyValue = s.type === 'keyValue' && s.outerJoin === undefined;
      into.set(
        s.changelogTopic,
        plainKeyValue
          ? { key: getSerde(s.keySerde), value: getSerde(s.valueSerde) }
          : { key: RAW, value: RAW },
      );
    }
  }
}
