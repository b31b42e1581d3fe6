// The Kafka backend's topic administration: create, delete, list and describe topics, partition
// counts for the producer, and partitions' offset ranges. Apart from kafka-backend.ts because it
// is the one part of the backend that speaks only to the admin client, with its own retry
// deadlines (default.api.timeout.ms) and the caches a delete must clear.
import type { NewTopicSpec, TopicDescription, TopicPartition } from '../../backend-spi.js';
import { EngineError, UnknownTopicError } from '../../errors.js';
import type { KafkaCluster } from './client/cluster.js';
import { KafkaAuthorizationError } from './client/errors.js';
import {
  createTopics,
  deleteTopics,
  EARLIEST,
  LATEST,
  listOffsets,
  listOffsetsRetriable,
  listTopicNames,
  topicConfig,
} from './kafka-admin.js';

/** default.api.timeout.ms (60 s): how long an admin call waits out an unreachable cluster. */
const ADMIN_DEADLINE_MS = 60_000;

export interface KafkaTopicsOptions {
  /** The admin client (requests never behind a long-polled fetch). */
  admin: KafkaCluster;
  replicationFactor: number | undefined;
  logger: { warn(obj: object, msg?: string): void };
  /** Deleted topics: the fetchers and clients drop what they keep of them. */
  forget: (names: string[]) => void;
}

export class KafkaTopics {
  readonly #admin: KafkaCluster;
  readonly #options: KafkaTopicsOptions;
  readonly #partitionCounts = new Map<string, number>();
  /** Topics whose configs the principal may not read (DESCRIBE_CONFIGS; warned once each). */
  readonly #configsRefused = new Set<string>();

  constructor(options: KafkaTopicsOptions) {
    this.#admin = options.admin;
    this.#options = options;
  }

