// The per-task processor context: it dispatches a record through the graph depth-first and
// synchronously, applies the processing exception handler at the node that threw, and exposes
// record metadata, stream time, state stores and the record collector to processors.
import type { DecodedRecord, ProcessingError } from '../api.js';
import type { ProduceRecord, StoredRecord } from '../backend-spi.js';
import { errorMessage } from '../errors.js';
import type { TaskMetrics } from '../metrics/metric-groups.js';
import type { KeyValueStore } from '../state/key-value-store.js';
import type { TaskStateStore } from '../state/task-store.js';
import type { NamedCache } from '../state/record-cache.js';
import type { Serde } from '../serdes/serde.js';
import type { RecordCollector } from '../task/record-collector.js';
import { deadLetterRecord } from './dead-letter.js';
import { FailedProcessingError } from './processing-failure.js';
import { BUSY_SAMPLE_EVERY, type ProcessorNode } from './processor-node.js';
import { PunctuationQueue, type PunctuationSchedule } from './punctuation.js';
import type { EngineRecord, RecordMetadata } from './record.js';

export type ExceptionHandling = 'log-and-fail' | 'log-and-continue';
/** Which of Kafka Streams' three exception handlers deals with a failure. */
export type HandlerKind = 'deserialization' | 'processing' | 'production';

export interface ProcessorContextOptions {
  applicationId?: string;
  taskId: string;
  partition: number;
  collector: RecordCollector;
  stores: Map<string, KeyValueStore>;
  /** Every store of the task, of any kind (window, session, suppression, join stores too). */
  stateStores?: Map<string, TaskStateStore>;
  /** The application's global stores (readable from any processor). */
  globalStores?: Map<string, KeyValueStore>;
  /** Record caches of the task's caching stores, by store name. */
  caches?: Map<string, NamedCache>;
  taskMetrics: TaskMetrics;
  processingHandler: ExceptionHandling;
  /** `default.production.exception.handler` (sinks); log-and-fail when absent. */
  productionHandler?: ExceptionHandling;
  /** `errors.dead.letter.queue.topic.name`: handled records are copied there. */
  deadLetterQueueTopic?: string | null;
  /** The backend's check of a record before it is buffered (Backend#checkRecord). */
  produceCheck?: ((record: ProduceRecord) => Error | null) | undefined;
  /** The partition count of a topic, for custom partitioners (Kafka's producer partitionsFor). */
  partitionsFor?: ((topic: string) => number | undefined) | undefined;
  /** Receives every handled error (for status, logs). */
  onError: (error: ProcessingError) => void;
  /** After a dead-letter copy is written: the error's `deadLetter` has its partition and offset. */
  onDeadLetterWritten?: ((error: ProcessingError) => void) | undefined;
  /** Wall clock for e2e latency; injectable for deterministic tests. */
  now?: () => number;
}

export class ProcessorContext {
  readonly applicationId: string;
  readonly taskId: string;
  readonly partition: number;
  readonly collector: RecordCollector;
  readonly stores: Map<string, KeyValueStore>;
  readonly stateStores: Map<string, TaskStateStore>;
  readonly globalStores: Map<string, KeyValueStore>;
  readonly caches: Map<string, NamedCache>;
  readonly taskMetrics: TaskMetrics;
  recordMetadata: RecordMetadata | null = null;
  /** The source record being processed, as read (its raw bytes go to the dead-letter topic). */
  sourceRecord: StoredRecord | null = null;
  /**
   * The last source key deserialized by a serde with `exactBytes`, its bytes and that serde (null:
   * none): a sink with the same serde writes a key `===` to it as those bytes, without serializing
   * it again (one typed array less per record). Always set together, so they stay consistent.
   */
  sourceKeySerde: Serde<unknown> | null = null;
  sourceKey: unknown = undefined;
  sourceKeyBytes: Uint8Array | null = null;
  streamTime = -Infinity;
  /** Timestamp of the record (or punctuation) being processed: what store writes carry. */
  currentTimestamp = 0;
  /**
   * The wall clock of the current batch, set by the task before processing (Kafka's cached
   * currentSystemTimeMs): e2e latency reads it instead of the clock, once per record and node.
   */
  systemTimeMs = 0;
  /** Set by a processor's commit(); the thread commits the task soon after. */
  commitRequested = false;
  readonly streamTimePunctuation = new PunctuationQueue();
  readonly wallClockPunctuation = new PunctuationQueue();
  /** Nodes by name, for punctuators (they run as the node that scheduled them). */
  readonly nodes = new Map<string, ProcessorNode>();
  #current: ProcessorNode | null = null;
  /** How many timed process() calls are on the stack, and the time their children took (ms). */
  #timing = 0;
  #childMs = 0;
  readonly #handler: ExceptionHandling;
  readonly productionHandler: ExceptionHandling;
  readonly produceCheck: ((record: ProduceRecord) => Error | null) | undefined;
  readonly partitionsFor: (topic: string) => number | undefined;
  readonly #deadLetterTopic: string | null;
  readonly #onError: (error: ProcessingError) => void;
  readonly #onDeadLetterWritten: ((error: ProcessingError) => void) | undefined;
  readonly #now: () => number;

