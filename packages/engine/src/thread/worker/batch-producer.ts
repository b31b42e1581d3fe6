// Produces from the worker as a Kafka producer does: the records are encoded into Kafka record
// batches here, on the stream thread, with the topics' producer metadata cached, and the batches'
// memory moves to the main thread, which only validates and appends them, and back (the encoder
// reuses it). Also what the main thread's log would refuse, judged from the same metadata.
import {
  BatchEncoder,
  recordMetadataOf,
  type ProducerTopicMetadata,
} from '@streamwright/log/encoder';
import type { CompressionType, ProduceCallOptions, ProduceRecord } from '../../backend-spi.js';
import { checkProducedRecord } from '../../backends/shared/record-check.js';
import type { PortCalls } from './port-calls.js';
import type { BackendResults } from './protocol.js';

export interface TransactionIds {
  producerId: number;
  producerEpoch: number;
}

export class BatchProducer {
  readonly #calls: PortCalls;
  readonly #encoder = new BatchEncoder();
  readonly #metadata = new Map<string, ProducerTopicMetadata>();
  /**
   * The main thread's metadata of a topic not cached here yet, synchronously (null: no such
   * topic; undefined: cannot say). Set by the worker; without it records are not checked.
   */
  lookupMetadata: ((topic: string) => ProducerTopicMetadata | null | undefined) | null = null;

  constructor(calls: PortCalls) {
    this.#calls = calls;
  }

  /**
   * Backend#checkRecord in the worker: what the main thread's log would refuse, judged from the
   * topic's producer metadata (cached, as the batch encoder's), so the production exception
   * handler sees the record as on the main thread.
   */
  checkRecord(record: ProduceRecord): Error | null {
    let meta = this.#metadata.get(record.topic);
    if (meta === undefined) {
      const found = this.lookupMetadata?.(record.topic);
      if (found === undefined) return null;
      if (found === null) return checkProducedRecord(record, null);
      this.#metadata.set(record.topic, (meta = found));
    }
    return checkProducedRecord(record, meta);
  }

  /**
   * The topics' metadata is cached; after a refusal it is fetched again, and an unknown partition
   * (partitions added meanwhile) is retried once: a refused request wrote nothing.
   */
  async produce(
    records: ProduceRecord[],
    options?: ProduceCallOptions,
  ): Promise<{ partition: number; offset: number }[]> {
    if (records.length === 0) return [];
    const positions = options?.positions !== false;
    const compression = options?.compression ?? 'none';
    try {
      return await this.#produceEncoded(records, positions, compression);
    } catch (error) {
      for (const r of records) this.#metadata.delete(r.topic);
      if ((error as { code?: string }).code !== 'UNKNOWN_TOPIC') throw error;
      return this.#produceEncoded(records, positions, compression);
    }
  }

  /**
   * A transactional send encoded here as the producer's transactional batches; stale metadata is
   * refreshed and the send retried once (a refused send wrote nothing and left the transaction as
   * it was).
   */
  async txnSend(
    producer: number,
    txn: TransactionIds,
    records: ProduceRecord[],
    compression: CompressionType = 'none',
  ): Promise<{ partition: number; offset: number }[]> {
    try {
      return await this.#txnSendEncoded(producer, txn, records, compression);
    } catch (error) {
      if ((error as { code?: string }).code !== 'UNKNOWN_TOPIC') throw error;
      for (const r of records) this.#metadata.delete(r.topic);
      return this.#txnSendEncoded(producer, txn, records, compression);
    }
  }

  async #produceEncoded(
    records: ProduceRecord[],
    positions: boolean,
    compression: CompressionType,
  ): Promise<{ partition: number; offset: number }[]> {
    const { encoded, parts } = await this.#encode(records, compression);
    // Each buffer is the encoder's own (never a slice of a shared pool): moved, not copied.
    const { offsets, returned } = (await this.#calls.call(
      { op: 'produceBatches', parts },
      parts.map((p) => p.batches.buffer as ArrayBuffer),
    )) as BackendResults['produceBatches'];
    for (const b of returned) this.#encoder.release(b); // moved back once appended: reused
    if (!positions) return [];
    return recordMetadataOf(
      encoded,
      Array.from(offsets, (baseOffset) => ({ baseOffset, logAppendTime: -1 })),
    );
  }

  /** Encodes on this thread with the topics' cached metadata (transactional batches with `txn`). */
  async #encode(records: ProduceRecord[], compression: CompressionType, txn?: TransactionIds) {
    // Topics without cached metadata, without an array or set per call (a stream thread's output
    // is mostly one topic in a row; this runs once per flush over every record).
    const missing: string[] = [];
    let last: string | null = null;
    for (let i = 0; i < records.length; i++) {
      const topic = records[i]!.topic;
      if (topic === last) continue;
      last = topic;
      if (!this.#metadata.has(topic) && !missing.includes(topic)) missing.push(topic);
    }
    if (missing.length > 0) {
      const found = (await this.#calls.call({
        op: 'producerMetadata',
        topics: missing,
      })) as BackendResults['producerMetadata'];
      for (const [topic, meta] of found) this.#metadata.set(topic, meta);
    }
    const encoded = this.#encoder.encode(
      records,
      (t) => this.#metadata.get(t)!,
      txn ? { transactional: txn, compression } : { compression },
    );
    const parts = await Promise.all(
      encoded.partitions.map(async (p) => ({
        topic: p.topic,
        partition: p.partition,
        batches: await p.batches,
      })),
    );
    return { encoded, parts };
  }

  /** A transactional send encoded here; the main thread validates the batches and appends them. */
  async #txnSendEncoded(
    producer: number,
    txn: TransactionIds,
    records: ProduceRecord[],
    compression: CompressionType,
  ): Promise<{ partition: number; offset: number }[]> {
    const { encoded, parts } = await this.#encode(records, compression, txn);
    const { offsets, returned } = (await this.#calls.call(
      { op: 'txnSendBatches', producer, parts },
      parts.map((p) => p.batches.buffer as ArrayBuffer),
    )) as BackendResults['txnSendBatches'];
    for (const b of returned) this.#encoder.release(b);
    return recordMetadataOf(
      encoded,
      Array.from(offsets, (baseOffset) => ({ baseOffset, logAppendTime: -1 })),
    );
  }
}
