// The vitest globalSetup of the Kafka test projects (packages/engine, apps/runtime): one broker
// with the PLAINTEXT listener, a SASL_PLAINTEXT one for the given users and an SSL one (its CA
// made at start-up), handed to the test files with project.provide; stopped by pid afterwards.
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
      project.provide('kafkaSslCa', broker.sslCa);
      project.provide('kafkaSslOtherCa', broker.sslOtherCa);
    },
    async teardown() {
      await broker?.stop();
    },
  };
}
