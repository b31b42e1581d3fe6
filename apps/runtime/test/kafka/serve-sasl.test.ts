// `streamwright serve --backend kafka` through the test broker's SASL_PLAINTEXT and SASL_SSL
// listeners, as a user starts it: the built CLI in a child process, the password from the
// environment or a file (never a flag). It serves on Kafka with the right password; with a wrong
// one it exits 1 at once (no retry can fix it) with one line naming the broker, the mechanism
// and the user, never the password.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, ensureBuilt } from '../cli-harness.js';
import { makeDataDir, removeDataDir } from '../harness.js';
import { SASL_USERS } from './broker-setup.js';
import { expectServesOnKafka, serveOnKafkaFlags } from './serve-on-kafka.js';

const [[USER, PASSWORD]] = Object.entries(SASL_USERS) as [[string, string]];
const saslFlags = (mechanism: string, servers = inject('kafkaSaslBootstrapServers')) =>
  serveOnKafkaFlags(servers, '--kafka-sasl-mechanism', mechanism, '--kafka-sasl-username', USER);

/** `serve` with `flags` (and a data dir) to completion, with a wrong password in a file. */
async function wrongPassword(flags: string[]) {
  const dataDir = await makeDataDir();
  try {
    const file = join(dataDir, 'password');
    await writeFile(file, 'not-the-password\n');
    const started = performance.now();
    const result = await cli(
      [...flags, '--kafka-sasl-password-file', file, '--data-dir', dataDir],
      { timeoutMs: 60_000 },
    );
    expect(result.code).toBe(1);
    // The CLI's start-up and one refused login, well under kafkajs' 10–20 s of retries.
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(result.stderr).not.toContain('not-the-password');
    return result.stderr;
  } finally {
    await removeDataDir(dataDir);
  }
}

describe('serve on Kafka over SASL', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('serves with the SCRAM password from the environment', async () => {
    await expectServesOnKafka(
      () => saslFlags('scram-sha-512'),
      inject('kafkaSaslBootstrapServers'),
      { STREAMWRIGHT_KAFKA_SASL_PASSWORD: PASSWORD },
    );
  });

  it('a wrong password (from a file): exit 1, naming the broker, the mechanism and the user', async () => {
    const stderr = await wrongPassword(saslFlags('scram-sha-256'));
    expect(stderr).toContain(
      `error: Kafka at ${inject('kafkaSaslBootstrapServers')} refused SASL SCRAM-SHA-256 authentication as user "${USER}"`,
    );
  });
});

describe('serve on Kafka over SASL and TLS (SASL_SSL)', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  const saslSslFlags = async (dataDir: string, mechanism: string) => {
    const ca = join(dataDir, 'ca.pem');
    await writeFile(ca, inject('kafkaSslCa'));
    return [...saslFlags(mechanism, inject('kafkaSaslSslBootstrapServers')), '--kafka-ssl-ca', ca];
  };

  it('serves with the SCRAM-SHA-512 password from the environment (--kafka-ssl-ca)', async () => {
    await expectServesOnKafka(
      (dataDir) => saslSslFlags(dataDir, 'scram-sha-512'),
      inject('kafkaSaslSslBootstrapServers'),
      { STREAMWRIGHT_KAFKA_SASL_PASSWORD: PASSWORD },
    );
  });

  it('serves with PLAIN', async () => {
    await expectServesOnKafka(
      (dataDir) => saslSslFlags(dataDir, 'plain'),
      inject('kafkaSaslSslBootstrapServers'),
      { STREAMWRIGHT_KAFKA_SASL_PASSWORD: PASSWORD },
    );
  });

  it('a wrong password: exit 1, naming the broker, the mechanism and the user', async () => {
    const dataDir = await makeDataDir();
    try {
      const stderr = await wrongPassword(await saslSslFlags(dataDir, 'scram-sha-512'));
      expect(stderr).toContain(
        `error: Kafka at ${inject('kafkaSaslSslBootstrapServers')} refused SASL SCRAM-SHA-512 authentication as user "${USER}"`,
      );
    } finally {
      await removeDataDir(dataDir);
    }
  });
});
