// Shared by the Kafka backend's tests: a backend on the broker the global setup started, the
// seed's KStream vs KTable documents under a per-test application id, and reading a topic back.
import { readFileSync } from 'node:fs';
import { validateTopology, type Topology } from '@streamwright/topology-model';
import { inject } from 'vitest';
import type { Backend } from '../../src/api.js';
import { createKafkaBackend, type KafkaBackendOptions } from '../../src/backends/kafka/index.js';
import { readAll } from '../fixtures/records.js';

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

/**
 * One of examples/kstream-vs-ktable's documents, as application `appId` reading `input` and
 * writing `output`; no record cache (every update is emitted, as TopologyTestDriver shows it).
 */
export function seedTopology(
  file: 'stream-sum.topology.json' | 'table-sum.topology.json',
  appId: string,
  input: string,
  output: string,
  partitions = 1,
): Topology {
  const text = readFileSync(
    new URL(`../../../../examples/kstream-vs-ktable/${file}`, import.meta.url),
    'utf8',
  );
  const doc = JSON.parse(text) as {
    application: { id: string; config: Record<string, unknown> };
    topics: { name: string; partitions: number }[];
    nodes: { kind: string; config: Record<string, unknown> }[];
  };
  const [source, sink] = [doc.topics[0]!.name, doc.topics[1]!.name];
  doc.application = {
    id: appId,
    config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
  };
  doc.topics = [
    { name: input, partitions },
    { name: output, partitions },
  ];
  for (const n of doc.nodes) {
    if (n.config.topic === source) n.config.topic = input;
    if (n.config.topic === sink) n.config.topic = output;
  }
  const result = validateTopology(doc);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

/** A topic's records, string keys and long values, per partition in offset order. */
export async function readLongs(backend: Backend, topic: string) {
  return (await readAll(backend, topic, 'string', 'long')).map((r) => ({
    key: r.key,
    value: r.value,
    timestamp: r.timestamp,
  }));
}
