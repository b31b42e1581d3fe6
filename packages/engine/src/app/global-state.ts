// Kafka Streams' GlobalStreamThread for globalTable(): every instance reads all partitions of a
// global table's topic into its global store. The store is loaded to the end of the topic before
// any stream thread starts (so a global table is complete before processing begins), then kept
// up to date by a background long-poll loop. Global stores have no changelog: the topic is one.
import type { EngineLogger, ProcessingError } from '../api.js';
import type { Backend, TopicPartition } from '../backend-spi.js';
import { errorMessage } from '../errors.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { StreamTask } from '../task/stream-task.js';
import type { EngineConfig } from './config.js';
import { isKeyValueStore } from '../state/store-factory.js';
import { sleep } from '../thread/poll-fetch.js';
import { transientFailureOf, type Waiter } from './waiting.js';

const POLL_WAIT_MS = 100;
const FETCH_MAX_RECORDS = 10_000;

export class GlobalStateUpdater {
  readonly #tasks: {
    task: StreamTask;
    positions: Map<string, TopicPartition & { offset: number }>;
  }[] = [];
  #stopped = false;
  #wakeup = new AbortController();
  #loop: Promise<void> | null = null;

  constructor(
    private readonly backend: Backend,
    private readonly subtopologies: CompiledSubtopology[],
    private readonly options: {
      config: EngineConfig;
      metrics: MetricsRegistry;
      logger: EngineLogger;
      onError: (e: ProcessingError) => void;
      onFatal: (error: unknown) => void;
      /** Waits out a backend outage (app/waiting.ts); without one, any failure is fatal. */
      waiter?: Waiter;
    },
  ) {}

  /** Bootstraps every global store to the end of its topic, then keeps them updated. */
  async start(): Promise<void> {
    for (const sub of this.subtopologies) {
      const partitions: (TopicPartition & { offset: number })[] = [];
      for (const topic of sub.sourceTopics) {
        const desc = await this.backend.describeTopic(topic);
        for (const o of desc?.offsets ?? [])
          partitions.push({ topic, partition: o.partition, offset: o.earliest });
      }
      const task = new StreamTask({
        subtopology: sub,
        partition: 0,
        partitions: partitions.map(({ topic, partition }) => ({ topic, partition })),
        collector: { send: () => undefined },
        metrics: this.options.metrics,
        // Global updates are applied in offset order per partition, never held back for idling.
        config: { ...this.options.config, maxTaskIdleMs: -1 },
        onError: this.options.onError,
      });
      task.initializeWithoutRestore();
      for (const store of task.stores.filter(isKeyValueStore))
        sub.globalStores.set(store.name, store);
      const positions = new Map(partitions.map((p) => [`${p.topic}:${p.partition}`, p]));
      this.#tasks.push({ task, positions });
      // Bootstrap: read up to the end offsets seen now.
      for (const p of partitions) {
        const desc = await this.backend.describeTopic(p.topic);
        const end = desc?.offsets.find((o) => o.partition === p.partition)?.latest ?? 0;
        while (p.offset < end) {
          const batch = await this.backend.fetch(p, p.offset, FETCH_MAX_RECORDS, 0);
          if (batch.length === 0) break;
          task.addRecords(p, batch);
          while (task.process()) {
            /* drain */
          }
          p.offset = batch[batch.length - 1]!.offset + 1;
        }
      }
    }
    if (this.#tasks.length > 0) this.#loop = this.#run();
  }

  /** The global stores, by name (for the test driver-like store access and later joins). */
  stores(): StreamTask['stores'] {
    return this.#tasks.flatMap((t) => t.task.stores);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wakeup.abort();
    await this.#loop;
    this.options.waiter?.stopped();
    for (const { task } of this.#tasks) task.close();
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        for (const { task, positions } of this.#tasks) {
          const requests = [...positions.values()].map(({ topic, partition, offset }) => ({
            topic,
            partition,
            offset,
          }));
          const responses = await this.backend.fetchMany(requests, {
            maxRecords: FETCH_MAX_RECORDS,
            maxWaitMs: POLL_WAIT_MS,
            signal: this.#wakeup.signal,
          });
          for (const r of responses) {
            const p = positions.get(`${r.topic}:${r.partition}`);
            if (!p || r.records.length === 0) continue;
            task.addRecords(p, r.records);
            p.offset = r.records[r.records.length - 1]!.offset + 1;
          }
          while (task.process()) {
            /* drain */
          }
        }
        this.options.waiter?.reachable();
      } catch (error) {
        if (this.#stopped) return;
        const failure = transientFailureOf(this.backend, error);
        const waiter = this.options.waiter;
        if (failure !== null && waiter !== undefined) {
          // The cluster cannot be reached: keep the positions, try again after a backoff.
          await sleep(waiter.failed(failure), this.#wakeup.signal);
          continue;
        }
        this.options.logger.error({ err: errorMessage(error) }, 'global state update failed');
        this.options.onFatal(error);
        return;
      }
    }
  }
}
