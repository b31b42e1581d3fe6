// Transactions, as Kafka's transaction coordinator runs them, on one node:
//   - a transactional id maps to a producer id and an epoch; initTransactions bumps the epoch, which
//     fences any older producer with the same id (its open transaction is aborted);
//   - before a transaction first writes to a partition, that partition (and the log end offset
//     there, a lower bound of the transaction's first offset) is recorded durably in the internal
//     compacted topic `__transaction_state`;
//   - commit/abort: PrepareCommit|PrepareAbort is written durably, then a COMMIT|ABORT marker goes
//     to every partition of the transaction, then Complete*. After a crash, open() completes a
//     prepared commit and aborts anything else, before any reader is served;
//   - read_committed readers stop at the last stable offset (the first offset of any open
//     transaction), so they never see part of a transaction.
import { LogError, LogErrorCode } from '../errors.js';
import type { GroupCoordinator } from '../groups/coordinator.js';
import type {
  BatchesAppended,
  PartitionBatches,
  ProduceBatchesOptions,
  TransactionalAppend,
} from '../produce.js';
import type { PartitionLog } from '../storage/partition-log.js';
import type {
  FetchOptions,
  FetchResult,
  ProduceOptions,
  ProducerRecord,
  RecordMetadata,
  TopicPartition,
} from '../types.js';

export const TRANSACTION_STATE_TOPIC = '__transaction_state';

export type TxnStatus =
  'Empty' | 'Ongoing' | 'PrepareCommit' | 'PrepareAbort' | 'CompleteCommit' | 'CompleteAbort';

export interface TxnMetadata {
  transactionalId: string;
  producerId: number;
  epoch: number;
  status: TxnStatus;
  partitions: { topic: string; partition: number; firstOffset: number }[];
  timeoutMs: number;
}

export interface TxnHost {
  readonly clock: () => number;
  produce(records: readonly ProducerRecord[], opts?: ProduceOptions): Promise<RecordMetadata[]>;
  produceTransactional(
    records: readonly ProducerRecord[],
    opts: ProduceOptions,
    txn: TransactionalAppend,
  ): Promise<RecordMetadata[]>;
  /** Throws synchronously when the batches are refused (nothing written). */
  produceTransactionalBatches(
    parts: readonly PartitionBatches[],
    opts: ProduceBatchesOptions,
    txn: TransactionalAppend,
  ): Promise<BatchesAppended[]>;
  fetch(
    topic: string,
    partition: number,
    offset: number,
    opts?: FetchOptions,
  ): Promise<FetchResult>;
  earliestOffset(topic: string, partition: number): number;
  partition(topic: string, partition: number): PartitionLog;
  hasTopic(name: string): boolean;
  warn(message: string, err?: unknown): void;
}

export interface TransactionalProducerOptions {
  /** Kafka's transaction.timeout.ms (default 60 s): an open transaction older than this is aborted. */
  transactionTimeoutMs?: number;
}

const fenced = (id: string, epoch: number): LogError =>
  new LogError(
    LogErrorCode.PRODUCER_FENCED,
    `transactional producer ${id} with epoch ${epoch} has been fenced by a newer instance (or timed out)`,
  );

export class TransactionCoordinator {
  private readonly txns = new Map<string, TxnMetadata>();
  private nextProducerId = 1000;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Serialises state changes per transactional id. */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(
    private readonly host: TxnHost,
    private readonly groups: GroupCoordinator,
  ) {}

  /** Replays `__transaction_state`, then finishes what a crash interrupted. */
  async load(): Promise<void> {
    let offset = this.host.earliestOffset(TRANSACTION_STATE_TOPIC, 0);
    for (;;) {
      const r = await this.host.fetch(TRANSACTION_STATE_TOPIC, 0, offset, { maxBytes: 4 << 20 });
      for (const rec of r.records) {
        if (!rec.key || !rec.value) continue;
        const meta = JSON.parse(Buffer.from(rec.value).toString()) as TxnMetadata;
        this.txns.set(meta.transactionalId, meta);
        this.nextProducerId = Math.max(this.nextProducerId, meta.producerId + 1);
      }
      if (r.nextOffset === offset) break;
      offset = r.nextOffset;
    }
    for (const meta of this.txns.values()) {
      if (meta.status === 'PrepareCommit') await this.complete(meta, true);
      else if (meta.status === 'Ongoing' || meta.status === 'PrepareAbort') {
        // The producer died with the process: abort, with a bumped epoch as Kafka does on timeout.
        meta.epoch++;
        await this.complete(meta, false);
      }
    }
  }

  private async persist(meta: TxnMetadata): Promise<void> {
    await this.host.produce([
      {
        topic: TRANSACTION_STATE_TOPIC,
        partition: 0,
        key: Buffer.from(meta.transactionalId),
        value: Buffer.from(JSON.stringify(meta)),
      },
    ]);
  }

