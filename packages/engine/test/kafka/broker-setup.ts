// One real Kafka broker (tools/kafka: Apache Kafka 4.1.1, KRaft, from Maven jars) for this
// project's Kafka test files, with SASL_PLAINTEXT and SSL listeners besides the plain one
// (tools/kafka/vitest-setup.mjs, shared with the other Kafka test project).
import { brokerGlobalSetup, type KafkaTestContext } from '@streamwright/kafka-broker/vitest-setup';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface ProvidedContext extends KafkaTestContext {}
}

/** The SASL listener's users (name → password), for security.test.ts. */
export const SASL_USERS = { 'stream-user': 'stream-user-secret' };

export const { setup, teardown } = brokerGlobalSetup(SASL_USERS);
