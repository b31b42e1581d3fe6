/** What brokerGlobalSetup provides to the test files (`inject(name)`). */
export interface KafkaTestContext {
  kafkaBootstrapServers: string;
  /** The same broker's SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256/512). */
  kafkaSaslBootstrapServers: string;
  /** Its SSL listener (no client certificate asked for). */
  kafkaSslBootstrapServers: string;
  /** PEM of the CA that signed the SSL listener's certificate. */
  kafkaSslCa: string;
  /** PEM of another CA, which did not sign it. */
  kafkaSslOtherCa: string;
  /** Its mutual-TLS listener (security protocol SSL, ssl.client.auth=required; CA kafkaSslCa). */
  kafkaMtlsBootstrapServers: string;
  /** Its SASL_SSL listener (PLAIN, SCRAM-SHA-256/512; CA kafkaSslCa). */
  kafkaSaslSslBootstrapServers: string;
  /** PEM of a client certificate signed by kafkaSslCa, and of its (unencrypted) key. */
  kafkaSslClientCert: string;
  kafkaSslClientKey: string;
  /** PEM of a client certificate signed by kafkaSslOtherCa (the broker refuses it), and its key. */
  kafkaSslOtherClientCert: string;
  kafkaSslOtherClientKey: string;
  /** The broker's log.dirs: `<topic>-<partition>/` segment files, as the broker stored them. */
  kafkaLogDir: string;
}
/** globalSetup's setup and teardown: one broker, SASL users given as name → password. */
export function brokerGlobalSetup(saslUsers: Record<string, string>): {
  setup(project: { provide(key: keyof KafkaTestContext, value: string): void }): Promise<void>;
  teardown(): Promise<void>;
};