  constructor(options: ProcessorContextOptions) {
    this.applicationId = options.applicationId ?? '';
    this.taskId = options.taskId;
    this.partition = options.partition;
    this.collector = options.collector;
    this.stores = options.stores;
    this.stateStores = options.stateStores ?? new Map();
    this.globalStores = options.globalStores ?? new Map();
    this.caches = options.caches ?? new Map();
    this.taskMetrics = options.taskMetrics;
    this.#handler = options.processingHandler;
    this.productionHandler = options.productionHandler ?? 'log-and-fail';
    this.produceCheck = options.produceCheck;
    this.partitionsFor = options.partitionsFor ?? (() => undefined);
    this.#deadLetterTopic = options.deadLetterQueueTopic ?? null;
    this.#onError = options.onError;
    this.#onDeadLetterWritten = options.onDeadLetterWritten;
    this.#now = options.now ?? Date.now;
  }

  get currentNode(): ProcessorNode | null {
    return this.#current;
  }

  store(name: string): KeyValueStore {
    const s = this.stores.get(name) ?? this.globalStores.get(name);
    if (!s)
      throw new Error(`processor ${this.#current?.name ?? '?'} is not connected to store ${name}`);
    return s;
  }

  /** The task's store `name`, which must be of the class given (a window store, a buffer…). */
  stateStore<T extends TaskStateStore>(
    name: string,
    kind: abstract new (...args: never[]) => T,
  ): T {
    const s = this.stateStores.get(name);
    if (s instanceof kind) return s;
    throw new Error(
      s === undefined
        ? `processor ${this.#current?.name ?? '?'} is not connected to store ${name}`
        : `store ${name} is not a ${kind.name} (it is a ${s.constructor.name})`,
    );
  }

  /** The store's record cache, or null when it does not cache (state/record-cache.ts). */
  recordCache(storeName: string): NamedCache | null {
    return this.caches.get(storeName) ?? null;
  }

  /** Forwards to every child of the current node, depth-first. */
  forward(record: EngineRecord): void {
    const children = this.#current!.children;
    for (let i = 0; i < children.length; i++) this.process(children[i]!, record);
  }

  /** Forwards to the current node's child named `childName` only (Kafka's forward(record, child)). */
  forwardTo(record: EngineRecord, childName: string): void {
    const node = this.#current!;
    const child = node.children.find((c) => c.name === childName);
    if (!child) {
      throw new Error(
        `unknown downstream node: "${childName}" is not a child of ${node.name} (children: ${node.children.map((c) => c.name).join(', ') || 'none'})`,
      );
    }
    this.process(child, record);
  }

  wallClockMs(): number {
    return this.#now();
  }

  /**
   * Runs `fn` as `node` outside the record path (init, punctuation), with that node's error
   * handling (or `handling`).
   */
  runAs(
    node: ProcessorNode,
    timestamp: number,
    fn: () => void,
    handling: ExceptionHandling = this.#handler,
  ): void {
    const previous = this.#current;
    const previousTimestamp = this.currentTimestamp;
    this.#current = node;
    this.currentTimestamp = timestamp;
    try {
      fn();
    } catch (error) {
      if (error instanceof FailedProcessingError) throw error;
      this.handleError(node, null, error, handling);
    } finally {
      this.#current = previous;
      this.currentTimestamp = previousTimestamp;
    }
  }

  /** Fires due punctuations of one kind (StreamTask#maybePunctuateStreamTime / SystemTime). */
  punctuate(queue: PunctuationQueue, now: number): boolean {
    return queue.mayPunctuate(now, (schedule: PunctuationSchedule, at: number) => {
      const node = this.nodes.get(schedule.nodeName);
      if (!node) return;
      const metadata = this.recordMetadata;
      this.recordMetadata = null;
      try {
        this.runAs(node, at, () => schedule.punctuator(at));
      } finally {
        this.recordMetadata = metadata;
      }
    });
  }

