// The served APIs and their versions (what ApiVersions answers). Versions are Kafka 4.1.1's
// stable ones, capped where a newer one needs transaction protocol v2 (KIP-890 part 2: Produce
// 12+, TxnOffsetCommit 5, EndTxn 5), which is not offered.
import { apis, type ApiVersionsResponseInput } from '@streamwright/kafka-protocol';
import type { ListenerContext } from '../context.js';
import { code, NONE } from '../errors.js';
import {
  handleCreatePartitions,
  handleCreateTopics,
  handleDeleteTopics,
  handleDescribeConfigs,
  handleIncrementalAlterConfigs,
} from './admin.js';
import { handleFetch } from './fetch.js';
import {
  handleDeleteGroups,
  handleDescribeGroups,
  handleFindCoordinator,
  handleHeartbeat,
  handleJoinGroup,
  handleLeaveGroup,
  handleListGroups,
  handleOffsetCommit,
  handleOffsetDelete,
  handleOffsetFetch,
  handleSyncGroup,
} from './groups.js';
import { served, type Handler } from './handler.js';
import { handleDescribeCluster, handleMetadata } from './metadata.js';
import { handleDeleteRecords, handleListOffsets, handleOffsetForLeaderEpoch } from './offsets.js';
import { handleProduce } from './produce.js';
import {
  handleAddOffsetsToTxn,
  handleAddPartitionsToTxn,
  handleEndTxn,
  handleInitProducerId,
  handleTxnOffsetCommit,
} from './producers.js';

const ILLEGAL_SASL_STATE = code('ILLEGAL_SASL_STATE');

/* eslint-disable @typescript-eslint/no-explicit-any -- each handler casts the decoded body to its
   API's request type; the table is keyed by API so the pairing is by construction. */
type Body = any;

const table: Handler[] = [
  served(apis.ApiVersions, (ctx) => apiVersionsBody(ctx)),
  served(apis.Metadata, (ctx, r) => handleMetadata(ctx, r.body as Body, r.apiVersion)),
  served(apis.Produce, (ctx, r) => handleProduce(ctx, r.body as Body), 3, 11),
  served(apis.Fetch, (ctx, r, s) => handleFetch(ctx, r.body as Body, s), 4),
  served(apis.ListOffsets, (ctx, r) => handleListOffsets(ctx, r.body as Body)),
  served(apis.CreateTopics, (ctx, r) => handleCreateTopics(ctx, r.body as Body)),
  served(apis.DeleteTopics, (ctx, r) => handleDeleteTopics(ctx, r.body as Body)),
  served(apis.CreatePartitions, (ctx, r) => handleCreatePartitions(ctx, r.body as Body)),
  served(apis.DeleteRecords, (ctx, r) => handleDeleteRecords(ctx, r.body as Body)),
  served(apis.DescribeConfigs, (ctx, r) => handleDescribeConfigs(ctx, r.body as Body)),
  served(apis.IncrementalAlterConfigs, (ctx, r) =>
    handleIncrementalAlterConfigs(ctx, r.body as Body),
  ),
  served(apis.OffsetForLeaderEpoch, (ctx, r) => handleOffsetForLeaderEpoch(ctx, r.body as Body)),
  served(apis.DescribeCluster, (ctx) => handleDescribeCluster(ctx)),
  served(apis.FindCoordinator, (ctx, r) =>
    handleFindCoordinator(ctx, r.body as Body, r.apiVersion),
  ),
  served(apis.JoinGroup, (ctx, r, s) => handleJoinGroup(ctx, r.body as Body, r.apiVersion, s)),
  served(apis.SyncGroup, (ctx, r) => handleSyncGroup(ctx, r.body as Body)),
  served(apis.Heartbeat, (ctx, r) => handleHeartbeat(ctx, r.body as Body)),
  served(apis.LeaveGroup, (ctx, r) => handleLeaveGroup(ctx, r.body as Body, r.apiVersion)),
  served(apis.OffsetCommit, (ctx, r) => handleOffsetCommit(ctx, r.body as Body)),
  served(apis.OffsetFetch, (ctx, r) => handleOffsetFetch(ctx, r.body as Body, r.apiVersion)),
  served(apis.ListGroups, (ctx, r) => handleListGroups(ctx, r.body as Body)),
  served(apis.DescribeGroups, (ctx, r) => handleDescribeGroups(ctx, r.body as Body, r.apiVersion)),
  served(apis.DeleteGroups, (ctx, r) => handleDeleteGroups(ctx, r.body as Body)),
  served(apis.OffsetDelete, (ctx, r) => handleOffsetDelete(ctx, r.body as Body)),
  served(apis.InitProducerId, (ctx, r) => handleInitProducerId(ctx, r.body as Body)),
  served(apis.AddPartitionsToTxn, (ctx, r) =>
    handleAddPartitionsToTxn(ctx, r.body as Body, r.apiVersion),
  ),
  served(apis.AddOffsetsToTxn, (ctx, r) => handleAddOffsetsToTxn(ctx, r.body as Body)),
  served(
    apis.TxnOffsetCommit,
    (ctx, r) => handleTxnOffsetCommit(ctx, r.body as Body, r.apiVersion),
    0,
    4,
  ),
  served(apis.EndTxn, (ctx, r) => handleEndTxn(ctx, r.body as Body), 0, 4),
  // Authentication happens before any other request (connection.ts); after it, or on a listener
  // without SASL, a handshake is out of place: ILLEGAL_SASL_STATE, as Kafka answers.
  served(apis.SaslHandshake, () => ({ errorCode: ILLEGAL_SASL_STATE, mechanisms: [] })),
  served(apis.SaslAuthenticate, () => ({
    errorCode: ILLEGAL_SASL_STATE,
    errorMessage: 'already authenticated, or SASL is not enabled on this listener',
    authBytes: new Uint8Array(0),
  })),
];
/* eslint-enable @typescript-eslint/no-explicit-any */

const byKey = new Map(table.map((h) => [h.api.apiKey, h]));

export function handlerFor(apiKey: number): Handler | undefined {
  return byKey.get(apiKey);
}

export function apiVersionsBody(_ctx: ListenerContext): ApiVersionsResponseInput {
  return {
    errorCode: NONE,
    apiKeys: table
      .map((h) => ({ apiKey: h.api.apiKey, minVersion: h.min, maxVersion: h.max }))
      .sort((a, b) => a.apiKey - b.apiKey),
    throttleTimeMs: 0,
  };
}

/** The served APIs with their versions, for docs and tests. */
export function servedApis(): { name: string; apiKey: number; min: number; max: number }[] {
  return table.map((h) => ({ name: h.api.name, apiKey: h.api.apiKey, min: h.min, max: h.max }));
}
