// The Kafka backend through the test broker's TLS listeners (tools/kafka/tls.mjs: a CA, the
// broker's certificate and client certificates made with openssl at start-up): SSL trusting the
// CA, and mutual TLS (a listener with ssl.client.auth=required) with a client certificate the CA
// signed. What no retry can fix — the wrong CA, no client certificate, one the broker does not
// trust — fails within seconds, naming the broker and what was refused; a broker that is not up
// yet is still waited for.
import { createServer, connect, type Server } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { EngineError } from '../../src/errors.js';
import { fastConnectFailure, roundTrip } from './connect-helpers.js';

const sslServers = () => [inject('kafkaSslBootstrapServers')];
const mtlsServers = () => [inject('kafkaMtlsBootstrapServers')];
const clientCert = () => ({ cert: inject('kafkaSslClientCert'), key: inject('kafkaSslClientKey') });

describe('the Kafka backend over TLS (SSL)', () => {
  it('trusting the CA that signed the broker: connects, creates a topic, produces and fetches', async () => {
    await roundTrip({ bootstrapServers: sslServers(), ssl: { ca: inject('kafkaSslCa') } }, 'tls');
  });

  it('trusting another CA: fails fast, naming the broker, SSL and the certificate problem', async () => {
    const message = await fastConnectFailure({
      bootstrapServers: sslServers(),
      ssl: { ca: inject('kafkaSslOtherCa') },
    });
    expect(message).toContain(
      `connecting to Kafka at ${sslServers()[0]} (SSL) failed: the broker's certificate did not verify: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)`,
    );
  });
});

describe('the Kafka backend over mutual TLS (ssl.client.auth=required)', () => {
  it('with a client certificate the CA signed: connects, creates a topic, produces and fetches', async () => {
    await roundTrip(
      { bootstrapServers: mtlsServers(), ssl: { ca: inject('kafkaSslCa'), ...clientCert() } },
      'mtls',
    );
  });

  it('without a client certificate: fails fast, saying the broker requires one', async () => {
    const message = await fastConnectFailure({
      bootstrapServers: mtlsServers(),
      ssl: { ca: inject('kafkaSslCa') },
    });
    expect(message).toContain(
      `connecting to Kafka at ${mtlsServers()[0]} (SSL) failed: the broker requires a client certificate (mutual TLS) and none was given`,
    );
  });

  it('with a certificate from a CA the broker does not trust: fails fast, naming it as refused', async () => {
    const message = await fastConnectFailure({
      bootstrapServers: mtlsServers(),
      ssl: {
        ca: inject('kafkaSslCa'),
        cert: inject('kafkaSslOtherClientCert'),
        key: inject('kafkaSslOtherClientKey'),
      },
    });
    expect(message).toContain(
      `connecting to Kafka at ${mtlsServers()[0]} (SSL) failed: the broker refused the client certificate "CN=streamwright-untrusted-test-client"`,
    );
  });

  it('a key that does not belong to the certificate: refused before connecting', async () => {
    const error = await createKafkaBackend({
      bootstrapServers: mtlsServers(),
      ssl: { ca: inject('kafkaSslCa'), ...clientCert(), key: inject('kafkaSslOtherClientKey') },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('UNSUPPORTED_CONFIG');
    expect((error as Error).message).toMatch(
      /TLS client certificate and key .* is unusable .*key values mismatch/,
    );
    expect((error as Error).message).not.toContain('PRIVATE KEY');
  });
});

describe('the first connection, transient failures', () => {
  it('a broker that is not up yet (connection refused) is retried until it is', async () => {
    // A port nothing listens on for 2 s, then a TCP relay to the broker on it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const [host, brokerPort] = inject('kafkaBootstrapServers').split(':') as [string, string];
    let relay: Server | undefined;
    const up = setTimeout(() => {
      relay = createServer((client) => {
        const broker = connect(Number(brokerPort), host);
        client.pipe(broker).pipe(client);
        broker.on('error', () => client.destroy());
        client.on('error', () => broker.destroy());
      }).listen(port, '127.0.0.1');
    }, 2_000);
    const started = performance.now();
    try {
      const backend = await createKafkaBackend({ bootstrapServers: [`127.0.0.1:${port}`] });
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
      await backend.close();
    } finally {
      clearTimeout(up);
      relay?.close();
    }
  });
});