  /**
   * Runs one node on one record, applying the processing exception handler to what it throws.
   * One record in BUSY_SAMPLE_EVERY per node is timed, with everything it forwards (see
   * #processTimed), for the node's busy-ratio; the others cost a decrement.
   */
  process(node: ProcessorNode, record: EngineRecord): void {
    if (this.#timing === 0 && --node.untilTimed !== 0) this.#run(node, record);
    else this.#processTimed(node, record);
  }

  /**
   * Times one node's process() exclusive of its children: while a timed record runs, every node
   * it reaches is timed too and adds its inclusive time to #childMs, which the parent subtracts.
   */
  #processTimed(node: ProcessorNode, record: EngineRecord): void {
    // Timed under a parent counts as this node's sample too, so a chain is sampled in step.
    node.untilTimed = BUSY_SAMPLE_EVERY;
    const outerChildMs = this.#childMs;
    this.#childMs = 0;
    this.#timing++;
    const started = performance.now();
    try {
      this.#run(node, record);
    } finally {
      const elapsed = performance.now() - started;
      this.#timing--;
      node.metrics.recordBusySample(elapsed - this.#childMs);
      this.#childMs = outerChildMs + elapsed;
    }
  }

  #run(node: ProcessorNode, record: EngineRecord): void {
    const previous = this.#current;
    const previousTimestamp = this.currentTimestamp;
    this.#current = node;
    this.currentTimestamp = record.timestamp;
    node.metrics.processTotal++;
    try {
      node.processor.process(record);
      if (node.recordsE2e) node.metrics.recordE2eLatency(this.systemTimeMs - record.timestamp);
    } catch (error) {
      if (error instanceof FailedProcessingError) throw error;
      this.handleError(node, record, error, this.#handler);
    } finally {
      this.#current = previous;
      this.currentTimestamp = previousTimestamp;
    }
  }

  /**
   * Records the error and, with a dead-letter topic, copies the record there; with
   * log-and-continue the record is dropped (counted in dropped-records), with log-and-fail a
   * FailedProcessingError stops the task. `bytes` are what goes to the dead-letter topic: the
   * source record's raw bytes unless given (a production error passes the produced record's).
   */
  handleError(
    node: ProcessorNode,
    record: EngineRecord | null,
    error: unknown,
    handling: ExceptionHandling,
    kind: HandlerKind = 'processing',
    bytes?: { key: Uint8Array | null; value: Uint8Array | null },
  ): void {
    const detail: ProcessingError = {
      taskId: this.taskId,
      processor: node.name,
      message: errorMessage(error),
      record: record === null ? null : this.#decoded(record),
      at: this.#now(),
      handling: handling === 'log-and-continue' ? 'continue' : 'fail',
      handler: kind,
    };
    if (node.modelNodeId !== undefined) detail.modelNodeId = node.modelNodeId;
    if (this.#deadLetterTopic !== null) this.#sendToDeadLetterTopic(detail, record, error, bytes);
    this.#onError(detail);
    if (handling === 'log-and-continue') {
      this.taskMetrics.droppedRecordsTotal++;
      return;
    }
    throw new FailedProcessingError(detail, error);
  }

  #sendToDeadLetterTopic(
    detail: ProcessingError,
    record: EngineRecord | null,
    error: unknown,
    bytes: { key: Uint8Array | null; value: Uint8Array | null } | undefined,
  ): void {
    const topic = this.#deadLetterTopic!;
    const raw = this.sourceRecord;
    const m = this.recordMetadata;
    const dlq = deadLetterRecord(
      topic,
      bytes ? bytes.key : (raw?.key ?? null),
      bytes ? bytes.value : (raw?.value ?? null),
      {
        topic: m?.topic ?? '',
        partition: m?.partition ?? this.partition,
        offset: m?.offset ?? -1,
        timestamp: record?.timestamp ?? this.currentTimestamp,
        headers: record?.headers ?? raw?.headers ?? {},
      },
      error,
    );
    const where: NonNullable<ProcessingError['deadLetter']> = { topic };
    detail.deadLetter = where;
    this.collector.send(dlq, (partition, offset) => {
      where.partition = partition;
      where.offset = offset;
      this.#onDeadLetterWritten?.(detail);
    });
  }

  #decoded(record: EngineRecord): DecodedRecord {
    const m = this.recordMetadata;
    return {
      topic: m?.topic ?? '',
      partition: m?.partition ?? this.partition,
      offset: m?.offset ?? -1,
      timestamp: record.timestamp,
      key: record.key,
      value: record.value,
      headers: record.headers,
    };
  }
}
