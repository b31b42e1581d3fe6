// Shared by the Kafka security tests: a backend that connects must create a topic, produce and
// fetch back; one that cannot must fail with BACKEND_CONNECT_FAILED, and (for failures no retry
// can fix) quickly — kafkajs alone retried them for 10–20 s.
import { expect } from 'vitest';
import type { KafkaBackendOptions } from '../../src/backends/kafka/index.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { EngineError } from '../../src/errors.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';

/** Connects with `options`, creates `topic`, produces one record and fetches it back. */
export async function roundTrip(options: KafkaBackendOptions, topic: string): Promise<void> {
  const backend = await createKafkaBackend(options);
  try {
    await backend.createTopics([{ name: topic, partitions: 1 }]);
    const [ack] = await backend.produce([
      { topic, key: encode('string', 'k'), value: encode('string', topic) },
    ]);
    const [record] = await backend.fetch({ topic, partition: 0 }, ack!.offset, 10, 1000);
    expect(getSerde('string').deserialize(record!.value)).toBe(topic);
  } finally {
    await backend.close();
  }
}

/** The message of the BACKEND_CONNECT_FAILED `createKafkaBackend(options)` fails with. */
export async function connectFailure(options: KafkaBackendOptions): Promise<string> {
  const error = await createKafkaBackend(options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe('BACKEND_CONNECT_FAILED');
  return (error as Error).message;
}

/**
 * Failures no retry can fix come within ~2 s of asking (the bound is loose: a loaded 2-core box
 * must not make the test flaky; kafkajs' retries alone took 10–20 s).
 */
export const FAIL_FAST_MS = 5_000;

/** connectFailure, also checking that it failed within FAIL_FAST_MS. */
export async function fastConnectFailure(options: KafkaBackendOptions): Promise<string> {
  const started = performance.now();
  const message = await connectFailure(options);
  expect(performance.now() - started).toBeLessThan(FAIL_FAST_MS);
  return message;
}
