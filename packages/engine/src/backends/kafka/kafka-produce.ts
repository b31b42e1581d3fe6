// A produce on Kafka as a Kafka producer sends it: the records are encoded into v2 record batches
// by the engine's own encoder (@streamwright/log/encoder, the format the embedded log stores —
// Kafka's), one batch per partition per Produce request, sent to each partition's leader with
// acks=all, and each record's offset is its batch's base offset plus its place in the batch.
// The batches go out as the Produce request's `records` bytes as they are (client/: connection,
// version negotiation, framing). Partitions as Java's default partitioner: murmur2 of the key;
// records without a key stick to one partition per produce call. Shared by the backend's own
// producer and the per-thread producers of stream threads in workers (KafkaBackend#forThread).
//
// Idempotence (kafka-producer-session.ts): every batch carries the producer's id and epoch and
// its partition's base sequence number, so a batch sent again after a lost answer is recognised by
// the broker and not written twice. Sequence numbers are reserved when the batches are encoded,
// and produce calls are serialised so that each partition's batches reach its leader in sequence
// order. A transactional producer (kafka-transactional-producer.ts) also sets the transactional
// attribute, names its transactional id in the Produce request and adds new partitions to its
// transaction before they are written (`beforeSend`).
import { BatchEncoder, type ProducerTopicMetadata } from '@streamwright/log/encoder';
import type { ProduceCallOptions, ProduceRecord } from '../../backend-spi.js';
import { UnknownTopicError } from '../../errors.js';
import type { KafkaCluster } from './client/cluster.js';
import { errorType, isRetriable, KafkaConnectionError } from './client/errors.js';
import { protocolError } from './client/protocol.js';
import { ProducerSession } from './kafka-producer-session.js';

/**
 * Batches are split to stay under this many bytes: the broker's default message.max.bytes
 * (1 048 588) less room for the request's own framing (a partition's records as one batch
 * however large are refused beyond that limit: MESSAGE_TOO_LARGE).
 */
const MAX_BATCH_BYTES = 1_000_000;
/**
 * Attempts of a partition whose leader moved or is not there yet (9, as before). A broker that
 * cannot be reached is not counted: it is waited for (reconnect backoff), however long it takes.
 */
const ATTEMPTS = 9;
/** Errors after which a partition's batch is sent again (to its leader, looked up afresh). */
const RETRIABLE = new Set([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'KAFKA_STORAGE_ERROR',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  // Transaction version 2: the partition joins the transaction with this Produce, and the
  // transaction before is still writing its markers (Java's Sender retries it too).
  'CONCURRENT_TRANSACTIONS',
]);
/** produce's timeout (Kafka's request.timeout.ms for the leader to get acks=all). */
const PRODUCE_TIMEOUT_MS = 30_000;

/** One batch of one partition: where its records go back to (input indexes, in offset order). */
interface Batch {
  topic: string;
  partition: number;
  bytes: Buffer;
  /** Input indexes of its records, in offset order. */
  indexes: number[];
}

/**
 * Errors of an idempotent producer's batch after which its sequence numbers cannot go on: the
 * broker lost or never had the producer's state, or a newer epoch took over. The Java producer
 * bumps its epoch (KIP-360: the same producer id, sequences from 0) and sends the batches again.
 */
export const SEQUENCE_BROKEN = new Set([
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
]);

/** Thrown inside a produce of an idempotent producer: these input records were not written. */
class SequenceBroken extends Error {
  constructor(
    readonly unwritten: number[],
    readonly why: Error,
  ) {
    super(why.message);
  }
}

export interface ProducerHooks {
  /** Before a round of batches goes out: a transactional producer adds new partitions. */
  beforeSend?(partitions: { topic: string; partition: number }[]): Promise<void>;
  /** The Produce version to speak at most (transaction version 1 stops at 11). */
  maxProduceVersion?(): number | undefined;
}

