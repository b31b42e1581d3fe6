// The vitest globalSetup of the Kafka test projects (packages/engine, apps/runtime): one broker
// with the PLAINTEXT listener, SASL_PLAINTEXT and SASL_SSL ones for the given users, an SSL one
// and a mutual-TLS one (its CA and certificates made at start-up), handed to the test files with
// project.provide; stopped by pid afterwards. One broker for all: each start costs seconds.
import { join } from 'node:path';
import { startBroker } from './index.mjs';

export function brokerGlobalSetup(saslUsers) {
  let broker;
  return {
    async setup(project) {
      broker = await startBroker({
        startTimeoutMs: 180_000,
        sasl: { users: saslUsers },
        ssl: true,
      });
      project.provide('kafkaBootstrapServers', broker.bootstrapServers);
      project.provide('kafkaSaslBootstrapServers', broker.saslBootstrapServers);
      project.provide('kafkaSslBootstrapServers', broker.sslBootstrapServers);
      project.provide('kafkaMtlsBootstrapServers', broker.mtlsBootstrapServers);
      project.provide('kafkaSaslSslBootstrapServers', broker.saslSslBootstrapServers);
      project.provide('kafkaSslCa', broker.sslCa);
      project.provide('kafkaSslOtherCa', broker.sslOtherCa);
      project.provide('kafkaSslClientCert', broker.sslClientCert);
      project.provide('kafkaSslClientKey', broker.sslClientKey);
      project.provide('kafkaSslOtherClientCert', broker.sslOtherClientCert);
      project.provide('kafkaSslOtherClientKey', broker.sslOtherClientKey);
      project.provide('kafkaLogDir', join(broker.dir, 'data'));
    },
    async teardown() {
      await broker?.stop();
    },
  };
}
