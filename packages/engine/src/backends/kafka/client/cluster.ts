// A client's view of a Kafka cluster, as Java's NetworkClient + Metadata + ClusterConnectionStates
// keep it: connections per broker (opened on demand, one per broker), the metadata of the topics
// the client uses (leaders per partition, refreshed when stale: after a leader moved, a
// connection was lost, or every 5 minutes), and the group and transaction coordinators.
//
// Reconnects: a broker whose connection failed is tried again after an exponential backoff from
// reconnect.backoff.ms (50) up to reconnect.backoff.max.ms (1 000), with ±20 % jitter, and with
// no limit on the number of attempts: `retrying` runs an operation until it succeeds or fails
// with what no retry can fix, so an outage of any length is waited out. Which brokers are
// unreachable, and since when, goes to the HealthTracker the client was given.
import type { ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import {
  backoffMs,
  RECONNECT_BACKOFF,
  RETRY_BACKOFF,
  sleep,
  type BackoffPolicy,
} from './backoff.js';
import { BrokerConnection } from './connection.js';
import { AUTHORIZATION_CODES, principalOf } from './authorization.js';
import {
  KafkaClientClosedError,
  KafkaConnectionError,
  isRetriable,
  type KafkaApiError,
} from './errors.js';
import { HealthTracker } from './health.js';
import { protocolError, type ResponseOf } from './protocol.js';
import type { SaslCredentials } from './sasl-mechanisms.js';

export interface ClusterConfig {
  /** bootstrap.servers, `host:port` each. */
  bootstrapServers: string[];
  clientId: string;
  tls?: TlsConnectionOptions;
  sasl?: SaslCredentials;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  reconnectBackoff?: BackoffPolicy;
  /** Where unreachable brokers are reported (shared by all clients of a backend). */
  health?: HealthTracker;
  logger?: { warn(obj: object, msg?: string): void };
  /** metadata.max.age.ms (5 minutes). */
  metadataMaxAgeMs?: number;
}

export interface PartitionMetadata {
  partition: number;
  /** The leader's node id, -1 while there is none. */
  leader: number;
  leaderEpoch: number;
  errorCode: number;
}

export interface TopicMetadata {
  name: string;
  topicId: string;
  /** Indexed by partition number. */
  partitions: PartitionMetadata[];
}

export type CoordinatorType = 'group' | 'transaction';

/** The zero UUID in Kafka's base64 form (a Metadata request naming topics by name). */
const NO_TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** One broker address and the state of this client's connection to it. */
interface Link {
  address: string;
  host: string;
  port: number;
  connection: BrokerConnection | null;
  opening: Promise<BrokerConnection> | null;
  /** Failed attempts in a row (0 once connected). */
  failures: number;
  nextAttemptAt: number;
  /** When the last connection was lost (not closed by this client), until reconnected. */
  lostAt: number | null;
}

export function parseAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  const port = Number(address.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`"${address}" is not a broker address (host:port)`);
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port };
}

export class KafkaCluster {
  readonly health: HealthTracker;
  readonly #links = new Map<string, Link>();
  readonly #bootstrap: string[];
  /** nodeId → address, from Metadata and FindCoordinator answers. */
  readonly #nodes = new Map<number, string>();
  readonly #topics = new Map<string, TopicMetadata>();
  /** Tracked topics the last Metadata answer refused for good (not authorised to DESCRIBE them). */
  readonly #topicErrors = new Map<string, KafkaApiError>();
  /** The topics whose metadata this client keeps (refreshed together). */
  readonly #tracked = new Set<string>();
  readonly #coordinators = new Map<string, number>();
  #refreshing: Promise<void> | null = null;
  #refreshedAt = 0;
  #stale = true;
  #closed = false;
  readonly #stop = new AbortController();