  private locked<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(id) ?? Promise.resolve();
    // A lock only orders the calls of one transactional id: each caller gets its own run's error.
    // eslint-disable-next-line no-restricted-syntax -- see above
    const run = prev.catch(() => undefined).then(fn);
    // eslint-disable-next-line no-restricted-syntax -- see above
    const tail = run.catch(() => undefined);
    this.locks.set(id, tail);
    void tail.then(() => {
      if (this.locks.get(id) === tail) this.locks.delete(id);
    });
    return run;
  }

  /** Writes markers to every partition of the transaction, then the Complete state. */
  private async complete(meta: TxnMetadata, commit: boolean): Promise<void> {
    meta.status = commit ? 'PrepareCommit' : 'PrepareAbort';
    await this.persist(meta);
    const durable: Promise<void>[] = [];
    for (const tp of meta.partitions) {
      if (!this.host.hasTopic(tp.topic)) continue; // deleted meanwhile: nothing left to mark
      const log = this.host.partition(tp.topic, tp.partition);
      const info = log.appendMarker(
        meta.producerId,
        meta.epoch,
        commit ? 'COMMIT' : 'ABORT',
        tp.firstOffset,
      );
      durable.push(log.flusher.waitDurable(info.lastOffset));
    }
    await Promise.all(durable);
    this.groups.completeTxnOffsets(meta.producerId, commit);
    meta.status = commit ? 'CompleteCommit' : 'CompleteAbort';
    meta.partitions = [];
    await this.persist(meta);
    const t = this.timers.get(meta.transactionalId);
    if (t) clearTimeout(t);
    this.timers.delete(meta.transactionalId);
  }

  /** Kafka's initTransactions: a new epoch for this id, fencing older producers. */
  init(
    transactionalId: string,
    opts: TransactionalProducerOptions = {},
  ): Promise<TransactionalProducer> {
    if (!transactionalId)
      return Promise.reject(new LogError(LogErrorCode.INVALID_CONFIG, 'transactional id is empty'));
    return this.locked(transactionalId, async () => {
      let meta = this.txns.get(transactionalId);
      let bumped = false;
      if (
        meta &&
        (meta.status === 'Ongoing' ||
          meta.status === 'PrepareAbort' ||
          meta.status === 'PrepareCommit')
      ) {
        const commit = meta.status === 'PrepareCommit';
        if (!commit) {
          meta.epoch++; // fence the old producer before its markers go out; the new one keeps this epoch
          bumped = true;
        }
        await this.complete(meta, commit);
      }
      if (!meta) {
        meta = {
          transactionalId,
          producerId: this.nextProducerId++,
          epoch: 0,
          status: 'Empty',
          partitions: [],
          timeoutMs: 60_000,
        };
        this.txns.set(transactionalId, meta);
      } else {
        if (!bumped) meta.epoch++;
        meta.status = 'Empty';
      }
      if (meta.epoch > 32767) {
        meta.producerId = this.nextProducerId++;
        meta.epoch = 0;
      }
      meta.timeoutMs = opts.transactionTimeoutMs ?? 60_000;
      await this.persist(meta);
      return new TransactionalProducer(this, transactionalId, meta.producerId, meta.epoch);
    });
  }

  /** @internal */
  current(id: string, epoch: number): TxnMetadata {
    const meta = this.txns.get(id);
    if (!meta || meta.epoch !== epoch) throw fenced(id, epoch);
    return meta;
  }

  /** @internal records `log` in the transaction before its first append there. */
  async addPartition(id: string, epoch: number, log: PartitionLog): Promise<void> {
    const meta = this.current(id, epoch);
    if (meta.partitions.some((p) => p.topic === log.topic && p.partition === log.partition)) return;
    meta.partitions.push({
      topic: log.topic,
      partition: log.partition,
      firstOffset: log.logEndOffset,
    });
    const starting = meta.status !== 'Ongoing';
    meta.status = 'Ongoing';
    await this.persist(meta);
    this.current(id, epoch);
    if (starting) this.armTimeout(meta);
  }

  private armTimeout(meta: TxnMetadata): void {
    const id = meta.transactionalId;
    const epoch = meta.epoch;
    const t = setTimeout(() => {
      const m = this.txns.get(id);
      if (m && m.epoch === epoch && m.status === 'Ongoing') {
        this.host.warn(
          `transaction ${id} exceeded transaction.timeout.ms (${m.timeoutMs} ms): aborting it and fencing its producer`,
        );
        void this.locked(id, async () => {
          m.epoch++;
          await this.complete(m, false);
        }).catch((e: unknown) => this.host.warn(`could not abort timed-out transaction ${id}`, e));
      }
    }, meta.timeoutMs);
    t.unref();
    this.timers.set(id, t);
  }

  /** @internal */
  end(id: string, epoch: number, commit: boolean): Promise<void> {
    return this.locked(id, async () => {
      const meta = this.current(id, epoch);
      if (meta.status === 'PrepareCommit' || meta.status === 'PrepareAbort') {
        throw new LogError(LogErrorCode.INVALID_TXN_STATE, `transaction ${id} is ${meta.status}`);
      }
      if (meta.partitions.length === 0) {
        this.groups.completeTxnOffsets(meta.producerId, commit);
        return;
      }
      await this.complete(meta, commit);
    });
  }

  get groupCoordinator(): GroupCoordinator {
    return this.groups;
  }

  get logHost(): TxnHost {
    return this.host;
  }

  close(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}

