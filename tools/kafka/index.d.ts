/** Broker versions tools/kafka fetches; '4.1.1' is the default. */
export type KafkaVersion = '4.1.1' | '3.9.1';
export const VERSIONS: readonly KafkaVersion[];
export const DEFAULT_VERSION: KafkaVersion;

export interface StartBrokerOptions {
  /** Apache Kafka version (default '4.1.1'; '3.9.1' for the 3.9 smoke test). */
  version?: KafkaVersion;
  /** Where the broker keeps its config, data and log (default: a new temp dir, removed on stop). */
  dir?: string;
  /** JVM heap, -Xms and -Xmx (default '512m'). */
  heap?: string;
  /** How long to wait for "Kafka Server started" at each (re)start (default 120 s). */
  startTimeoutMs?: number;
  /** Extra server.properties entries. */
  config?: Record<string, string>;
  /**
   * Also a SASL_PLAINTEXT listener (saslBootstrapServers) taking PLAIN, SCRAM-SHA-256 and
   * SCRAM-SHA-512 for these users (name → password).
   */
  sasl?: { users: Record<string, string> };
  /**
   * Also TLS listeners with a certificate for 127.0.0.1 from a CA made at start-up with openssl
   * in the broker's dir (sslCa): SSL (sslBootstrapServers; no client certificate asked for),
   * a mutual-TLS one (mtlsBootstrapServers: security protocol SSL, ssl.client.auth=required,
   * client certificates signed by sslCa) and, with `sasl`, SASL_SSL (saslSslBootstrapServers).
   */
  ssl?: boolean;
  /**
   * KRaft's StandardAuthorizer with allow.everyone.if.no.acl.found=false: on the SASL listeners
   * only these super users (user names, or principals like 'User:admin') and what ACLs allow
   * (createAcls) are allowed. Needs `sasl`. The PLAINTEXT listener stays the node's own: its
   * principal, User:ANONYMOUS, is a super user too (broker ↔ controller traffic uses it), and so
   * are the admin helpers below.
   */
  authorizer?: { superUsers: string[] };
}

/** One ACL, as Kafka's Admin API takes it (names of its enums, case-insensitive). */
export interface KafkaAcl {
  /** e.g. 'User:alice'. */
  principal: string;
  /** Default '*'. */
  host?: string;
  /** e.g. 'READ', 'WRITE', 'DESCRIBE', 'CREATE', 'ALL'. */
  operation: string;
  /** 'ALLOW' (default) or 'DENY'. */
  permission?: 'ALLOW' | 'DENY';
  /** 'TOPIC', 'GROUP', 'TRANSACTIONAL_ID', 'CLUSTER', … */
  resourceType: string;
  /** e.g. the topic's name; '*' for all; 'kafka-cluster' for CLUSTER. */
  resourceName: string;
  /** 'LITERAL' (default) or 'PREFIXED'. */
  patternType?: 'LITERAL' | 'PREFIXED';
}

/** A partition as Kafka's Admin API describes it (node ids; leader null when it has none). */
export interface PartitionInfo {
  partition: number;
  leader: number | null;
  replicas: number[];
  isr: number[];
}

/**
 * Metadata and ACLs through Kafka's own Admin API (java/BrokerAdmin.java on the broker's
 * classpath; one short JVM per call, 1-3 s), connecting as the super user of the PLAINTEXT
 * listener.
 */
export interface BrokerAdmin {
  describeTopic(topic: string): Promise<PartitionInfo[]>;
  createAcls(acls: KafkaAcl[]): Promise<void>;
  /** Removes the ACLs matching these (exact) bindings; resolves to how many were removed. */
  deleteAcls(acls: KafkaAcl[]): Promise<number>;
  describeAcls(): Promise<Required<KafkaAcl>[]>;
}

