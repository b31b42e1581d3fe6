// Plain counters on the hot path: code bumps a property (`node.metrics.processTotal++`); names,
// rates, averages and ratios are computed only when a snapshot is taken.
//
// Each group keeps its counters in a Float64Array over a SharedArrayBuffer. A stream thread running
// in a worker writes them and the main thread's registry reads the same memory, so metrics() and
// status() see a worker's counters as they are, without messages or copies. Each group has exactly
// one writer at a time (a task runs on one thread at a time), and a reader sees each aligned
// 8-byte value whole, so no locking is needed; a snapshot may mix counters a few records apart.

/** Declares one accessor per slot on the prototype: `processTotal` reads/writes `values[i]`. */
function defineSlots(proto: object, names: readonly string[]): void {
  names.forEach((name, i) => {
    Object.defineProperty(proto, name, {
      get(this: MetricGroup) {
        return this.values[i];
      },
      set(this: MetricGroup, v: number) {
        this.values[i] = v;
      },
      enumerable: true,
    });
  });
}

export abstract class MetricGroup {
  readonly values: Float64Array;
  /** A fresh buffer is all zeros; a buffer handed over from another thread keeps its counts. */
  constructor(buffer: SharedArrayBuffer, slots: number) {
    if (buffer.byteLength !== slots * 8)
      throw new RangeError(`a metric group of ${slots} slots got ${buffer.byteLength} bytes`);
    this.values = new Float64Array(buffer);
  }
}

// ---- thread ---------------------------------------------------------------------------------------

const THREAD_SLOTS = [
  'processTotal', // records processed
  'processIterations', // loop iterations that processed at least one record
  'processLatencySum', // Σ per-iteration (ms / record)
  'processLatencyMax',
  'processRecordsMax', // most records processed in one iteration
  'processTimeMs', // time spent processing, for process-ratio
  'pollTotal',
  'pollLatencySum',
  'pollLatencyMax',
  'pollRecordsTotal',
  'pollRecordsMax',
  'pollTimeMs',
  'commitTotal',
  'commitLatencySum',
  'commitLatencyMax',
  'commitTimeMs',
  'punctuateTotal', // punctuations fired
  'punctuateLatencySum', // Σ per-call (ms / punctuation)
  'punctuateCalls', // thread punctuate phases that fired at least one punctuation
  'punctuateLatencyMax',
  'punctuateTimeMs',
  'taskCreatedTotal',
  'taskClosedTotal',
  'blockedTimeNs', // time spent waiting in poll for data
  'startTime', // thread-start-time, epoch ms
] as const;

export class ThreadMetrics extends MetricGroup {
  declare processTotal: number;
  declare processIterations: number;
  declare processLatencySum: number;
  declare processLatencyMax: number;
  declare processRecordsMax: number;
  declare processTimeMs: number;
  declare pollTotal: number;
  declare pollLatencySum: number;
  declare pollLatencyMax: number;
  declare pollRecordsTotal: number;
  declare pollRecordsMax: number;
  declare pollTimeMs: number;
  declare commitTotal: number;
  declare commitLatencySum: number;
  declare commitLatencyMax: number;
  declare commitTimeMs: number;
  declare punctuateTotal: number;
  declare punctuateLatencySum: number;
  declare punctuateCalls: number;
  declare punctuateLatencyMax: number;
  declare punctuateTimeMs: number;
  declare taskCreatedTotal: number;
  declare taskClosedTotal: number;
  declare blockedTimeNs: number;
  declare startTime: number;
  static readonly SLOTS = THREAD_SLOTS.length;
  constructor(buffer: SharedArrayBuffer = newSlots(ThreadMetrics.SLOTS)) {
    super(buffer, ThreadMetrics.SLOTS);
  }

  /** One loop iteration processed `records` in `ms` (StreamThread's processLatency / processed). */
  recordProcess(records: number, ms: number): void {
    if (records === 0) return;
    const perRecord = ms / records;
    this.processTotal += records;
    this.processIterations++;
    this.processLatencySum += perRecord;
    if (perRecord > this.processLatencyMax) this.processLatencyMax = perRecord;
    if (records > this.processRecordsMax) this.processRecordsMax = records;
    this.processTimeMs += ms;
  }

  recordPoll(records: number, ms: number, blockedMs: number): void {
    this.pollTotal++;
    this.pollLatencySum += ms;
    if (ms > this.pollLatencyMax) this.pollLatencyMax = ms;
    this.pollRecordsTotal += records;
    if (records > this.pollRecordsMax) this.pollRecordsMax = records;
    this.pollTimeMs += ms;
    this.blockedTimeNs += Math.round(blockedMs * 1e6);
  }

  recordCommit(ms: number): void {
    this.commitTotal++;
    this.commitLatencySum += ms;
    if (ms > this.commitLatencyMax) this.commitLatencyMax = ms;
    this.commitTimeMs += ms;
  }

