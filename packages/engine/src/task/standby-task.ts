// A standby replica of a task (Kafka Streams' StandbyTask): on an instance other than the active's,
// it keeps the task's persistent stores up to date from their changelog partitions and
// checkpoints how far it got, so that when the task fails over here the new active restores only
// the changelog's tail (store-restore.ts reads the same checkpoint). It processes no input and
// writes nothing. In-memory stores are not kept (they would not survive the hand-over: the active
// rebuilds them from the changelog, as without a standby).
import type {
  Backend,
  FetchRequest,
  FetchResponse,
  IsolationLevel,
  Recovery,
} from '../backend-spi.js';
import type { EngineConfig } from '../app/config.js';
import { TASK_STATE_CODES, type TaskMetrics } from '../metrics/metric-groups.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { checkpointKey, readCheckpoint, taskDirOf, writeCheckpoint } from '../state/checkpoint.js';
import { createTaskStore } from '../state/store-factory.js';
import type { TaskStateStore } from '../state/task-store.js';
import { taskIdOf } from './stream-task.js';

export interface StandbyTaskOptions {
  subtopology: CompiledSubtopology;
  partition: number;
  config: EngineConfig;
  metrics: MetricsRegistry;
  threadIndex: number;
  onRecovery?: (recovery: Recovery) => void;
}

export class StandbyTask {
  readonly id: string;
  readonly partition: number;
  readonly metrics: TaskMetrics;
  /** The persistent, logged stores it keeps, with the next changelog offset each needs. */
  readonly #stores: { store: TaskStateStore; topic: string; position: number; end: number }[] = [];
  readonly #taskDir: string | null;
  readonly #config: EngineConfig;
  readonly #onRecovery: ((recovery: Recovery) => void) | undefined;
  #changed = false;
  #closed = false;
  /** Positions are known (initialize() finished): only then is a checkpoint written. */
  #initialized = false;

