// `serve --backend` / `--bootstrap-servers`: what the runtime is started on, refused with one
// clear line before anything opens.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendChoice } from '../src/cli/serve.js';

const kafka = { backend: 'kafka', bootstrapServers: '127.0.0.1:9093' };

describe('serve --backend', () => {
  it('is the embedded log by default and Kafka with bootstrap servers', () => {
    expect(backendChoice({ backend: 'embedded' })).toEqual({ kind: 'embedded' });
    expect(
      backendChoice({ backend: 'kafka', bootstrapServers: '127.0.0.1:9092, 10.0.0.2:9093' }),
    ).toEqual({ kind: 'kafka', bootstrapServers: ['127.0.0.1:9092', '10.0.0.2:9093'] });
  });

  it('refuses what it cannot use, saying what', () => {
    expect(() => backendChoice({ backend: 'kafka' })).toThrow(
      '--backend kafka needs --bootstrap-servers host:port[,host:port…]',
    );
    expect(() => backendChoice({ backend: 'kafka', bootstrapServers: 'localhost' })).toThrow(
      '--bootstrap-servers: expected host:port, got "localhost"',
    );
    expect(() => backendChoice({ backend: 'embedded', bootstrapServers: 'a:1' })).toThrow(
      '--bootstrap-servers needs --backend kafka',
    );
    expect(() => backendChoice({ backend: 'rocks' })).toThrow(
      '--backend: expected embedded or kafka, got "rocks"',
    );
  });

  it('takes TLS files and SASL credentials, the password from the environment or a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-backend-'));
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    expect(backendChoice({ ...kafka, kafkaSsl: true })).toMatchObject({ ssl: true });
    const ca = file('ca.pem', '-----BEGIN CERTIFICATE-----\nca\n');
    const cert = file('cert.pem', 'cert');
    const key = file('key.pem', 'key');
    expect(
      backendChoice(
        { ...kafka, kafkaSslCa: ca, kafkaSslCert: cert, kafkaSslKey: key },
        { STREAMWRIGHT_KAFKA_SSL_KEY_PASSWORD: 'pass' },
      ),
    ).toMatchObject({
      ssl: {
        ca: '-----BEGIN CERTIFICATE-----\nca\n',
        cert: 'cert',
        key: 'key',
        passphrase: 'pass',
      },
    });
    const sasl = { ...kafka, kafkaSaslMechanism: 'SCRAM-SHA-512', kafkaSaslUsername: 'u' };
    expect(backendChoice(sasl, { STREAMWRIGHT_KAFKA_SASL_PASSWORD: 'p1' })).toEqual({
      kind: 'kafka',
      bootstrapServers: ['127.0.0.1:9093'],
      sasl: { mechanism: 'scram-sha-512', username: 'u', password: 'p1' },
    });
    const password = file('password', 'p2\n');
    expect(backendChoice({ ...sasl, kafkaSaslPasswordFile: password }, {})).toMatchObject({
      sasl: { password: 'p2' },
    });
  });

  it('refuses incomplete or misplaced security flags, saying which', () => {
    expect(() => backendChoice({ backend: 'embedded', kafkaSsl: true })).toThrow(
      '--kafka-ssl needs --backend kafka',
    );
    expect(() => backendChoice({ ...kafka, kafkaSslCert: 'c.pem' })).toThrow(
      '--kafka-ssl-cert and --kafka-ssl-key go together',
    );
    expect(() => backendChoice({ ...kafka, kafkaSslCa: '/nonexistent/ca.pem' })).toThrow(
      '--kafka-ssl-ca: cannot read /nonexistent/ca.pem',
    );
    expect(() => backendChoice({ ...kafka, kafkaSaslMechanism: 'gssapi' })).toThrow(
      '--kafka-sasl-mechanism: expected plain, scram-sha-256, scram-sha-512, got "gssapi"',
    );
    expect(() => backendChoice({ ...kafka, kafkaSaslMechanism: 'plain' })).toThrow(
      '--kafka-sasl-mechanism plain needs --kafka-sasl-username',
    );
    expect(() =>
      backendChoice({ ...kafka, kafkaSaslMechanism: 'plain', kafkaSaslUsername: 'u' }, {}),
    ).toThrow(
      '--kafka-sasl-mechanism plain needs a password: set $STREAMWRIGHT_KAFKA_SASL_PASSWORD or pass --kafka-sasl-password-file <file>',
    );
    expect(() => backendChoice({ ...kafka, kafkaSaslUsername: 'u' })).toThrow(
      '--kafka-sasl-username and --kafka-sasl-password-file need --kafka-sasl-mechanism',
    );
  });
});
