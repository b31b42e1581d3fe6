// The Kafka backend through the test broker's SASL listeners (tools/kafka: PLAIN from their JAAS
// config, SCRAM-SHA-256/512 credentials written at format time): SASL_PLAINTEXT, and SASL_SSL
// (SASL over TLS, the CA made at start-up). Each mechanism connects, produces and fetches; a
// wrong password fails the connection at once (no retry can fix it) with an error naming the
// broker, the mechanism and the user — never the password.
import { describe, expect, inject, it } from 'vitest';
import type { KafkaSaslOptions } from '../../src/backends/kafka/index.js';
import { SASL_USERS } from './broker-setup.js';
import { fastConnectFailure, roundTrip } from './connect-helpers.js';

const [[USER, PASSWORD]] = Object.entries(SASL_USERS) as [[string, string]];
const servers = () => [inject('kafkaSaslBootstrapServers')];
const saslSslServers = () => [inject('kafkaSaslSslBootstrapServers')];
const MECHANISMS: KafkaSaslOptions['mechanism'][] = ['plain', 'scram-sha-256', 'scram-sha-512'];

describe('the Kafka backend over SASL (SASL_PLAINTEXT)', () => {
  it.each(MECHANISMS)('%s: connects, creates a topic, produces and fetches', async (mechanism) => {
    await roundTrip(
      { bootstrapServers: servers(), sasl: { mechanism, username: USER, password: PASSWORD } },
      `sasl-${mechanism}`,
    );
  });

  it('a wrong password: fails fast, naming the broker, the mechanism and the user', async () => {
    const message = await fastConnectFailure({
      bootstrapServers: servers(),
      sasl: { mechanism: 'scram-sha-256', username: USER, password: 'not-the-password' },
    });
    expect(message).toContain(
      `Kafka at ${servers()[0]} refused SASL SCRAM-SHA-256 authentication as user "${USER}"`,
    );
    expect(message).not.toContain('not-the-password');
  });
});

describe('the Kafka backend over SASL and TLS (SASL_SSL)', () => {
  const options = (mechanism: KafkaSaslOptions['mechanism'], password: string) => ({
    bootstrapServers: saslSslServers(),
    ssl: { ca: inject('kafkaSslCa') },
    sasl: { mechanism, username: USER, password },
  });

  it.each(['plain', 'scram-sha-512'] as const)(
    '%s: connects, creates a topic, produces and fetches',
    async (mechanism) => {
      await roundTrip(options(mechanism, PASSWORD), `sasl-ssl-${mechanism}`);
    },
  );

  it.each(['plain', 'scram-sha-512'] as const)(
    '%s, a wrong password: fails fast, naming the broker, the mechanism and the user',
    async (mechanism) => {
      const message = await fastConnectFailure(options(mechanism, 'not-the-password'));
      expect(message).toContain(
        `Kafka at ${saslSslServers()[0]} refused SASL ${mechanism.toUpperCase()} authentication as user "${USER}"`,
      );
      expect(message).not.toContain('not-the-password');
    },
  );

  it('trusting another CA: fails fast on the broker certificate, before any SASL', async () => {
    const message = await fastConnectFailure({
      ...options('scram-sha-512', PASSWORD),
      ssl: { ca: inject('kafkaSslOtherCa') },
    });
    expect(message).toContain(
      `connecting to Kafka at ${saslSslServers()[0]} (SASL_SSL, SCRAM-SHA-512) failed: the broker's certificate did not verify`,
    );
    expect(message).not.toContain(PASSWORD);
  });
});
