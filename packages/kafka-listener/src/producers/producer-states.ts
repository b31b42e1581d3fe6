// Idempotent producers' sequence numbers per partition (Kafka's ProducerStateManager): a batch
// whose sequence range is one of the producer's last five batches on that partition is a retry,
// answered with the offset it got the first time and not written again; a gap in the sequence is
// OUT_OF_ORDER_SEQUENCE_NUMBER; an older epoch is INVALID_PRODUCER_EPOCH. Requests on one
// connection run one at a time (connection.ts), so a producer never has two appends to a
// partition in flight here. Kept in memory and rebuilt from the log: before the first produce to
// a partition after a start, the batches of the partition's tail (its last SCAN_OFFSETS offsets)
// are read back, as Kafka rebuilds this state from its log, so a batch a producer retries across
// a restart of the runtime is still recognised.
import type { BatchHeader, Log } from '@streamwright/log';
import { Errors } from '../errors.js';

const KEEP = 5;
/** How far back from the end a partition's producers are rebuilt (offsets). */
export const SCAN_OFFSETS = 100_000;
const INT32_MAX = 2147483647;

interface Entry {
  epoch: number;
  /** Newest last: firstSeq, lastSeq, baseOffset of the last batches appended. */
  batches: { firstSeq: number; lastSeq: number; baseOffset: number }[];
}

export type SequenceCheck =
  | { kind: 'append' }
  | { kind: 'duplicate'; baseOffset: number }
  | { kind: 'error'; code: number; message: string };

const lastSeqOf = (h: BatchHeader): number =>
  (h.baseSequence + h.recordCount - 1) % (INT32_MAX + 1);

export class ProducerStates {
  private readonly partitions = new Map<string, Map<number, Entry>>();
  /** Partitions whose tail has been read back since the start (or is being read). */
  private readonly rebuilt = new Map<string, Promise<void>>();

  /**
   * Rebuilds the partition's producers from its tail once per start; every produce to the
   * partition awaits it before its sequence check.
   */
  rebuild(log: Log, topic: string, partition: number): Promise<void> {
    const k = this.key(topic, partition);
    let done = this.rebuilt.get(k);
    if (!done) {
      done = this.readTail(log, topic, partition).catch((err: unknown) => {
        this.rebuilt.delete(k); // tried again by the next produce
        throw err;
      });
      this.rebuilt.set(k, done);
    }
    return done;
  }

  private async readTail(log: Log, topic: string, partition: number): Promise<void> {
    const p = log.partition(topic, partition);
    const end = p.logEndOffset;
    let offset = Math.max(p.logStartOffset, end - SCAN_OFFSETS);
    while (offset < end) {
      const batches = await p.read(offset, 1 << 20, 'read_uncommitted');
      if (batches.length === 0) break;
      for (const b of batches) {
        const h = b.header;
        if (h.baseOffset + h.lastOffsetDelta < offset) continue;
        // Control batches (transaction markers) carry no sequence: appended() skips them.
        this.appended(topic, partition, h, h.baseOffset);
        offset = h.baseOffset + h.lastOffsetDelta + 1;
      }
    }
  }

  private key(topic: string, partition: number): string {
    return `${topic}\u0000${partition}`;
  }

  check(topic: string, partition: number, h: BatchHeader): SequenceCheck {
    if (h.producerId < 0 || h.baseSequence < 0) return { kind: 'append' };
    const entry = this.partitions.get(this.key(topic, partition))?.get(h.producerId);
    if (!entry) return { kind: 'append' };
    if (h.producerEpoch < entry.epoch)
      return {
        kind: 'error',
        code: Errors.INVALID_PRODUCER_EPOCH,
        message: `producer ${h.producerId} epoch ${h.producerEpoch} is older than ${entry.epoch}`,
      };
    if (h.producerEpoch > entry.epoch) {
      if (h.baseSequence === 0) return { kind: 'append' };
      return {
        kind: 'error',
        code: Errors.OUT_OF_ORDER_SEQUENCE_NUMBER,
        message: `new epoch ${h.producerEpoch} of producer ${h.producerId} starts at sequence ${h.baseSequence}, expected 0`,
      };
    }
    const last = lastSeqOf(h);
    const dup = entry.batches.find((b) => b.firstSeq === h.baseSequence && b.lastSeq === last);
    if (dup) return { kind: 'duplicate', baseOffset: dup.baseOffset };
    const prev = entry.batches[entry.batches.length - 1]!;
    const expected = prev.lastSeq === INT32_MAX ? 0 : prev.lastSeq + 1;
    if (h.baseSequence !== expected)
      return {
        kind: 'error',
        code: Errors.OUT_OF_ORDER_SEQUENCE_NUMBER,
        message: `producer ${h.producerId}: sequence ${h.baseSequence} on ${topic}-${partition}, expected ${expected}`,
      };
    return { kind: 'append' };
  }

  appended(topic: string, partition: number, h: BatchHeader, baseOffset: number): void {
    if (h.producerId < 0 || h.baseSequence < 0) return;
    const k = this.key(topic, partition);
    let byProducer = this.partitions.get(k);
    if (!byProducer) this.partitions.set(k, (byProducer = new Map()));
    let entry = byProducer.get(h.producerId);
    if (!entry || entry.epoch !== h.producerEpoch) {
      entry = { epoch: h.producerEpoch, batches: [] };
      byProducer.set(h.producerId, entry);
    }
    entry.batches.push({ firstSeq: h.baseSequence, lastSeq: lastSeqOf(h), baseOffset });
    if (entry.batches.length > KEEP) entry.batches.shift();
  }

  /** A failed append leaves the producer unknown here (its next batch is accepted as is). */
  forget(topic: string, partition: number, producerId: number): void {
    this.partitions.get(this.key(topic, partition))?.delete(producerId);
  }

  /** A deleted topic's producers go with it. */
  forgetTopic(topic: string): void {
    for (const k of [...this.partitions.keys()])
      if (k.startsWith(`${topic}\u0000`)) this.partitions.delete(k);
    for (const k of [...this.rebuilt.keys()])
      if (k.startsWith(`${topic}\u0000`)) this.rebuilt.delete(k);
  }
}
