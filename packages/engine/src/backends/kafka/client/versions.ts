// The versions of each Kafka API this client implements: the one place that says which request
// and response layouts the code below reads and writes. A connection speaks, per API, the highest
// version both this table and the broker's ApiVersions answer allow (Java's clients do the same).
// Caps, and why: Produce and Fetch stop at 12 and Metadata at 12 — from 13 on they name topics by
// id (KIP-516) instead of by name; DeleteTopics stops at 5 (6 adds topic ids); OffsetFetch at 7
// (8 batches several groups); FindCoordinator at 3 (4 batches several keys); OffsetCommit at 9
// (10 names topics by id). Kafka 3.9 and 4.1 both speak every range below (4.x dropped the older
// versions: KIP-896), so one client serves both.

export const CLIENT_VERSIONS = {
  Produce: [3, 12],
  Fetch: [4, 12],
  ListOffsets: [1, 9],
  Metadata: [4, 12],
  OffsetCommit: [2, 9],
  OffsetFetch: [1, 7],
  FindCoordinator: [1, 3],
  JoinGroup: [2, 9],
  Heartbeat: [1, 4],
  LeaveGroup: [1, 5],
  SyncGroup: [1, 5],
  SaslHandshake: [1, 1],
  ApiVersions: [3, 3],
  CreateTopics: [2, 7],
  DeleteTopics: [1, 5],
  DescribeConfigs: [1, 4],
  SaslAuthenticate: [0, 2],
  // Transactions and idempotence (transactions.ts): InitProducerId v3+ bumps an epoch (KIP-360);
  // AddPartitionsToTxn stops at 3 (4+ batch several transactions, for brokers); TxnOffsetCommit
  // starts at 3 (the group's generation and member id, KIP-447). TxnOffsetCommit 5, EndTxn 5 and
  // Produce 12 are transaction version 2 (KIP-890): spoken only when the broker advertises it,
  // else capped at 4, 4 and 11 (transactions.ts).
  InitProducerId: [1, 5],
  AddPartitionsToTxn: [1, 3],
  AddOffsetsToTxn: [1, 3],
  TxnOffsetCommit: [3, 5],
  EndTxn: [1, 5],
} as const satisfies Record<string, readonly [number, number]>;

export type ClientApi = keyof typeof CLIENT_VERSIONS;

/**
 * The version to speak: the highest both sides support, or undefined when the ranges do not
 * overlap (or the broker does not know the API).
 */
export function negotiate(
  ours: readonly [number, number],
  broker: { minVersion: number; maxVersion: number } | undefined,
): number | undefined {
  if (broker === undefined) return undefined;
  const version = Math.min(ours[1], broker.maxVersion);
  return version >= Math.max(ours[0], broker.minVersion) ? version : undefined;
}