/** A transactional producer (Kafka's KafkaProducer with a transactional.id). */
export class TransactionalProducer {
  private inTxn = false;
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly coordinator: TransactionCoordinator,
    readonly transactionalId: string,
    readonly producerId: number,
    readonly epoch: number,
  ) {}

  beginTransaction(): void {
    this.coordinator.current(this.transactionalId, this.epoch);
    if (this.inTxn)
      throw new LogError(LogErrorCode.INVALID_TXN_STATE, 'a transaction is already open');
    this.inTxn = true;
  }

  private ensureTxn(): void {
    this.coordinator.current(this.transactionalId, this.epoch);
    if (!this.inTxn)
      throw new LogError(LogErrorCode.INVALID_TXN_STATE, 'call beginTransaction() first');
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    const done = (): void => void this.inflight.delete(p);
    p.then(done, done);
    return p;
  }

  private appendHook(): TransactionalAppend {
    return {
      producerId: this.producerId,
      producerEpoch: this.epoch,
      beforeAppend: (log) => this.coordinator.addPartition(this.transactionalId, this.epoch, log),
    };
  }

  /** Appends records inside the transaction; their offsets are final, their visibility waits for commit. */
  send(
    records: readonly ProducerRecord[],
    opts: Omit<ProduceOptions, 'acks'> = {},
  ): Promise<RecordMetadata[]> {
    try {
      this.ensureTxn();
      return this.track(
        this.coordinator.logHost.produceTransactional(
          records,
          { ...opts, acks: 1 },
          this.appendHook(),
        ),
      );
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * Appends batches this producer encoded itself (a BatchEncoder with `transactional` set to this
   * producer's id and epoch, e.g. in a worker thread) inside the transaction. They are validated
   * as any producer's batches, and must carry this producer's id and epoch. A refused request
   * (stale metadata, a bad batch) wrote nothing and leaves the transaction as it was; a failed
   * append aborts it at commit, as a failed send does. `checks: 'headers'` as for
   * Log.produceBatches (this package's encoder in this process).
   */
  sendBatches(
    parts: readonly PartitionBatches[],
    opts: Pick<ProduceBatchesOptions, 'checks'> = {},
  ): Promise<BatchesAppended[]> {
    try {
      this.ensureTxn();
      return this.track(
        this.coordinator.logHost.produceTransactionalBatches(
          parts,
          { acks: 1, ...opts },
          this.appendHook(),
        ),
      );
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * Kafka's sendOffsetsToTransaction: the group's offsets commit with the transaction, or not at
   * all. With `member`, the group generation is checked too (KIP-447 zombie fencing).
   */
  sendOffsetsToTransaction(
    offsets: (TopicPartition & { offset: number; metadata?: string })[],
    groupId: string,
    member?: { memberId: string; generation: number },
  ): Promise<void> {
    try {
      this.ensureTxn();
      const groups = this.coordinator.groupCoordinator;
      if (member) groups.validateGeneration(groupId, member.memberId, member.generation);
      const records = groups.txnOffsetRecords(groupId, offsets);
      return this.track(
        this.coordinator.logHost
          .produceTransactional(records, { acks: 1 }, this.appendHook())
          .then(() => {
            groups.addPendingTxnOffsets(this.producerId, groupId, offsets);
          }),
      );
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private async end(commit: boolean): Promise<void> {
    this.ensureTxn();
    const results = await Promise.allSettled([...this.inflight]);
    const failed = results.find((r) => r.status === 'rejected');
    if (commit && failed) {
      // The send's failure is the error that matters (thrown below); an abort that fails too leaves
      // the transaction to transaction.timeout.ms, which aborts it.
      // eslint-disable-next-line no-restricted-syntax -- see above
      await this.coordinator.end(this.transactionalId, this.epoch, false).catch(() => undefined);
      this.inTxn = false;
      throw new LogError(
        LogErrorCode.INVALID_TXN_STATE,
        'a send of this transaction failed: it was aborted',
        { cause: (failed as PromiseRejectedResult).reason },
      );
    }
    await this.coordinator.end(this.transactionalId, this.epoch, commit);
    this.inTxn = false;
  }

  /** Makes every record and offset of the transaction visible to read_committed readers, atomically. */
  commitTransaction(): Promise<void> {
    return this.end(true);
  }

  abortTransaction(): Promise<void> {
    return this.end(false);
  }
}
