// Shared by the Kafka backend's tests: a backend on the broker the global setup started, the
// seed's KStream vs KTable documents under a per-test application id (seed-topology.ts), and
// reading a topic back.
import { inject } from 'vitest';
import type { Backend } from '../../src/backend-spi.js';
import { createKafkaBackend, type KafkaBackendOptions } from '../../src/backends/kafka/index.js';
import { readAll } from '../fixtures/records.js';

export { seedTopology } from './seed-topology.js';

export function kafkaBackend(options: Partial<KafkaBackendOptions> = {}) {
  return createKafkaBackend({
    bootstrapServers: [inject('kafkaBootstrapServers')],
    // Short enough that a killed instance's tasks move within the test, long enough for a
    // loaded machine (the broker's group.min.session.timeout.ms is 6 s).
    sessionTimeoutMs: 10_000,
    heartbeatIntervalMs: 1_000,
    rebalanceTimeoutMs: 60_000,
    ...options,
  });
}

/** A topic's records, string keys and long values, per partition in offset order. */
export async function readLongs(backend: Backend, topic: string) {
  return (await readAll(backend, topic, 'string', 'long')).map((r) => ({
    key: r.key,
    value: r.value,
    timestamp: r.timestamp,
  }));
}
