// Committed offsets and group metadata, kept durably in the internal compacted topic
// `__consumer_offsets` as in Kafka (keys are JSON arrays here, not Kafka's binary schema):
//   ["offset", group, topic, partition] → {"offset", "metadata", "commitTimestamp"}
//   ["group", group]                    → {"generation", "protocol"}
// A group lives in partition toPositive(javaHash(group)) % partitions, like Kafka. Offsets sent
// inside a transaction are written as transactional records and only apply on its commit.
import { toPositive } from '../partitioner.js';
import type { TopicPartition } from '../types.js';

export const OFFSETS_TOPIC = '__consumer_offsets';

export interface CommittedOffset {
  topic: string;
  partition: number;
  offset: number;
  metadata: string;
  commitTimestamp: number;
}

export interface GroupRecord {
  generation: number;
  protocol: string | null;
}

/** Java's String.hashCode, which Kafka uses to place a group in the offsets topic. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

export function offsetsPartitionFor(group: string, partitions: number): number {
  return toPositive(javaStringHash(group)) % partitions;
}

const enc = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));

export function offsetKey(group: string, tp: TopicPartition): Buffer {
  return enc(['offset', group, tp.topic, tp.partition]);
}
export function offsetValue(c: CommittedOffset): Buffer {
  return enc({ offset: c.offset, metadata: c.metadata, commitTimestamp: c.commitTimestamp });
}
export function groupKey(group: string): Buffer {
  return enc(['group', group]);
}
export function groupValue(g: GroupRecord): Buffer {
  return enc(g);
}

/** In-memory view of the offsets topic, rebuilt on open by replaying it. */
export class OffsetsState {
  readonly offsets = new Map<string, Map<string, CommittedOffset>>();
  readonly groups = new Map<string, GroupRecord>();

  private static tpId(topic: string, partition: number): string {
    return `${topic}\u0000${partition}`;
  }

  apply(key: Uint8Array | null, value: Uint8Array | null): void {
    if (!key) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(key).toString());
    } catch {
      return;
    }
    if (!Array.isArray(parsed)) return;
    if (parsed[0] === 'offset' && parsed.length === 4) {
      const [, group, topic, partition] = parsed as [string, string, string, number];
      if (value === null) {
        this.offsets.get(group)?.delete(OffsetsState.tpId(topic, partition));
        return;
      }
      const v = JSON.parse(Buffer.from(value).toString()) as {
        offset: number;
        metadata?: string;
        commitTimestamp?: number;
      };
      this.set(group, {
        topic,
        partition,
        offset: v.offset,
        metadata: v.metadata ?? '',
        commitTimestamp: v.commitTimestamp ?? -1,
      });
    } else if (parsed[0] === 'group' && parsed.length === 2) {
      const group = parsed[1] as string;
      if (value === null) this.groups.delete(group);
      else this.groups.set(group, JSON.parse(Buffer.from(value).toString()) as GroupRecord);
    }
  }

  set(group: string, c: CommittedOffset): void {
    let m = this.offsets.get(group);
    if (!m) this.offsets.set(group, (m = new Map()));
    m.set(OffsetsState.tpId(c.topic, c.partition), c);
  }

  get(group: string, topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(group)?.get(OffsetsState.tpId(topic, partition));
  }

  all(group: string): CommittedOffset[] {
    return [...(this.offsets.get(group)?.values() ?? [])].sort((a, b) =>
      a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
    );
  }

  deleteGroup(group: string): void {
    this.offsets.delete(group);
    this.groups.delete(group);
  }
}
