// Starts one real Kafka broker (tools/kafka: Apache Kafka 3.9.1, KRaft, from Maven jars) for the
// Kafka backend's test files and stops it by pid afterwards.
import { startBroker, type RunningBroker } from '@streamwright/kafka-broker';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBootstrapServers: string;
  }
}

let broker: RunningBroker | undefined;

export async function setup(project: TestProject): Promise<void> {
  broker = await startBroker({ startTimeoutMs: 180_000 });
  project.provide('kafkaBootstrapServers', broker.bootstrapServers);
}

export async function teardown(): Promise<void> {
  await broker?.stop();
}
