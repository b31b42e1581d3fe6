// Starts one real Kafka broker (tools/kafka: Apache Kafka 3.9.1, KRaft, from Maven jars) for the
// Kafka backend's test files (with a SASL_PLAINTEXT listener besides the plain one) and stops it by
// pid afterwards.
import { startBroker, type RunningBroker } from '@streamwright/kafka-broker';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBootstrapServers: string;
    /** The same broker's SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256/512). */
    kafkaSaslBootstrapServers: string;
  }
}

/** The SASL listener's users (name → password), for serve-sasl.test.ts. */
export const SASL_USERS = { 'runtime-user': 'runtime-user-secret' };

let broker: RunningBroker | undefined;

export async function setup(project: TestProject): Promise<void> {
  broker = await startBroker({ startTimeoutMs: 180_000, sasl: { users: SASL_USERS } });
  project.provide('kafkaBootstrapServers', broker.bootstrapServers);
  project.provide('kafkaSaslBootstrapServers', broker.saslBootstrapServers!);
}

export async function teardown(): Promise<void> {
  await broker?.stop();
}
