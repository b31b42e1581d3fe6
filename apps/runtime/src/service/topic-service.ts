// Topics of the backend for the API: list, describe, create and delete them (Kafka's admin
// client), produce one record from text and read the latest records decoded by serdes (the web
// app's topic browser).
import type { Backend, StoredRecord, TopicDescription } from '@streamwright/engine';
import type { SerdeName } from '@streamwright/topology-model';
import { recordTooLarge, RuntimeError } from '../errors.js';
import { decodeBytes, decodeWindowedKey, encodeText, type KeyWindow } from './record-codec.js';
import { checkTopicConfig } from './topic-config.js';
import { headersJson, type HeaderJson } from './headers-json.js';
import { readLatest } from './topic-reader.js';
import { browsePartition, type BrowsePage, type BrowseStart } from './topic-browser.js';

export interface CreateTopicRequest {
  name: string;
  partitions: number;
  config: Record<string, string | number | boolean>;
}

/** What the service needs to know about the running application. */
export interface AppGuard {
  /** Throws when the runtime no longer takes writes (shutting down). */
  assertOpen(): void;
  /** The running application that reads or writes `topic`, or null. */
  appUsingTopic(topic: string): string | null;
}

export interface ProduceRequest {
  topic: string;
  partition?: number | undefined;
  key: string | null;
  value: string | null;
  keySerde: SerdeName;
  valueSerde: SerdeName;
  headers?: Record<string, string> | undefined;
  /** Epoch milliseconds; absent: the time of producing (CreateTime). */
  timestamp?: number | undefined;
}

export interface ReadRequest {
  topic: string;
  partition?: number | undefined;
  limit: number;
  keySerde: SerdeName;
  /** Keys are windowed (a windowed aggregation's output or a window store's changelog). */
  keyWindow?: KeyWindow | undefined;
  valueSerde: SerdeName;
}

export interface ReadRecord {
  partition: number;
  offset: number;
  timestamp: number;
  key: unknown;
  value: unknown;
  /** Ordered, repeated keys kept; text where it is UTF-8, else {"base64"} (headers-json.ts). */
  headers: HeaderJson[];
  /** True for a key or value whose bytes the serde could not decode: it is shown as base64. */
  undecodable: { key: boolean; value: boolean };
}

export class TopicService {
  constructor(
    private readonly backend: Backend,
    private readonly guard: AppGuard,
  ) {}

  async list(): Promise<TopicDescription[]> {
    const topics = await this.backend.listTopics();
    return [...topics].sort((a, b) => a.name.localeCompare(b.name));
  }

  async describe(name: string): Promise<TopicDescription> {
    return this.requireTopic(name);
  }

  /** Kafka's createTopics: an existing name is TOPIC_EXISTS, an unknown config key refused. */
  async create(request: CreateTopicRequest): Promise<TopicDescription> {
    this.guard.assertOpen();
    const config = checkTopicConfig(request.config);
    if (await this.backend.describeTopic(request.name)) {
      throw new RuntimeError('TOPIC_EXISTS', `topic "${request.name}" already exists`);
    }
    await this.backend.createTopics([
      { name: request.name, partitions: request.partitions, config },
    ]);
    return this.requireTopic(request.name);
  }

  /** Deletes a topic with its data and the offsets committed for it. */
  async delete(name: string): Promise<void> {
    this.guard.assertOpen();
    await this.requireTopic(name);
    const app = this.guard.appUsingTopic(name);
    if (app) {
      throw new RuntimeError(
        'TOPIC_IN_USE',
        `topic "${name}" is used by the running application ${app}: stop it first`,
      );
    }
    await this.backend.deleteTopics([name]);
  }

  async produce(request: ProduceRequest): Promise<{ partition: number; offset: number }> {
    this.guard.assertOpen();
    const topic = await this.requireTopic(request.topic);
    if (request.partition !== undefined) checkPartition(topic, request.partition);
    const key = encodeText(request.key, request.keySerde, 'key');
    const value = encodeText(request.value, request.valueSerde, 'value');
    const [written] = await this.backend
      .produce([
        {
          topic: topic.name,
          ...(request.partition === undefined ? {} : { partition: request.partition }),
          key,
          value,
          headers: request.headers ?? {},
          ...(request.timestamp === undefined ? {} : { timestamp: request.timestamp }),
        },
      ])
      .catch((error: unknown) => {
        throw recordTooLarge(error, topic.name);
      });
    if (!written) throw new Error(`the backend acknowledged no record for ${topic.name}`);
    return written;
  }

  async read(request: ReadRequest): Promise<ReadRecord[]> {
    const topic = await this.requireTopic(request.topic);
    if (request.partition !== undefined) checkPartition(topic, request.partition);
    const partitions =
      request.partition === undefined ? topic.offsets.map((o) => o.partition) : [request.partition];
    const records = await readLatest(this.backend, topic, partitions, request.limit);
    return records.map((record) => decodeRecord(record, request));
  }

  /** One page of a partition from an offset, a time, or its end (the topic browser). */
  async browse(
    request: Omit<ReadRequest, 'partition'> & { partition: number; start: BrowseStart },
  ): Promise<Omit<BrowsePage, 'records'> & { records: ReadRecord[] }> {
    const topic = await this.requireTopic(request.topic);
    checkPartition(topic, request.partition);
    const page = await browsePartition(
      this.backend,
      topic,
      request.partition,
      request.start,
      request.limit,
    );
    return { ...page, records: page.records.map((r) => decodeRecord(r, request)) };
  }

  private async requireTopic(name: string): Promise<TopicDescription> {
    return requireTopic(this.backend, name);
  }
}

function decodeRecord(
  record: StoredRecord,
  serdes: { keySerde: SerdeName; keyWindow?: KeyWindow | undefined; valueSerde: SerdeName },
): ReadRecord {
  const key = serdes.keyWindow
    ? decodeWindowedKey(record.key, serdes.keySerde, serdes.keyWindow)
    : decodeBytes(record.key, serdes.keySerde);
  const value = decodeBytes(record.value, serdes.valueSerde);
  return {
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: key.value,
    value: value.value,
    headers: headersJson(record.headers),
    undecodable: { key: key.undecodable, value: value.undecodable },
  };
}

export async function requireTopic(backend: Backend, name: string): Promise<TopicDescription> {
  const topic = await backend.describeTopic(name);
  if (!topic) throw new RuntimeError('TOPIC_NOT_FOUND', `topic "${name}" does not exist`);
  return topic;
}

export function checkPartition(topic: TopicDescription, partition: number): void {
  if (partition >= topic.partitions) {
    throw new RuntimeError(
      'PARTITION_OUT_OF_RANGE',
      `partition: topic "${topic.name}" has partitions 0..${topic.partitions - 1}, not ${partition}`,
    );
  }
}