  recordPunctuate(punctuations: number, ms: number): void {
    if (punctuations === 0) return;
    const perPunctuation = ms / punctuations;
    this.punctuateTotal += punctuations;
    this.punctuateCalls++;
    this.punctuateLatencySum += perPunctuation;
    if (perPunctuation > this.punctuateLatencyMax) this.punctuateLatencyMax = perPunctuation;
    this.punctuateTimeMs += ms;
  }
}
defineSlots(ThreadMetrics.prototype, THREAD_SLOTS);

// ---- task -----------------------------------------------------------------------------------------

/** Task.State as a number in the task's slots, so the main thread can read a worker's task states. */
export const TASK_STATE_CODES = [
  'CREATED',
  'RESTORING',
  'RUNNING',
  'SUSPENDED',
  'CLOSED',
  'FAILED',
] as const;

const TASK_SLOTS = [
  'processTotal',
  'processTurns', // task turns (a run of records processed back to back) with at least one record
  'processLatencySum', // Σ per-turn (ms / record)
  'processLatencyMax',
  'activeTimeMs', // time spent processing this task, for active-process-ratio
  'droppedRecordsTotal',
  'recordLatenessSum',
  'recordLatenessCount',
  'recordLatenessMax',
  'enforcedProcessingTotal',
  'restoreTotal',
  'restoreRemainingRecordsTotal',
  'updateTotal', // changelog records a standby applied (Kafka Streams' update-total, KIP-869)
  'standbyLag', // a standby's changelog records behind their ends (KIP-535's offset lag)
  // Status, not metrics: the running thread's index (0 = none), TASK_STATE_CODES index, stream time.
  'ownerThread',
  'stateCode',
  'streamTime',
  'standby', // 1 while the owner runs it as a standby replica
] as const;

export class TaskMetrics extends MetricGroup {
  declare processTotal: number;
  declare processTurns: number;
  declare processLatencySum: number;
  declare processLatencyMax: number;
  declare activeTimeMs: number;
  declare droppedRecordsTotal: number;
  declare recordLatenessSum: number;
  declare recordLatenessCount: number;
  declare recordLatenessMax: number;
  declare enforcedProcessingTotal: number;
  declare restoreTotal: number;
  declare restoreRemainingRecordsTotal: number;
  declare updateTotal: number;
  declare standbyLag: number;
  declare ownerThread: number;
  declare standby: number;
  declare stateCode: number;
  declare streamTime: number;
  static readonly SLOTS = TASK_SLOTS.length;
  constructor(buffer: SharedArrayBuffer = newSlots(TaskMetrics.SLOTS)) {
    super(buffer, TaskMetrics.SLOTS);
  }

  recordLateness(ms: number): void {
    this.recordLatenessSum += ms;
    this.recordLatenessCount++;
    if (ms > this.recordLatenessMax) this.recordLatenessMax = ms;
  }

  /** One turn of this task on its thread: `records` processed in `ms`. */
  recordTurn(records: number, ms: number): void {
    this.activeTimeMs += ms;
    if (records === 0) return;
    const perRecord = ms / records;
    this.processTurns++;
    this.processLatencySum += perRecord;
    if (perRecord > this.processLatencyMax) this.processLatencyMax = perRecord;
  }
}
defineSlots(TaskMetrics.prototype, TASK_SLOTS);

// ---- processor node -------------------------------------------------------------------------------

const NODE_SLOTS = [
  'processTotal',
  'recordsConsumedTotal',
  'recordsProducedTotal',
  'e2eCount',
  'e2eSum',
  'e2eMin',
  'e2eMax',
  'busySamples', // records whose processing was timed (1 in BUSY_SAMPLE_EVERY)
  'busyTimeMs', // their processing time, exclusive of the nodes they were forwarded to
] as const;

export class NodeMetrics extends MetricGroup {
  declare processTotal: number;
  declare recordsConsumedTotal: number;
  declare recordsProducedTotal: number;
  declare e2eCount: number;
  declare e2eSum: number;
  declare e2eMin: number;
  declare e2eMax: number;
  declare busySamples: number;
  declare busyTimeMs: number;
  static readonly SLOTS = NODE_SLOTS.length;
  constructor(buffer: SharedArrayBuffer = newSlots(NodeMetrics.SLOTS)) {
    super(buffer, NodeMetrics.SLOTS);
  }

  /** Wall clock at processing minus the record's timestamp (ms); min/max are meaningful once e2eCount > 0. */
  recordE2eLatency(ms: number): void {
    const v = this.values;
    const count = v[3]!;
    if (count === 0 || ms < v[5]!) v[5] = ms;
    if (count === 0 || ms > v[6]!) v[6] = ms;
    v[3] = count + 1;
    v[4] = v[4]! + ms;
  }

  recordBusySample(ms: number): void {
    const v = this.values;
    v[7] = v[7]! + 1;
    v[8] = v[8]! + ms;
  }
}
defineSlots(NodeMetrics.prototype, NODE_SLOTS);

// ---- state store ---------------------------------------------------------------------------------

