// `streamwright serve --backend kafka --kafka-ssl-ca <file>` through the test broker's SSL listener
// (its CA made at start-up, tools/kafka/tls.mjs), as a user starts it: it serves on Kafka when
// the file holds the CA that signed the broker's certificate; with another CA it exits 1 with one
// line naming the broker, SSL and the certificate problem.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, ensureBuilt } from '../cli-harness.js';
import { makeDataDir, removeDataDir } from '../harness.js';
import { expectServesOnKafka, serveOnKafkaFlags } from './serve-on-kafka.js';

const servers = () => inject('kafkaSslBootstrapServers');
async function tlsFlags(dataDir: string, caPem: string) {
  const ca = join(dataDir, 'ca.pem');
  await writeFile(ca, caPem);
  return serveOnKafkaFlags(servers(), '--kafka-ssl-ca', ca);
}

describe('serve on Kafka over TLS', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('serves trusting the CA that signed the broker (--kafka-ssl-ca)', async () => {
    await expectServesOnKafka((dataDir) => tlsFlags(dataDir, inject('kafkaSslCa')), servers());
  });

  it('another CA: exit 1, naming the broker, SSL and the certificate problem', async () => {
    const dataDir = await makeDataDir();
    try {
      const flags = await tlsFlags(dataDir, inject('kafkaSslOtherCa'));
      const result = await cli([...flags, '--data-dir', dataDir], { timeoutMs: 90_000 });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`error: connecting to Kafka at ${servers()} (SSL) failed`);
      expect(result.stderr).toMatch(/certificate/);
    } finally {
      await removeDataDir(dataDir);
    }
  });
});
