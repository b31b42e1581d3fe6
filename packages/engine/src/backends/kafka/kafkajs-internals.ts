// kafkajs 2.2.4 has no public API for what a Kafka Streams consumer does: fetch explicit offsets of
// assigned partitions, run the group protocol with the revocation callback awaited before
// rejoining (eager), and commit with the member's generation. Its consumer fetches on its own and
// calls back per batch; the building blocks underneath — the Cluster (metadata, leader and
// coordinator lookup) and its Brokers (one method per protocol request, with request encoding,
// version negotiation and error decoding) — are what its own consumer uses. kafkajs is pinned at
// 2.2.4 (unmaintained since 2023, so these internals are frozen); this file is the only place
// that reaches them, and types the few calls made.
import { createRequire } from 'node:module';
import type kafkajs from 'kafkajs';

const require = createRequire(import.meta.url);

type Kafka = InstanceType<typeof kafkajs.Kafka>;

/** A decoded record of a RecordBatch (v2), as kafkajs' fetch response gives it. */
export interface RawMessage {
  offset: string;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | Buffer[] | undefined>;
  isControlRecord?: boolean;
}

export interface RawPartitionData {
  partition: number;
  errorCode: number;
  highWatermark: string;
  lastStableOffset?: string;
  abortedTransactions?: { producerId: string; firstOffset: string }[];
  messages: RawMessage[];
  /**
   * The partition's record set as the broker sent it (v2 batches, the last one possibly cut
   * short), when fetched by fetchRecordSets; `messages` is then empty.
   */
  recordSet?: Buffer;
}

export interface FetchTopicRequest {
  topic: string;
  partitions: { partition: number; fetchOffset: string; maxBytes: number }[];
}

export interface Broker {
  /** The request builder of the highest version both kafkajs and the broker support. */
  lookupRequest(
    apiKey: number,
    definition: { versions: string[]; protocol: (o: { version: number }) => unknown },
  ): unknown;
  fetch(request: {
    replicaId?: number;
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: FetchTopicRequest[];
  }): Promise<{ responses: { topicName: string; partitions: RawPartitionData[] }[] }>;
  joinGroup(request: {
    groupId: string;
    sessionTimeout: number;
    rebalanceTimeout: number;
    memberId: string;
    protocolType: string;
    groupProtocols: { name: string; metadata: Buffer }[];
  }): Promise<{
    generationId: number;
    groupProtocol: string;
    leaderId: string;
    memberId: string;
    members: { memberId: string; memberMetadata: Buffer }[];
  }>;
  syncGroup(request: {
    groupId: string;
    generationId: number;
    memberId: string;
    groupAssignment: { memberId: string; memberAssignment: Buffer }[];
  }): Promise<{ memberAssignment: Buffer }>;
  heartbeat(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
  }): Promise<unknown>;
  leaveGroup(request: { groupId: string; memberId: string }): Promise<unknown>;
  offsetCommit(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
    topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
  }): Promise<{
    responses: { topic: string; partitions: { partition: number; errorCode: number }[] }[];
  }>;
  offsetFetch(request: {
    groupId: string;
    topics: { topic: string; partitions: { partition: number }[] }[];
  }): Promise<{
    responses: {
      topic: string;
      partitions: { partition: number; offset: string; errorCode: number }[];
    }[];
  }>;
}

export interface Cluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  /** nodeId → partitions it leads. */
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(node: { nodeId: string }): Promise<Broker>;
  findGroupCoordinator(group: { groupId: string }): Promise<Broker>;
  findTopicPartitionMetadata(topic: string): { partitionId: number }[];
}

/**
 * A Cluster configured like the client's own (brokers, client id, timeouts, retries, logger),
 * through the factory the Kafka client keeps under a private symbol for its producers and
 * consumers.
 */
export function createCluster(kafka: Kafka): Cluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find(
    (s) => s.description === 'private:Kafka:createCluster',
  );
  if (symbol === undefined) throw new Error('kafkajs: no cluster factory (not kafkajs 2.2.4?)');
  const factory = (kafka as unknown as Record<symbol, (o: object) => Cluster>)[symbol]!;
  return factory({ allowAutoTopicCreation: false, metadataMaxAge: 300_000 });
}