export interface RunningBroker extends BrokerAdmin {
  version: KafkaVersion;
  /** host:port for clients, e.g. 127.0.0.1:24123. Stays the same across restarts. */
  bootstrapServers: string;
  /** host:port of the SASL_PLAINTEXT listener, when started with `sasl`. */
  saslBootstrapServers?: string;
  /** host:port of the SSL listener, when started with `ssl`. */
  sslBootstrapServers?: string;
  /** PEM of the CA that signed the SSL listener's certificate. */
  sslCa?: string;
  /** PEM of another CA, which did not sign it (for wrong-CA tests). */
  sslOtherCa?: string;
  /** host:port of the mutual-TLS listener (SSL with ssl.client.auth=required), with `ssl`. */
  mtlsBootstrapServers?: string;
  /** host:port of the SASL_SSL listener, with `ssl` and `sasl`. */
  saslSslBootstrapServers?: string;
  /** PEM of a client certificate signed by sslCa, and of its unencrypted key. */
  sslClientCert?: string;
  sslClientKey?: string;
  /** PEM of a client certificate signed by sslOtherCa (refused by the broker), and its key. */
  sslOtherClientCert?: string;
  sslOtherClientKey?: string;
  /** The JVM's pid (the latest one's while it is down). A restart gives a new one. */
  readonly pid: number;
  /** Whether the JVM is up (false after kill() or stop() until start()). */
  readonly running: boolean;
  dir: string;
  /** Its log, appended to across restarts. */
  logFile: string;
  /**
   * SIGTERM by pid (a clean shutdown; SIGKILL after 30 s), waits for the exit. Without `keepDir`
   * this is the final stop: a temp dir is removed and the broker cannot start again. With
   * `keepDir: true` it can (start()). Idempotent.
   */
  stop(options?: { keepDir?: boolean }): Promise<void>;
  /** SIGKILL by pid (a crash, no clean shutdown), waits for the exit; the dir stays for start(). */
  kill(): Promise<void>;
  /**
   * Starts the same node again (after kill() or stop({ keepDir: true })) on the same ports and
   * data dir, and resolves once it serves clients; a no-op while it runs. After a kill the node
   * waits for its old broker session to expire (broker.session.timeout.ms, 4 s here).
   */
  start(): Promise<void>;
  /** stop({ keepDir: true }) when running, then start(). */
  restart(): Promise<void>;
}

export interface StartClusterOptions {
  /** How many nodes (default 3): node ids 1..n, each a combined broker and controller. */
  brokers?: number;
  version?: KafkaVersion;
  /** Where the nodes keep their dirs (node-<id>/; default: a new temp dir, removed on stop()). */
  dir?: string;
  /** JVM heap per node (default '384m'). */
  heap?: string;
  /** How long to wait for each node's "Kafka Server started" (default 180 s). */
  startTimeoutMs?: number;
  /** Extra server.properties entries for every node. */
  config?: Record<string, string>;
}

/**
 * A KRaft cluster on loopback: one cluster id, a static quorum of all nodes' controllers,
 * default.replication.factor = the cluster's size, min.insync.replicas 2, the offsets and
 * transaction-state topics replicated to every node (min ISR 2), 5 partitions each.
 */
export interface RunningCluster extends BrokerAdmin {
  version: KafkaVersion;
  /** Every node's client listener, comma-separated (host:port,host:port,…). */
  bootstrapServers: string;
  nodeIds: number[];
  dir: string;
  bootstrapServersOf(nodeId: number): string;
  pidOf(nodeId: number): number;
  isRunning(nodeId: number): boolean;
  logFileOf(nodeId: number): string;
  /** SIGKILL of one node; its dir stays for start(nodeId). */
  kill(nodeId: number): Promise<void>;
  /**
   * With a node id: a clean shutdown of that node, its dir kept for start(nodeId). Without: the
   * final stop of every node (a temp dir is removed).
   */
  stop(nodeId?: number): Promise<void>;
  /** Starts a killed or stopped node again on its ports and data dir. */
  start(nodeId: number): Promise<void>;
  /** stop(nodeId) then start(nodeId). */
  restart(nodeId: number): Promise<void>;
  /** The node id currently leading a partition (null when none does), from the nodes that are up. */
  leaderOf(topic: string, partition: number): Promise<number | null>;
}

/** Fetches every version's jars into target/lib-<version> with Maven when missing; returns the version's folder. */
export function ensureBrokerJars(options?: { verbose?: boolean; version?: KafkaVersion }): string;
/** target/lib-<version>. */
export function libDir(version?: KafkaVersion): string;
export function startBroker(options?: StartBrokerOptions): Promise<RunningBroker>;
export function startCluster(options?: StartClusterOptions): Promise<RunningCluster>;
/** One BrokerAdmin command (java/BrokerAdmin.java) with an optional admin client config. */
export function runAdmin(
  version: KafkaVersion,
  bootstrapServers: string,
  command: 'describe-topic' | 'create-acls' | 'delete-acls' | 'describe-acls',
  arg: unknown,
  clientConfig?: Record<string, string>,
): Promise<unknown>;
