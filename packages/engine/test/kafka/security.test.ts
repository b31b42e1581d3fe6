// The Kafka backend through the test broker's SASL_PLAINTEXT listener (tools/kafka: PLAIN from its
// JAAS config, SCRAM-SHA-256/512 credentials written at format time): each mechanism connects,
// produces and fetches; a wrong password fails the connection with an error naming the broker,
// the mechanism and the user (never the password). Its SSL listener (a CA made at start-up): the
// backend connects with that CA, and trusting another CA fails naming the broker.
import { describe, expect, inject, it } from 'vitest';
import type { KafkaBackendOptions, KafkaSaslOptions } from '../../src/backends/kafka/index.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { EngineError } from '../../src/errors.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';
import { SASL_USERS } from './broker-setup.js';

const [[USER, PASSWORD]] = Object.entries(SASL_USERS) as [[string, string]];
const servers = () => [inject('kafkaSaslBootstrapServers')];
const sslServers = () => [inject('kafkaSslBootstrapServers')];
const MECHANISMS: KafkaSaslOptions['mechanism'][] = ['plain', 'scram-sha-256', 'scram-sha-512'];

/** Connects with `options`, creates `topic`, produces one record and fetches it back. */
async function roundTrip(options: KafkaBackendOptions, topic: string) {
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

async function connectFailure(options: KafkaBackendOptions) {
  const error = await createKafkaBackend(options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe('BACKEND_CONNECT_FAILED');
  return (error as Error).message;
}

describe('the Kafka backend over SASL', () => {
  it.each(MECHANISMS)('%s: connects, creates a topic, produces and fetches', async (mechanism) => {
    await roundTrip(
      { bootstrapServers: servers(), sasl: { mechanism, username: USER, password: PASSWORD } },
      `sasl-${mechanism}`,
    );
  });

  it('a wrong password: a clear error naming the broker, the mechanism and the user', async () => {
    const message = await connectFailure({
      bootstrapServers: servers(),
      sasl: { mechanism: 'scram-sha-256', username: USER, password: 'not-the-password' },
    });
    expect(message).toContain(
      `Kafka at ${servers()[0]} refused SASL SCRAM-SHA-256 authentication as user "${USER}"`,
    );
    expect(message).not.toContain('not-the-password');
  });
});

describe('the Kafka backend over TLS (SSL)', () => {
  it('trusting the CA that signed the broker: connects, creates a topic, produces and fetches', async () => {
    await roundTrip({ bootstrapServers: sslServers(), ssl: { ca: inject('kafkaSslCa') } }, 'tls');
  });

  it('trusting another CA: a clear error naming the broker, SSL and the certificate problem', async () => {
    const message = await connectFailure({
      bootstrapServers: sslServers(),
      ssl: { ca: inject('kafkaSslOtherCa') },
    });
    expect(message).toContain(`connecting to Kafka at ${sslServers()[0]} (SSL) failed`);
    expect(message).toMatch(/certificate/);
  });
});