/** The store operations Kafka Streams' MeteredKeyValueStore times (all() counts as a range). */
export const STORE_OPERATIONS = ['put', 'get', 'delete', 'range', 'flush', 'restore'] as const;
export type StoreOperation = (typeof STORE_OPERATIONS)[number];

/** Per operation: calls, Σ latency (ns), max latency (ns); then records restored. */
const STORE_SLOTS = [
  ...STORE_OPERATIONS.flatMap((op) => [`${op}Total`, `${op}LatencySumNs`, `${op}LatencyMaxNs`]),
  'restoredRecordsTotal',
] as const;

export class StoreMetrics extends MetricGroup {
  declare restoredRecordsTotal: number;
  static readonly SLOTS = STORE_SLOTS.length;
  constructor(buffer: SharedArrayBuffer = newSlots(StoreMetrics.SLOTS)) {
    super(buffer, StoreMetrics.SLOTS);
  }

  record(op: StoreOperation, ns: number): void {
    const v = this.values;
    const i = STORE_OPERATIONS.indexOf(op) * 3;
    v[i] = v[i]! + 1;
    v[i + 1] = v[i + 1]! + ns;
    if (ns > v[i + 2]!) v[i + 2] = ns;
  }

  total(op: StoreOperation): number {
    return this.values[STORE_OPERATIONS.indexOf(op) * 3]!;
  }

  latencyAvgNs(op: StoreOperation): number {
    const i = STORE_OPERATIONS.indexOf(op) * 3;
    const n = this.values[i]!;
    return n === 0 ? 0 : this.values[i + 1]! / n;
  }

  latencyMaxNs(op: StoreOperation): number {
    return this.values[STORE_OPERATIONS.indexOf(op) * 3 + 2]!;
  }
}
// restoredRecordsTotal is the last slot.
Object.defineProperty(StoreMetrics.prototype, 'restoredRecordsTotal', {
  get(this: StoreMetrics) {
    return this.values[STORE_SLOTS.length - 1];
  },
  set(this: StoreMetrics, v: number) {
    this.values[STORE_SLOTS.length - 1] = v;
  },
});

// ---- record cache ----------------------------------------------------------------------------------

/**
 * Kafka Streams' stream-record-cache-metrics (DEBUG): at each cache hit the hit ratio so far
 * (hits / (hits + misses)) is recorded; hit-ratio-avg|min|max are over those recordings.
 */
export class CacheMetrics extends MetricGroup {
  static readonly SLOTS = 6; // hits, misses, Σ ratio, ratio samples, min, max
  constructor(buffer: SharedArrayBuffer = newSlots(CacheMetrics.SLOTS)) {
    super(buffer, CacheMetrics.SLOTS);
  }

  hit(): void {
    const v = this.values;
    const hits = v[0]! + 1;
    v[0] = hits;
    const ratio = hits / (hits + v[1]!);
    const n = v[3]!;
    if (n === 0 || ratio < v[4]!) v[4] = ratio;
    if (n === 0 || ratio > v[5]!) v[5] = ratio;
    v[2] = v[2]! + ratio;
    v[3] = n + 1;
  }

  miss(): void {
    this.values[1] = this.values[1]! + 1;
  }

  /** hit-ratio-avg|min|max; NaN before the first hit, as Kafka's sensors. */
  hitRatio(): { avg: number; min: number; max: number } {
    const v = this.values;
    const n = v[3]!;
    return n === 0 ? { avg: NaN, min: NaN, max: NaN } : { avg: v[2]! / n, min: v[4]!, max: v[5]! };
  }
}

// ---- suppression buffer -------------------------------------------------------------------------

/**
 * A suppression buffer's stream-state-metrics (Kafka's suppression-buffer-size-* in bytes and
 * suppression-buffer-count-*, DEBUG), sampled whenever the buffer changes.
 */
export class BufferMetrics extends MetricGroup {
  static readonly SLOTS = 5; // samples, Σ size, max size, Σ count, max count
  constructor(buffer: SharedArrayBuffer = newSlots(BufferMetrics.SLOTS)) {
    super(buffer, BufferMetrics.SLOTS);
  }

  record(bytes: number, count: number): void {
    const v = this.values;
    v[0] = v[0]! + 1;
    v[1] = v[1]! + bytes;
    if (bytes > v[2]!) v[2] = bytes;
    v[3] = v[3]! + count;
    if (count > v[4]!) v[4] = count;
  }

  get samples(): number {
    return this.values[0]!;
  }
  sizeAvg(): number {
    return this.samples === 0 ? 0 : this.values[1]! / this.samples;
  }
  sizeMax(): number {
    return this.values[2]!;
  }
  countAvg(): number {
    return this.samples === 0 ? 0 : this.values[3]! / this.samples;
  }
  countMax(): number {
    return this.values[4]!;
  }
}

export function newSlots(count: number): SharedArrayBuffer {
  return new SharedArrayBuffer(count * 8);
}
