export interface StartBrokerOptions {
  /** Where the broker keeps its config, data and log (default: a new temp dir, removed on stop). */
  dir?: string;
  /** JVM heap, -Xms and -Xmx (default '512m'). */
  heap?: string;
  /** How long to wait for "Kafka Server started" (default 120 s). */
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
}
export interface RunningBroker {
  /** host:port for clients, e.g. 127.0.0.1:40123. */
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
  pid: number;
  dir: string;
  logFile: string;
  /** SIGTERM by pid (SIGKILL after 30 s), waits for exit. Idempotent. */
  stop(): Promise<void>;
}
/** Fetches the broker's jars into target/lib with Maven when missing; returns that folder. */
export function ensureBrokerJars(options?: { verbose?: boolean }): string;
export function startBroker(options?: StartBrokerOptions): Promise<RunningBroker>;