  constructor(options: StandbyTaskOptions) {
    const { subtopology, partition, config } = options;
    this.id = taskIdOf(subtopology.id, partition);
    this.partition = partition;
    this.#config = config;
    this.#onRecovery = options.onRecovery;
    this.#taskDir =
      config.stateDir === undefined
        ? null
        : taskDirOf(config.stateDir, config.applicationId, this.id);
    this.metrics = options.metrics.task(this.id, {
      subtopology: subtopology.id,
      partitions: [],
    });
    if (this.#taskDir !== null)
      for (const spec of subtopology.stores) {
        if (spec.changelogTopic === null) continue;
        const store = createTaskStore(spec, partition, {
          taskDir: this.#taskDir,
          persistentStores: config.persistentStores,
        });
        if (!store.persistent) {
          store.close();
          continue;
        }
        this.#stores.push({ store, topic: spec.changelogTopic, position: 0, end: 0 });
      }
    this.metrics.ownerThread = options.threadIndex;
    this.metrics.standby = 1;
    this.metrics.stateCode = TASK_STATE_CODES.indexOf('CREATED');
    this.metrics.streamTime = NaN;
  }

  /** Whether it keeps any store (a task of only in-memory stores needs no standby work). */
  get keepsState(): boolean {
    return this.#stores.length > 0;
  }

  /** The stores it keeps (interactive queries with stale stores, KIP-535). */
  get stores(): TaskStateStore[] {
    return this.#stores.map((s) => s.store);
  }

  /** Changelog records it is behind their ends, as of the last fetch (KIP-535's lag). */
  get lag(): number {
    let lag = 0;
    for (const s of this.#stores) lag += Math.max(0, s.end - s.position);
    return lag;
  }

  /** From the checkpoint where there is one (else the stores are wiped and read from the start). */
  async initialize(backend: Backend): Promise<void> {
    const checkpoint =
      this.#taskDir === null
        ? new Map<string, number>()
        : readCheckpoint(this.#taskDir, { remove: false });
    for (const s of this.#stores) {
      const desc = await backend.describeTopic(s.topic);
      const range = desc?.offsets.find((o) => o.partition === this.partition);
      const earliest = range?.earliest ?? 0;
      s.end = range?.latest ?? 0;
      let checkpointed = checkpoint.get(checkpointKey(s.topic, this.partition));
      if (checkpointed !== undefined && checkpointed > s.end) {
        this.#onRecovery?.({
          at: Date.now(),
          kind: 'store-rebuilt',
          store: s.store.name,
          topic: s.topic,
          partition: this.partition,
          taskId: this.id,
          fromOffset: checkpointed,
          toOffset: s.end,
          message: `the checkpoint of standby store ${s.store.name} (task ${this.id}) is at offset ${checkpointed}, past the end ${s.end} of its changelog ${s.topic}-${this.partition} (the changelog was recreated): the local copy is wiped and rebuilt from the changelog`,
        });
        checkpointed = undefined;
      }
      // A checkpointed store whose files hold a damaged value (a checksum fails) is not trusted.
      const damage = checkpointed !== undefined ? (s.store.verify?.() ?? null) : null;
      if (damage !== null) {
        this.#onRecovery?.({
          at: Date.now(),
          kind: 'store-rebuilt',
          store: s.store.name,
          topic: s.topic,
          partition: this.partition,
          taskId: this.id,
          fromOffset: checkpointed!,
          toOffset: s.end,
          message: `the local files of standby store ${s.store.name} (task ${this.id}) are damaged: ${damage}; the store is wiped and rebuilt from its changelog ${s.topic}-${this.partition}`,
        });
        checkpointed = undefined;
      }
      if (checkpointed === undefined) s.store.wipe();
      s.position = checkpointed === undefined ? earliest : Math.max(earliest, checkpointed);
    }
    this.#initialized = true;
    this.metrics.stateCode = TASK_STATE_CODES.indexOf('RUNNING');
    this.metrics.standbyLag = this.lag;
  }

  /** Where to fetch next: each kept store's changelog partition. */
  requests(): FetchRequest[] {
    return this.#stores.map((s) => ({
      topic: s.topic,
      partition: this.partition,
      offset: s.position,
    }));
  }

  /** Applies fetched changelog records to the stores (no logging: they are the changelog). */
  apply(response: FetchResponse): void {
    for (const s of this.#stores) {
      if (s.topic !== response.topic || response.partition !== this.partition) continue;
      s.end = Math.max(s.end, response.highWatermark);
      if (response.error === 'OFFSET_OUT_OF_RANGE') {
        // The changelog was truncated or recreated under us: start again from what is there.
        s.store.wipe();
        s.position = 0;
        this.#changed = true;
        continue;
      }
      for (const record of response.records) {
        if (record.offset < s.position) continue;
        s.store.restore(record);
        s.position = record.offset + 1;
        this.metrics.updateTotal++;
        this.#changed = true;
      }
    }
    this.metrics.standbyLag = this.lag;
  }

  /** Writes the checkpoint when the stores moved since the last one. */
  checkpoint(): void {
    if (!this.#changed || !this.#initialized || this.#taskDir === null || this.#stores.length === 0)
      return;
    this.#changed = false;
    // Stores buffer restored records and write them in batches (at their next commit): write
    // them now, so the checkpoint never claims more than the store holds (a standby never
    // writes, so there are no changelog records to send).
    for (const s of this.#stores) s.store.takeChangelogRecords();
    writeCheckpoint(
      this.#taskDir,
      this.#stores.map((s) => ({ topic: s.topic, partition: this.partition, offset: s.position })),
    );
  }

  /** Checkpoints, then closes the stores (the task dir is free for an active of this task). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#changed = true;
    try {
      this.checkpoint();
    } finally {
      for (const s of this.#stores) s.store.close();
      this.metrics.stateCode = TASK_STATE_CODES.indexOf('CLOSED');
      this.metrics.ownerThread = 0;
      this.metrics.standby = 0;
    }
  }

  /** The restore consumer's isolation level (read_committed under exactly_once_v2). */
  get isolationLevel(): IsolationLevel {
    return this.#config.restoreIsolationLevel;
  }
}