export class KafkaProducer {
  readonly #encoder = new BatchEncoder();
  /** Produce calls of an idempotent producer, one after the other (sequence order). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cluster: KafkaCluster,
    private readonly partitionsOf: (topic: string) => Promise<number>,
    /** Idempotence: a producer id, epoch and sequence numbers in every batch. */
    private readonly session?: ProducerSession,
    private readonly hooks: ProducerHooks = {},
    private readonly logger?: { warn(obj: object, msg?: string): void },
  ) {}

  produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    if (records.length === 0) return Promise.resolve([]);
    const session = this.session;
    if (session === undefined) return this.#produceOnce(records, options);
    const run = this.#queue.then(() => this.#produceIdempotent(session, records, options));
    // eslint-disable-next-line no-restricted-syntax -- the queue only orders sends; the caller gets run's error
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Produces with sequence numbers; when they break (the broker forgot the producer, or fenced its
   * epoch) without a transaction, the producer bumps its epoch and the records not written yet go
   * out again under it (a transaction instead fails: the caller aborts it, bumping the epoch).
   */
  async #produceIdempotent(
    session: ProducerSession,
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    const positions = options?.positions !== false;
    const out: { partition: number; offset: number }[] = positions ? new Array(records.length) : [];
    let pending: number[] | null = null;
    for (let resets = 0; ; resets++) {
      const subset = pending === null ? records : pending.map((i) => records[i]!);
      try {
        const written = await this.#produceOnce(subset, options);
        if (positions) written.forEach((w, k) => (out[pending === null ? k : pending[k]!] = w));
        return out;
      } catch (error) {
        if (!(error instanceof SequenceBroken) || session.transactionalId !== null || resets >= 5)
          throw error instanceof SequenceBroken ? error.why : error;
        this.logger?.warn(
          { producerId: session.producerId, epoch: session.epoch, err: error.why.message },
          'Kafka: the idempotent producer lost its sequence; bumping its epoch (KIP-360) and sending the unwritten records again',
        );
        const map: number[] | null = pending;
        pending = error.unwritten.map((k): number => (map === null ? k : map[k]!));
        session.bumpEpoch();
      }
    }
  }

  async #produceOnce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    const metadata = new Map<string, ProducerTopicMetadata>();
    let last = '';
    for (const r of records) {
      if (r.topic === last || metadata.has(r.topic)) continue;
      last = r.topic;
      metadata.set(r.topic, {
        partitions: await this.partitionsOf(r.topic),
        maxMessageBytes: MAX_BATCH_BYTES,
        // The producer's compression.type (the broker applies the topic's own when it differs).
        compressionType: 'producer',
        // The broker refuses a keyless record of a compacted topic itself.
        compact: false,
      });
    }
    const session = this.session;
    // The producer id after the topics' metadata, as Java's producer: a topic the principal may
    // not describe is reported as that, not as the InitProducerId the write would need next.
    if (session) await session.ensure();
    const encoded = this.#encoder.encode(
      records,
      (t) => metadata.get(t)!,
      session
        ? {
            compression: options?.compression ?? 'none',
            idempotent: {
              producerId: session.producerId,
              producerEpoch: session.epoch,
              transactional: session.transactionalId !== null,
              sequence: (topic, partition, count) => session.sequence(topic, partition, count),
            },
          }
        : { compression: options?.compression ?? 'none' },
    );
    // Uncompressed batches are encoded synchronously, compressed ones on libuv's pool (a promise).
    const rounds: Batch[][] = [];
    for (const p of encoded.partitions) {
      let at = 0;
      let round = 0;
      for (const bytes of splitBatches(await p.batches)) {
        const count = bytes.readInt32BE(57);
        (rounds[round++] ??= []).push({
          topic: p.topic,
          partition: p.partition,
          bytes,
          indexes: p.indexes.slice(at, at + count),
        });
        at += count;
      }
    }
    const positions = options?.positions !== false;
    const out: { partition: number; offset: number }[] = positions ? new Array(records.length) : [];
    try {
      // v3+ Produce requests carry exactly one batch per partition: a partition whose records
      // were split goes out over several requests, one after the other (kept in order).
      for (let r = 0; r < rounds.length; r++) {
        const round = rounds[r]!;
        if (this.hooks.beforeSend) await this.hooks.beforeSend(round);
        let baseOffsets: number[];
        try {
          baseOffsets = await this.#send(round);
        } catch (error) {
          if (!(error instanceof SequenceBroken)) throw error;
          // The failed batches and every later round were not written.
          const unwritten = error.unwritten.flatMap((i) => round[i]!.indexes);
          for (const later of rounds.slice(r + 1))
            for (const b of later) unwritten.push(...b.indexes);
          throw new SequenceBroken(unwritten, error.why);
        }
        if (!positions) continue;
        round.forEach((b, i) => {
          const base = baseOffsets[i]!;
          for (let j = 0; j < b.indexes.length; j++)
            out[b.indexes[j]!] = { partition: b.partition, offset: base < 0 ? -1 : base + j };
        });
      }
    } catch (error) {
      // Batches whose sequence numbers were taken failed, or may or may not have been written:
      // the partitions' sequences cannot go on from there (Java bumps the epoch, KIP-360).
      session?.requireBump();
      throw error;
    } finally {
      this.#encoder.release(encoded);
    }
    return out;
  }

  /** Sends the batches (one per partition) to their leaders; resolves with their base offsets. */
  async #send(batches: Batch[]): Promise<number[]> {
    const baseOffsets: number[] = new Array(batches.length);
    let pending = batches.map((_, i) => i);
    for (let attempt = 1; ;) {
      const failed: { index: number; error: Error }[] = [];
      const byNode = new Map<number, number[]>();
      for (const i of pending) {
        const b = batches[i]!;
        try {
          const nodeId = await this.cluster.leader(b.topic, b.partition);
          let list = byNode.get(nodeId);
          if (!list) byNode.set(nodeId, (list = []));
          list.push(i);
        } catch (error) {
          failed.push({ index: i, error: error as Error });
        }
      }
      await Promise.all(
        [...byNode].map(async ([nodeId, indexes]) => {
          try {
            const answers = await this.#produce(
              nodeId,
              indexes.map((i) => batches[i]!),
            );
            indexes.forEach((i, k) => {
              const a = answers[k]!;
              if (a.error === undefined) baseOffsets[i] = a.baseOffset;
              else failed.push({ index: i, error: a.error });
            });
          } catch (error) {
            // The connection failed or timed out: the whole request again (at least once).
            for (const i of indexes) failed.push({ index: i, error: error as Error });
          }
        }),
      );
      if (this.session) {
        // A batch the broker already has (sent again after a lost answer): written, at an offset
        // it no longer tells (Java's producer reports -1 too).
        for (let k = failed.length - 1; k >= 0; k--)
          if (errorType(failed[k]!.error) === 'DUPLICATE_SEQUENCE_NUMBER') {
            baseOffsets[failed[k]!.index] = -1;
            failed.splice(k, 1);
          }
        const broken = failed.filter((f) => SEQUENCE_BROKEN.has(errorType(f.error) ?? ''));
        if (broken.length > 0)
          throw new SequenceBroken(
            broken.map((f) => f.index),
            broken[0]!.error,
          );
      }
      if (failed.length === 0) return baseOffsets;
      if (this.cluster.closed) throw failed[0]!.error;
      // An unreachable broker is waited for without counting attempts (an outage of any length).
      const unreachable = failed.every((f) => f.error instanceof KafkaConnectionError);
      if (!unreachable) attempt++;
      const fatal =
        failed.find((f) => !retriable(f.error)) ?? (attempt > ATTEMPTS ? failed[0] : undefined);
      if (fatal !== undefined) {
        if (errorType(fatal.error) === 'UNKNOWN_TOPIC_OR_PARTITION')
          throw new UnknownTopicError(batches[fatal.index]!.topic);
        throw fatal.error;
      }
      pending = failed.map((f) => f.index);
      this.cluster.invalidate();
      // Connection attempts are spaced by the cluster's reconnect backoff already.
      if (!unreachable)
        await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** (attempt - 2), 5_000)));
    }
  }

  /** One Produce request (acks=all) to `nodeId` carrying one batch per partition, as encoded. */
  async #produce(
    nodeId: number,
    batches: readonly Batch[],
  ): Promise<{ baseOffset: number; error?: Error }[]> {
    const byTopic = new Map<string, Batch[]>();
    for (const b of batches) {
      let list = byTopic.get(b.topic);
      if (!list) byTopic.set(b.topic, (list = []));
      list.push(b);
    }
    const connection = await this.cluster.node(nodeId);
    const cap = this.hooks.maxProduceVersion?.();
    const version = cap === undefined ? undefined : Math.min(cap, connection.version('Produce'));
    const answer = await connection.send(
      'Produce',
      {
        transactionalId: this.session?.transactionalId ?? null,
        acks: -1,
        timeoutMs: PRODUCE_TIMEOUT_MS,
        topicData: [...byTopic].map(([name, parts]) => ({
          name,
          partitionData: parts.map((p) => ({ index: p.partition, records: p.bytes })),
        })),
      },
      version === undefined ? undefined : { version },
    );
    const found = new Map<string, { baseOffset: number; error?: Error }>();
    for (const t of answer.responses)
      for (const p of t.partitionResponses)
        found.set(
          `${t.name}:${p.index}`,
          p.errorCode === 0
            ? { baseOffset: Number(p.baseOffset) }
            : {
                baseOffset: -1,
                error: protocolError(
                  p.errorCode,
                  {
                    topic: t.name,
                    partition: p.index,
                    ...(this.session?.transactionalId != null
                      ? { transactionalId: this.session.transactionalId }
                      : {}),
                    api: 'Produce',
                    principal: this.cluster.principal,
                  },
                  p.errorMessage ?? undefined,
                ),
              },
        );
    return batches.map(
      (b) =>
        found.get(`${b.topic}:${b.partition}`) ?? {
          baseOffset: -1,
          error: new Error(`no answer for ${b.topic}-${b.partition} in the produce response`),
        },
    );
  }
}

function retriable(error: Error): boolean {
  const type = errorType(error);
  if (type !== undefined) return RETRIABLE.has(type);
  // Lost connections and timed-out requests are retriable; anything else is not.
  return isRetriable(error);
}

/** The v2 batches back to back in `buffer`, each as a view (length at byte 8, after the base offset). */
function* splitBatches(buffer: Buffer): Generator<Buffer> {
  for (let at = 0; at < buffer.length;) {
    const size = 12 + buffer.readInt32BE(at + 8);
    yield buffer.subarray(at, at + size);
    at += size;
  }
}

/**
 * An idempotent producer without transactions (at_least_once, the backend's own produces): a
 * retry after a lost answer is not written twice (Kafka's enable.idempotence, its default).
 */
export function idempotentProducer(
  cluster: KafkaCluster,
  partitionsOf: (topic: string) => Promise<number>,
  logger?: { warn(obj: object, msg?: string): void },
): KafkaProducer {
  const session = new ProducerSession(cluster, {
    transactionalId: null,
    transactionTimeoutMs: 60_000,
    ...(logger ? { logger } : {}),
  });
  return new KafkaProducer(cluster, partitionsOf, session, {}, logger);
}