  /** An admin call, retried through lost connections and moving leaders for up to 60 s. */
  #adminCall<T>(what: string, op: () => Promise<T>, deadlineMs = ADMIN_DEADLINE_MS): Promise<T> {
    return this.#admin.retrying(what, op, {
      maxAttempts: 30,
      deadline: Date.now() + deadlineMs,
    });
  }

  async createTopics(topics: NewTopicSpec[]): Promise<void> {
    const existing = new Set(
      await this.#adminCall('listing topics', () => listTopicNames(this.#admin)),
    );
    const missing = topics.filter((t) => !existing.has(t.name));
    if (missing.length === 0) return;
    // Another instance of the application may have created them a moment ago: an existing
    // topic is no error (createTopics leaves TOPIC_ALREADY_EXISTS out).
    const failures = await this.#adminCall('creating topics', () =>
      createTopics(this.#admin, missing, this.#options.replicationFactor),
    );
    // Not a bad config: the principal lacks CREATE (the error names it, the topic and the ACL).
    const refused = failures.find((f) => f.error instanceof KafkaAuthorizationError);
    if (refused !== undefined) throw refused.error;
    if (failures.length > 0)
      throw new EngineError(
        'INVALID_TOPIC_CONFIG',
        `creating topics ${missing.map((t) => t.name).join(', ')} failed: ${failures.map((f) => `${f.name}: ${f.error.message}`).join('; ')}`,
        { cause: failures[0]!.error },
      );
    // Ready once every partition has a leader that answers for its offsets (retried through
    // KRaft's UNKNOWN_TOPIC_OR_PARTITION while the new topic's metadata travels).
    for (const t of missing) await this.#offsets(t.name, LATEST);
    for (const t of missing) this.#partitionCounts.set(t.name, t.partitions);
  }

  async deleteTopics(names: string[]): Promise<void> {
    const existing = new Set(
      await this.#adminCall('listing topics', () => listTopicNames(this.#admin)),
    );
    const doomed = names.filter((n) => existing.has(n));
    for (const n of names) this.#partitionCounts.delete(n);
    this.#options.forget(names);
    if (doomed.length > 0)
      await this.#adminCall('deleting topics', () => deleteTopics(this.#admin, doomed));
  }

  async listTopics(): Promise<TopicDescription[]> {
    const names = (
      await this.#adminCall('listing topics', () => listTopicNames(this.#admin))
    ).filter((n) => !n.startsWith('__'));
    const out: TopicDescription[] = [];
    for (const name of names.sort()) {
      const d = await this.describeTopic(name);
      if (d) out.push(d);
    }
    return out;
  }

  async describeTopic(name: string): Promise<TopicDescription | null> {
    const names = await this.#adminCall('listing topics', () => listTopicNames(this.#admin));
    if (!names.includes(name)) return null;
    const earliest = await this.#offsets(name, EARLIEST);
    const latest = await this.#offsets(name, LATEST);
    this.#partitionCounts.set(name, latest.size);
    const config = await this.#adminCall(`describing ${name}`, () =>
      topicConfig(this.#admin, name),
    ).catch((error: unknown) => {
      // A principal may describe a topic without DESCRIBE_CONFIGS on it (what Kafka's producer,
      // consumer and Kafka Streams need of a source or sink topic): its own settings stay unknown.
      if (!(error instanceof KafkaAuthorizationError)) throw error;
      if (!this.#configsRefused.has(name)) {
        this.#configsRefused.add(name);
        this.#options.logger.warn(
          { topic: name, err: error.message },
          `Kafka: cannot read the configs of topic ${name}; describing it without them`,
        );
      }
      return {};
    });
    return {
      name,
      partitions: latest.size,
      config,
      internal: name.endsWith('-repartition') || name.endsWith('-changelog'),
      offsets: [...latest]
        .map(([partition, high]) => ({
          partition,
          earliest: earliest.get(partition) ?? 0,
          latest: high,
        }))
        .sort((a, b) => a.partition - b.partition),
    };
  }

  /**
   * ListOffsets of every partition of `topic`, retried while leaders are elected or metadata
   * travels (≈ 10 s at most, as before) and through lost connections.
   */
  #offsets(
    topic: string,
    at: bigint,
    deadlineMs = ADMIN_DEADLINE_MS,
  ): Promise<Map<number, number>> {
    return this.#admin.retrying(
      `listing offsets of ${topic}`,
      () => listOffsets(this.#admin, topic, at),
      {
        maxAttempts: 30,
        deadline: Date.now() + deadlineMs,
        retriable: listOffsetsRetriable,
      },
    );
  }

  /**
   * A topic's partition count for a produce, from its metadata only (what Kafka's producer
   * asks: DESCRIBE on the topic, nothing more; a principal without it meets a
   * KafkaAuthorizationError naming DESCRIBE).
   */
  async partitions(topic: string): Promise<number> {
    const known = this.#partitionCounts.get(topic);
    if (known !== undefined) return known;
    const metadata = await this.#adminCall(`the metadata of ${topic}`, () =>
      this.#admin.topic(topic),
    );
    if (metadata === undefined) throw new UnknownTopicError(topic);
    this.#partitionCounts.set(topic, metadata.partitions.length);
    return metadata.partitions.length;
  }

  async offsetForTimestamp(tp: TopicPartition, timestamp: number): Promise<number | null> {
    const found = await this.#offsets(tp.topic, BigInt(timestamp));
    const offset = found.get(tp.partition);
    if (offset === undefined) return null;
    // Kafka answers -1 (or the log end) when no record is at or after the timestamp.
    const range = await this.range(tp.topic, tp.partition);
    return offset < 0 || offset >= range.latest ? null : offset;
  }

  /** A partition's [earliest, latest) offsets; waits out an unreachable cluster (fetch resets). */
  async range(topic: string, partition: number): Promise<{ earliest: number; latest: number }> {
    const earliest = await this.#offsets(topic, EARLIEST, Infinity);
    const latest = await this.#offsets(topic, LATEST, Infinity);
    const low = earliest.get(partition);
    const high = latest.get(partition);
    if (low === undefined || high === undefined) throw new UnknownTopicError(topic);
    return { earliest: low, latest: high };
  }
}
