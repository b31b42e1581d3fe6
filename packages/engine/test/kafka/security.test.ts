// The Kafka backend through the test broker's SASL_PLAINTEXT listener (tools/kafka: PLAIN from its
// JAAS config, SCRAM-SHA-256/512 credentials written at format time): each mechanism connects,
// produces and fetches; a wrong password fails the connection with an error naming the broker,
// the mechanism and the user (never the password).
import { describe, expect, inject, it } from 'vitest';
import type { KafkaSaslOptions } from '../../src/backends/kafka/index.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { EngineError } from '../../src/errors.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';
import { SASL_USERS } from './broker-setup.js';

const [[USER, PASSWORD]] = Object.entries(SASL_USERS) as [[string, string]];
const servers = () => [inject('kafkaSaslBootstrapServers')];
const MECHANISMS: KafkaSaslOptions['mechanism'][] = ['plain', 'scram-sha-256', 'scram-sha-512'];

describe('the Kafka backend over SASL', () => {
  it.each(MECHANISMS)('%s: connects, creates a topic, produces and fetches', async (mechanism) => {
    const backend = await createKafkaBackend({
      bootstrapServers: servers(),
      sasl: { mechanism, username: USER, password: PASSWORD },
    });
    try {
      const topic = `sasl-${mechanism}`;
      await backend.createTopics([{ name: topic, partitions: 1 }]);
      const [ack] = await backend.produce([
        { topic, key: encode('string', 'k'), value: encode('string', mechanism) },
      ]);
      const [record] = await backend.fetch({ topic, partition: 0 }, ack!.offset, 10, 1000);
      expect(getSerde('string').deserialize(record!.value)).toBe(mechanism);
    } finally {
      await backend.close();
    }
  });

  it('a wrong password: a clear error naming the broker, the mechanism and the user', async () => {
    const attempt = createKafkaBackend({
      bootstrapServers: servers(),
      sasl: { mechanism: 'scram-sha-256', username: USER, password: 'not-the-password' },
    });
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('BACKEND_CONNECT_FAILED');
    const message = (error as Error).message;
    expect(message).toContain(
      `Kafka at ${servers()[0]} refused SASL SCRAM-SHA-256 authentication as user "${USER}"`,
    );
    expect(message).not.toContain('not-the-password');
  });
});
