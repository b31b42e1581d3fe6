// The "consumer" protocol type's payloads inside JoinGroup and SyncGroup (Java's ConsumerProtocol):
// a member's subscription (its topics) and the leader's assignment (each member's partitions),
// each an int16 version followed by the message (ConsumerProtocolSubscription /
// ConsumerProtocolAssignment, generated). Subscriptions are written as version 1, whose owned
// partitions the cooperative protocol (KIP-429) needs (no generation, no rack); assignments as
// version 0; versions up to the generated codecs' highest are read, so members of other clients'
// versions are understood.
import { messages } from '@streamwright/kafka-protocol';
import type { TopicPartition } from '../../../backend-spi.js';

const WRITTEN_VERSION = 0;
/** ConsumerProtocolSubscription v1: topics, user data and the member's owned partitions. */
const SUBSCRIPTION_VERSION = 1;

function withVersion(version: number, body: Buffer): Uint8Array {
  const out = Buffer.allocUnsafe(2 + body.length);
  out.writeInt16BE(version, 0);
  body.copy(out, 2);
  return out;
}

function versionOf(bytes: Uint8Array, what: string, max: number): number {
  if (bytes.length < 2) throw new Error(`a consumer-protocol ${what} of ${bytes.length} bytes`);
  const version = (bytes[0]! << 8) | bytes[1]!;
  // A newer version starts with the fields of ours (Kafka only adds fields at the end).
  return Math.min(version, max);
}

function byTopic(partitions: readonly TopicPartition[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const tp of partitions) {
    let list = out.get(tp.topic);
    if (!list) out.set(tp.topic, (list = []));
    list.push(tp.partition);
  }
  return out;
}

/**
 * A subscription: the topics, the assignor's user data (Kafka Streams' SubscriptionInfo) and the
 * partitions the member owns (what a cooperative leader must not hand to anyone else yet).
 */
export function encodeSubscription(
  topics: readonly string[],
  userData: Uint8Array | null = null,
  ownedPartitions: readonly TopicPartition[] = [],
): Uint8Array {
  return withVersion(
    SUBSCRIPTION_VERSION,
    messages.ConsumerProtocolSubscription.encode(
      {
        topics: [...topics],
        userData: userData === null ? null : Buffer.from(userData),
        ownedPartitions: [...byTopic(ownedPartitions)].map(([topic, partitions]) => ({
          topic,
          partitions,
        })),
      },
      SUBSCRIPTION_VERSION,
    ),
  );
}

/** The topics, user data and owned partitions (none before version 1) of a subscription. */
export function decodeSubscription(bytes: Uint8Array): {
  topics: string[];
  userData: Uint8Array | null;
  ownedPartitions: TopicPartition[];
} {
  const m = messages.ConsumerProtocolSubscription;
  const version = versionOf(bytes, 'subscription', m.maxVersion);
  const decoded = m.decode(bytes.subarray(2), version);
  return {
    topics: decoded.topics,
    userData: decoded.userData ?? null,
    ownedPartitions: decoded.ownedPartitions.flatMap((t) =>
      t.partitions.map((partition) => ({ topic: t.topic, partition })),
    ),
  };
}

export function encodeAssignment(
  partitions: readonly TopicPartition[],
  userData: Uint8Array | null = null,
): Uint8Array {
  return withVersion(
    WRITTEN_VERSION,
    messages.ConsumerProtocolAssignment.encode(
      {
        assignedPartitions: [...byTopic(partitions)].map(([topic, ps]) => ({
          topic,
          partitions: ps,
        })),
        userData: userData === null ? null : Buffer.from(userData),
      },
      WRITTEN_VERSION,
    ),
  );
}

/** The partitions and user data of an assignment (none for an empty one: a member given nothing). */
export function decodeAssignment(bytes: Uint8Array): {
  partitions: TopicPartition[];
  userData: Uint8Array | null;
} {
  if (bytes.length === 0) return { partitions: [], userData: null };
  const m = messages.ConsumerProtocolAssignment;
  const version = versionOf(bytes, 'assignment', m.maxVersion);
  const decoded = m.decode(bytes.subarray(2), version);
  return {
    partitions: decoded.assignedPartitions.flatMap((t) =>
      t.partitions.map((partition) => ({ topic: t.topic, partition })),
    ),
    userData: decoded.userData ?? null,
  };
}
