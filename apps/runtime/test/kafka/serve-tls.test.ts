// `streamwright serve --backend kafka` through the test broker's TLS listeners (its CA and client
// certificates made at start-up, tools/kafka/tls.mjs), as a user starts it: it serves on Kafka
// trusting the CA that signed the broker's certificate (--kafka-ssl-ca), and on the mutual-TLS
// listener with a client certificate (--kafka-ssl-cert, --kafka-ssl-key). Another CA, or no
// client certificate, exits 1 within seconds (no retry can fix them) with one line naming the
// broker and what was refused.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cli, ensureBuilt } from '../cli-harness.js';
import { makeDataDir, removeDataDir } from '../harness.js';
import { expectServesOnKafka, serveOnKafkaFlags } from './serve-on-kafka.js';

/**
 * The CLI's start-up plus a failure that no retry can fix: well under kafkajs' 10–20 s of
 * retries, loose enough for a loaded 2-core box.
 */
const FAIL_FAST_MS = 8_000;

const servers = () => inject('kafkaSslBootstrapServers');
const mtlsServers = () => inject('kafkaMtlsBootstrapServers');

/** Writes `pems` (name → PEM text) into `dataDir`; the flags naming them, after `flag`s. */
async function pemFlags(dataDir: string, pems: [flag: string, name: string, pem: string][]) {
  const flags: string[] = [];
  for (const [flag, name, pem] of pems) {
    await writeFile(join(dataDir, name), pem);
    flags.push(flag, join(dataDir, name));
  }
  return flags;
}

const tlsFlags = async (dataDir: string, caPem: string) =>
  serveOnKafkaFlags(servers(), ...(await pemFlags(dataDir, [['--kafka-ssl-ca', 'ca.pem', caPem]])));

/** `serve` with `flags` must exit 1 within FAIL_FAST_MS; its stderr. */
async function failsFast(flags: (dataDir: string) => Promise<string[]>): Promise<string> {
  const dataDir = await makeDataDir();
  try {
    const started = performance.now();
    const result = await cli([...(await flags(dataDir)), '--data-dir', dataDir], {
      timeoutMs: 90_000,
    });
    expect(result.code).toBe(1);
    expect(performance.now() - started).toBeLessThan(FAIL_FAST_MS);
    return result.stderr;
  } finally {
    await removeDataDir(dataDir);
  }
}

describe('serve on Kafka over TLS', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  it('serves trusting the CA that signed the broker (--kafka-ssl-ca)', async () => {
    await expectServesOnKafka((dataDir) => tlsFlags(dataDir, inject('kafkaSslCa')), servers());
  });

  it('another CA: exit 1 within seconds, naming the broker, SSL and the certificate problem', async () => {
    const stderr = await failsFast((dataDir) => tlsFlags(dataDir, inject('kafkaSslOtherCa')));
    expect(stderr).toContain(
      `error: connecting to Kafka at ${servers()} (SSL) failed: the broker's certificate did not verify`,
    );
  });
});

describe('serve on Kafka over mutual TLS', () => {
  beforeAll(() => ensureBuilt(), 300_000);

  const mtlsFlags = async (dataDir: string, withCert: boolean) =>
    serveOnKafkaFlags(
      mtlsServers(),
      ...(await pemFlags(dataDir, [
        ['--kafka-ssl-ca', 'ca.pem', inject('kafkaSslCa')],
        ...(withCert
          ? ([
              ['--kafka-ssl-cert', 'client.pem', inject('kafkaSslClientCert')],
              ['--kafka-ssl-key', 'client.key', inject('kafkaSslClientKey')],
            ] as [string, string, string][])
          : []),
      ])),
    );

  it('serves with a client certificate and its key (--kafka-ssl-cert, --kafka-ssl-key)', async () => {
    await expectServesOnKafka((dataDir) => mtlsFlags(dataDir, true), mtlsServers());
  });

  it('without a client certificate: exit 1 within seconds, saying the broker requires one', async () => {
    const stderr = await failsFast((dataDir) => mtlsFlags(dataDir, false));
    expect(stderr).toContain(
      `error: connecting to Kafka at ${mtlsServers()} (SSL) failed: the broker requires a client certificate (mutual TLS) and none was given`,
    );
  });
});