  constructor(readonly config: ClusterConfig) {
    this.health = config.health ?? new HealthTracker();
    this.#bootstrap = config.bootstrapServers;
    for (const address of this.#bootstrap) this.#link(address);
  }

  /** This client's principal as the broker's default principal builder names it (User:alice). */
  get principal(): string {
    return (this.#principal ??= principalOf(this.config));
  }
  #principal: string | undefined;

  get closed(): boolean {
    return this.#closed;
  }

  #link(address: string): Link {
    let link = this.#links.get(address);
    if (!link) {
      const { host, port } = parseAddress(address);
      link = {
        address,
        host,
        port,
        connection: null,
        opening: null,
        failures: 0,
        nextAttemptAt: 0,
        lostAt: null,
      };
      this.#links.set(address, link);
    }
    return link;
  }

  /**
   * The connection to `address`, opened if needed: one attempt, made once the reconnect backoff
   * after earlier failures has passed. Throws the attempt's error.
   */
  async connect(address: string): Promise<BrokerConnection> {
    const link = this.#link(address);
    for (;;) {
      if (this.#closed) throw new KafkaClientClosedError();
      if (link.connection && !link.connection.closed) return link.connection;
      if (link.opening) return link.opening;
      const wait = link.nextAttemptAt - Date.now();
      if (wait <= 0) break;
      await sleep(wait, this.#stop.signal);
    }
    link.opening = this.#open(link).finally(() => (link.opening = null));
    return link.opening;
  }

  async #open(link: Link): Promise<BrokerConnection> {
    try {
      const connection = await BrokerConnection.open({
        host: link.host,
        port: link.port,
        clientId: this.config.clientId,
        ...(this.config.tls ? { tls: this.config.tls } : {}),
        ...(this.config.sasl ? { sasl: this.config.sasl } : {}),
        ...(this.config.connectTimeoutMs !== undefined
          ? { connectTimeoutMs: this.config.connectTimeoutMs }
          : {}),
        ...(this.config.requestTimeoutMs !== undefined
          ? { requestTimeoutMs: this.config.requestTimeoutMs }
          : {}),
      });
      if (this.#closed) {
        connection.close();
        throw new KafkaClientClosedError();
      }
      link.connection = connection;
      link.failures = 0;
      link.nextAttemptAt = 0;
      link.lostAt = null;
      this.health.reached(link.address);
      connection.onClose(() => {
        if (link.connection !== connection) return;
        link.connection = null;
        if (this.#closed) return;
        // A lost connection: the next attempt waits reconnect.backoff.ms, and the metadata may
        // have changed with it (a leader on that broker moved away).
        link.lostAt = Date.now();
        link.failures = 1;
        link.nextAttemptAt = Date.now() + backoffMs(this.#reconnectPolicy(), 1);
        this.#stale = true;
      });
      return connection;
    } catch (error) {
      if (error instanceof KafkaClientClosedError) throw error;
      link.failures++;
      link.nextAttemptAt = Date.now() + backoffMs(this.#reconnectPolicy(), link.failures);
      if (isRetriable(error)) this.health.failed(link.address, error as Error, link.lostAt);
      throw error;
    }
  }

  #reconnectPolicy(): BackoffPolicy {
    return this.config.reconnectBackoff ?? RECONNECT_BACKOFF;
  }

  /** The connection to broker `nodeId` (its address from the metadata). */
  async node(nodeId: number): Promise<BrokerConnection> {
    let address = this.#nodes.get(nodeId);
    if (address === undefined) {
      await this.refresh();
      address = this.#nodes.get(nodeId);
    }
    if (address === undefined)
      throw new KafkaConnectionError(`node ${nodeId}`, `broker ${nodeId} is not in the metadata`);
    return this.connect(address);
  }

  /**
   * A connection to some broker (for metadata, admin requests): an open one if any, else the
   * known address whose next attempt is due first (one attempt).
   */
  async any(): Promise<BrokerConnection> {
    for (const link of this.#links.values())
      if (link.connection && !link.connection.closed) return link.connection;
    const candidates = [...this.#links.values()].sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
    return this.connect(candidates[0]!.address);
  }

  /** Marks the metadata stale: the next lookup asks the cluster again. */
  invalidate(): void {
    this.#stale = true;
  }

  /** Asks for the metadata of the tracked topics (one request at a time, shared by callers). */
  refresh(): Promise<void> {
    this.#refreshing ??= this.#refresh().finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  async #refresh(): Promise<void> {
    const answer = await this.metadata([...this.#tracked]);
    this.#stale = false;
    this.#refreshedAt = Date.now();
    for (const name of this.#tracked) {
      this.#topics.delete(name);
      this.#topicErrors.delete(name);
    }
    for (const t of answer.topics) {
      if (t.name === null || t.name === undefined) continue;
      if (AUTHORIZATION_CODES.has(t.errorCode)) {
        // Kafka's producer and consumer fail at once here (TopicAuthorizationException): no
        // retry gives the principal DESCRIBE on the topic.
        this.#topicErrors.set(
          t.name,
          protocolError(t.errorCode, { topic: t.name, api: 'Metadata', principal: this.principal }),
        );
        continue;
      }
      if (t.errorCode !== 0) continue; // unknown, or its leaders still being elected
      const partitions: PartitionMetadata[] = [];
      for (const p of t.partitions)
        partitions[p.partitionIndex] = {
          partition: p.partitionIndex,
          leader: p.leaderId,
          leaderEpoch: p.leaderEpoch,
          errorCode: p.errorCode,
        };
      this.#topics.set(t.name, { name: t.name, topicId: t.topicId, partitions });
    }
  }

  /**
   * A Metadata request for `topics` (all topics when null), to any broker; the brokers it lists
   * are remembered. Not retried.
   */
  async metadata(topics: string[] | null): Promise<ResponseOf<'Metadata'>> {
    const connection = await this.any();
    const answer = await connection.send('Metadata', {
      topics: topics === null ? null : topics.map((name) => ({ topicId: NO_TOPIC_ID, name })),
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    for (const b of answer.brokers) {
      const address = `${b.host}:${b.port}`;
      this.#nodes.set(b.nodeId, address);
      this.#link(address);
    }
    return answer;
  }

  /**
   * The metadata of `topic` (tracked from now on), refreshed when stale or unknown; undefined
   * when the cluster does not have it (or its leaders are still being elected). Throws a
   * KafkaAuthorizationError when the principal may not DESCRIBE it.
   */
  async topic(name: string): Promise<TopicMetadata | undefined> {
    const maxAge = this.config.metadataMaxAgeMs ?? 300_000;
    if (!this.#tracked.has(name)) {
      this.#tracked.add(name);
      this.#stale = true;
    }
    if (this.#stale || !this.#topics.has(name) || Date.now() - this.#refreshedAt > maxAge)
      await this.refresh();
    const refused = this.#topicErrors.get(name);
    if (refused !== undefined) throw refused;
    return this.#topics.get(name);
  }

  /** The metadata already known of `topic`, without asking. */
  knownTopic(name: string): TopicMetadata | undefined {
    return this.#topics.get(name);
  }

  /** Stops tracking topics (deleted). */
  forget(names: readonly string[]): void {
    for (const n of names) {
      this.#tracked.delete(n);
      this.#topics.delete(n);
      this.#topicErrors.delete(n);
    }
  }

  /**
   * The leader of a partition: its node id, or a retriable error while there is none (a topic
   * being created, a leader being elected).
   */
  async leader(topic: string, partition: number): Promise<number> {
    const t = await this.topic(topic);
    const p = t?.partitions[partition];
    if (p === undefined || p.leader < 0) {
      this.#stale = true;
      throw protocolError(t === undefined ? 3 : 5, { topic, partition });
    }
    return p.leader;
  }

  /** The coordinator of a group or transactional id (FindCoordinator, cached). */
  async coordinator(type: CoordinatorType, key: string): Promise<BrokerConnection> {
    const cacheKey = `${type}:${key}`;
    const known = this.#coordinators.get(cacheKey);
    if (known !== undefined) return this.node(known);
    const connection = await this.any();
    const answer = await connection.send('FindCoordinator', {
      key,
      keyType: type === 'group' ? 0 : 1,
    });
    if (answer.errorCode !== 0)
      throw protocolError(
        answer.errorCode,
        {
          ...(type === 'group' ? { group: key } : { transactionalId: key }),
          api: 'FindCoordinator',
          principal: this.principal,
        },
        answer.errorMessage ?? undefined,
      );
    const address = `${answer.host}:${answer.port}`;
    this.#nodes.set(answer.nodeId, address);
    this.#coordinators.set(cacheKey, answer.nodeId);
    return this.connect(address);
  }

  /** Forgets a coordinator (it moved, or its connection was lost): the next call looks it up. */
  forgetCoordinator(type: CoordinatorType, key: string): void {
    this.#coordinators.delete(`${type}:${key}`);
  }

  /**
   * Runs `op` until it succeeds, retrying what a retry can fix: a lost or refused connection or a
   * timed-out request (after the reconnect backoff; not counted as an attempt, so an outage of
   * any length is waited out unless `deadline` says otherwise), and a retriable Kafka error
   * (after retry.backoff.ms, the metadata marked stale; at most `maxAttempts`). The rest is
   * thrown, and so is the last error once `maxAttempts`, `deadline` or `signal` stops it.
   */
  async retrying<T>(
    what: string,
    op: (attempt: number) => Promise<T>,
    options?: {
      maxAttempts?: number;
      /** Epoch ms after which no new attempt is made (default.api.timeout.ms for admin calls). */
      deadline?: number;
      signal?: AbortSignal;
      /** Decides what is retriable instead of the errors' own `retriable`. */
      retriable?: (error: unknown) => boolean;
    },
  ): Promise<T> {
    let warnedAt = 0;
    let attempts = 0;
    for (;;) {
      if (this.#closed) throw new KafkaClientClosedError();
      try {
        return await op(attempts + 1);
      } catch (error) {
        if (this.#closed) throw new KafkaClientClosedError();
        const retriable = options?.retriable?.(error) ?? isRetriable(error);
        const lost = error instanceof KafkaConnectionError;
        if (!lost) attempts++;
        if (
          !retriable ||
          attempts >= (options?.maxAttempts ?? Infinity) ||
          Date.now() >= (options?.deadline ?? Infinity) ||
          options?.signal?.aborted
        )
          throw error;
        this.#stale = true;
        // Loud but not flooding: the first retry, then every 30 s while it lasts.
        if (Date.now() - warnedAt > 30_000) {
          warnedAt = Date.now();
          this.config.logger?.warn(
            { client: this.config.clientId, err: (error as Error).message },
            `Kafka: ${what} failed; retrying`,
          );
        }
        // A connection's own backoff spaces reconnects; Kafka's errors wait retry.backoff.ms.
        if (!lost)
          await sleep(backoffMs(RETRY_BACKOFF, attempts), options?.signal ?? this.#stop.signal);
      }
    }
  }

  /** Closes every connection; calls waiting in `retrying` or a backoff end with a closed error. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop.abort();
    for (const link of this.#links.values()) {
      link.connection?.close();
      link.connection = null;
    }
  }
}