/** kafkajs' protocol errors carry Kafka's error name in `type` (e.g. REBALANCE_IN_PROGRESS). */
export function kafkaErrorType(error: unknown): string | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : undefined;
}

/** kafkajs' protocol encoder (the framing of every request). */
interface Encoder {
  writeString(value: string | null): Encoder;
  writeInt16(value: number): Encoder;
  writeInt32(value: number): Encoder;
  writeBytes(value: Buffer): Encoder;
  writeArray(items: Encoder[]): Encoder;
}
const EncoderClass = require('kafkajs/src/protocol/encoder') as new () => Encoder;
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as {
  createErrorFromCode: (code: number) => Error;
};
const PRODUCE_API_KEY = 0;

/** A partition's answer to a Produce request: its batch's base offset, or Kafka's error. */
export interface ProducedPartition {
  baseOffset: number;
  error?: Error;
}

interface ProduceResponse {
  topics: {
    topicName: string;
    partitions: { partition: number; errorCode: number; baseOffset: string }[];
  }[];
}

/**
 * One Produce request (v3–v7, whose request layout is the same; kafkajs' response decoder of
 * the version) with acks=all carrying `batches` — encoded v2 record batches, one per
 * partition — as they are: kafkajs' own produce would encode every record again. Sent through
 * the broker's private sendRequest (which drops a closed connection, as its own requests do);
 * per-partition errors are returned, not thrown, so a retry resends only what failed.
 */
export async function sendProduce(
  broker: Broker,
  batches: readonly { topic: string; partition: number; bytes: Buffer }[],
  timeoutMs = 30_000,
): Promise<ProducedPartition[]> {
  const version = broker.lookupRequest(PRODUCE_API_KEY, {
    versions: ['3', '4', '5', '6', '7'],
    protocol: ({ version }) => version,
  }) as number;
  const response = require(`kafkajs/src/protocol/requests/produce/v${version}/response`) as {
    decode: (raw: Buffer) => Promise<ProduceResponse>;
  };
  const byTopic = new Map<string, { partition: number; bytes: Buffer }[]>();
  for (const b of batches) {
    let list = byTopic.get(b.topic);
    if (!list) byTopic.set(b.topic, (list = []));
    list.push(b);
  }
  const request = {
    apiKey: PRODUCE_API_KEY,
    apiVersion: version,
    apiName: 'Produce',
    expectResponse: () => true,
    encode: async () =>
      new EncoderClass()
        .writeString(null) // transactional_id
        .writeInt16(-1) // acks=all
        .writeInt32(timeoutMs)
        .writeArray(
          [...byTopic].map(([topic, parts]) =>
            new EncoderClass()
              .writeString(topic)
              .writeArray(
                parts.map((p) => new EncoderClass().writeInt32(p.partition).writeBytes(p.bytes)),
              ),
          ),
        ),
  };
  const send = sendRequestOf(broker);
  const answer = (await send({
    request,
    response: { decode: response.decode, parse: async (data: ProduceResponse) => data },
  })) as ProduceResponse;
  const found = new Map<string, ProducedPartition>();
  for (const t of answer.topics)
    for (const p of t.partitions)
      found.set(
        `${t.topicName}:${p.partition}`,
        p.errorCode === 0
          ? { baseOffset: Number(p.baseOffset) }
          : { baseOffset: -1, error: createErrorFromCode(p.errorCode) },
      );
  return batches.map(
    (b) =>
      found.get(`${b.topic}:${b.partition}`) ?? {
        baseOffset: -1,
        error: new Error(`no answer for ${b.topic}-${b.partition} in the produce response`),
      },
  );
}

function sendRequestOf(broker: Broker): (protocolRequest: object) => Promise<unknown> {
  const proto = Object.getPrototypeOf(broker) as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(proto).find(
    (s) => s.description === 'private:Broker:sendRequest',
  );
  if (symbol === undefined) throw new Error('kafkajs: no Broker sendRequest (not kafkajs 2.2.4?)');
  const send = proto[symbol] as (this: Broker, r: object) => Promise<unknown>;
  return (r) => send.call(broker, r);
}

