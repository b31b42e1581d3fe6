// `streamwright serve --backend kafka` through the test broker's SASL_PLAINTEXT listener, as a
// user starts it: the built CLI in a child process, the SCRAM password from the environment or a
// file (never a flag). It serves on Kafka with the right password; with a wrong one it exits 1
// with one line naming the broker, the mechanism and the user.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, ensureBuilt } from '../cli-harness.js';
import { makeDataDir, removeDataDir } from '../harness.js';
import { SASL_USERS } from './broker-setup.js';
import { expectServesOnKafka, serveOnKafkaFlags } from './serve-on-kafka.js';

const [[USER, PASSWORD]] = Object.entries(SASL_USERS) as [[string, string]];
const saslFlags = (mechanism: string) =>
  serveOnKafkaFlags(
    inject('kafkaSaslBootstrapServers'),
    '--kafka-sasl-mechanism',
    mechanism,
    '--kafka-sasl-username',
    USER,
  );

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
    const dataDir = await makeDataDir();
    try {
      const file = join(dataDir, 'password');
      await writeFile(file, 'not-the-password\n');
      const result = await cli(
        [...saslFlags('scram-sha-256'), '--kafka-sasl-password-file', file, '--data-dir', dataDir],
        { timeoutMs: 60_000 },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `error: Kafka at ${inject('kafkaSaslBootstrapServers')} refused SASL SCRAM-SHA-256 authentication as user "${USER}"`,
      );
      expect(result.stderr).not.toContain('not-the-password');
    } finally {
      await removeDataDir(dataDir);
    }
  });
});