/** kafkajs' protocol decoder (the fields of a response). */
interface Decoder {
  readInt16(): number;
  readInt32(): number;
  readInt64(): { toString(): string };
  readInt8(): number;
  readString(): string;
  readBytes(length?: number): Buffer | null;
  canReadBytes(length: number): boolean;
  readArray<T>(read: (d: Decoder) => T): T[];
}
const DecoderClass = require('kafkajs/src/protocol/decoder') as new (buffer: Buffer) => Decoder;
const fetchDefinition = require('kafkajs/src/protocol/requests/fetch') as {
  versions: string[];
  protocol: (o: { version: number }) => unknown;
};
const decodeMessages = require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages') as (
  d: Decoder,
) => Promise<RawMessage[]>;
const FETCH_API_KEY = 1;
/** Where a record set's magic byte is (the same for every message format). */
const MAGIC_OFFSET = 16;

type FetchArgs = Parameters<Broker['fetch']>[0];
type FetchAnswer = Awaited<ReturnType<Broker['fetch']>>;
interface ProtocolRequest {
  request: { apiVersion: number };
  response: {
    decode: (raw: Buffer) => Promise<unknown>;
    parse: (data: unknown) => Promise<unknown>;
  };
}

/**
 * Broker#fetch, but each partition's v2 record set is handed over as the bytes it arrived in
 * (`recordSet`) for the engine's own batch decoder (embedded/batch-records.ts), instead of kafkajs
 * decoding every record into an object of strings, Longs and Buffers first. The request, and
 * the parse (which throws a partition's error, e.g. KafkaJSOffsetOutOfRange), are kafkajs' own
 * for the version it and the broker agree on; record sets of older message formats, and
 * versions before 4, are decoded by kafkajs as before.
 */
export async function fetchRecordSets(broker: Broker, args: FetchArgs): Promise<FetchAnswer> {
  const build = broker.lookupRequest(FETCH_API_KEY, fetchDefinition) as (
    a: FetchArgs & { rackId: string },
  ) => ProtocolRequest;
  const protocolRequest = build({ ...args, rackId: '' });
  const version = protocolRequest.request.apiVersion;
  if (version < 4) return broker.fetch(args);
  const send = sendRequestOf(broker);
  return (await send({
    ...protocolRequest,
    response: {
      decode: (raw: Buffer) => decodeFetchResponse(raw, version),
      parse: protocolRequest.response.parse,
    },
  })) as FetchAnswer;
}

/** A Fetch response of v4–v11 (kafkajs' layouts of them), record sets left as bytes. */
async function decodeFetchResponse(raw: Buffer, version: number): Promise<FetchAnswer> {
  const d = new DecoderClass(raw);
  d.readInt32(); // throttle_time_ms
  if (version >= 7) {
    d.readInt16(); // error_code (fetch sessions, unused: session id 0)
    d.readInt32(); // session_id
  }
  const topics = d.readArray((t) => ({
    topicName: t.readString(),
    partitions: t.readArray((p) => {
      const partition: RawPartitionData & { lastStableOffset: string } = {
        partition: p.readInt32(),
        errorCode: p.readInt16(),
        highWatermark: p.readInt64().toString(),
        lastStableOffset: p.readInt64().toString(),
        messages: [],
      };
      if (version >= 5) p.readInt64(); // log_start_offset
      partition.abortedTransactions = p.readArray((a) => ({
        producerId: a.readInt64().toString(),
        firstOffset: a.readInt64().toString(),
      }));
      if (version >= 11) p.readInt32(); // preferred_read_replica
      const size = p.readInt32();
      if (size > 0 && p.canReadBytes(size)) partition.recordSet = p.readBytes(size)!;
      return partition;
    }),
  }));
  // Message formats before v2 (a topic written by a pre-0.11 client): kafkajs decodes them.
  for (const t of topics)
    for (const p of t.partitions) {
      const set = p.recordSet;
      if (set === undefined || set.length <= MAGIC_OFFSET || set.readInt8(MAGIC_OFFSET) === 2)
        continue;
      const sized = Buffer.alloc(4 + set.length);
      sized.writeInt32BE(set.length, 0);
      set.copy(sized, 4);
      p.messages = await decodeMessages(new DecoderClass(sized));
      delete p.recordSet;
    }
  return { responses: topics } as unknown as FetchAnswer;
}
