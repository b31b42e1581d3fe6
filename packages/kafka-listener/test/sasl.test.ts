// SASL on the listener: the Java client (kafka-clients 4.1.1) authenticates with PLAIN,
// SCRAM-SHA-256 and SCRAM-SHA-512 (its own ScramLoginModule: the RFC 5802 exchange against our
// server side) and then works as usual; a wrong password is refused with Kafka's error; kcat
// (librdkafka 2.0.2) logs in with SCRAM too; a client that skips authentication is cut off.
import { execFile } from 'node:child_process';
import net from 'node:net';
import {
  apis,
  decodeResponseFrame,
  encodeRequestFrame,
  frameSize,
} from '@streamwright/kafka-protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Harness } from './harness.js';

const USER = 'streams';
const PASSWORD = 'pa,ss=wörd';

const h = new Harness();
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
beforeAll(async () => {
  await h.start({ sasl: { username: USER, password: PASSWORD } });
});
afterAll(async () => {
  await h.dispose();
});

/** One request on a fresh connection: its response body, or null when the server hung up. */
async function rawRequest(
  api: typeof apis.SaslHandshake | typeof apis.Metadata,
  version: number,
  body: object,
) {
  const socket = net.connect(h.listener.port, '127.0.0.1');
  socket.on('error', () => undefined);
  let buf = Buffer.alloc(0);
  const answer = new Promise<Buffer | null>((resolve) => {
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const size = frameSize(buf);
      if (size !== null && buf.length >= 4 + size) resolve(buf.subarray(0, 4 + size));
    });
    socket.on('close', () => resolve(null));
  });
  socket.write(
    encodeRequestFrame(api, version, { correlationId: 1, clientId: 'raw' }, body as never),
  );
  const frame = await answer;
  socket.destroy();
  return frame === null ? null : decodeResponseFrame(api, version, frame).body;
}

describe('SASL on the Kafka listener', () => {
  for (const mechanism of ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])
    it(`the Java client logs in with ${mechanism} and creates a topic`, async () => {
      const topic = `t-${mechanism.toLowerCase()}`;
      const out = await h.java<{ clusterId: string; topics: Record<string, number> }>('admin', {
        sasl: `${mechanism}:${USER}:${PASSWORD}`,
        create: `${topic}:1`,
      });
      expect(out.clusterId).toBe(h.listener.clusterId);
      expect(out.topics[topic]).toBe(1);
    });

  it('produces and consumes in a group over SCRAM-SHA-512', async () => {
    const sasl = `SCRAM-SHA-512:${USER}:${PASSWORD}`;
    await h.java('produce', { sasl, topic: 't-scram-sha-512', count: 50, 'key-prefix': 's' });
    const got = await h.java<{ records: { value: string }[] }>('consume', {
      sasl,
      topic: 't-scram-sha-512',
      group: 'scram-readers',
      expect: 50,
    });
    expect(got.records.map((r) => r.value).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `value-s-${i}`).sort(),
    );
    expect(h.log.committedOffsets('scram-readers').map((c) => c.offset)).toEqual([50]);
  });

  it('refuses a wrong password with Kafka’s error, for SCRAM and PLAIN', async () => {
    for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512'])
      await expect(h.java('admin', { sasl: `${mechanism}:${USER}:wrong` })).rejects.toThrow(
        `SaslAuthenticationException: Authentication failed during authentication due to invalid credentials with SASL mechanism ${mechanism}`,
      );
    await expect(
      h.java('admin', { sasl: `SCRAM-SHA-256:someone-else:${PASSWORD}` }),
    ).rejects.toThrow(/SaslAuthenticationException/);
    await expect(h.java('admin', { sasl: `PLAIN:${USER}:wrong` })).rejects.toThrow(
      'SaslAuthenticationException: Authentication failed: Invalid username or password',
    );
    // Each refusal is logged with its reason (never the password).
    const reasons = h.warnings.map((w) => JSON.stringify(w));
    expect(reasons.some((r) => r.includes('Invalid user credentials'))).toBe(true);
    expect(reasons.some((r) => r.includes('wrong') || r.includes(PASSWORD))).toBe(false);
  });

  it('kcat (librdkafka) logs in with SCRAM-SHA-256', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        'kcat',
        [
          '-b',
          h.bootstrap,
          '-X',
          'security.protocol=SASL_PLAINTEXT',
          '-X',
          'sasl.mechanisms=SCRAM-SHA-256',
          '-X',
          `sasl.username=${USER}`,
          '-X',
          `sasl.password=${PASSWORD}`,
          '-L',
        ],
        { encoding: 'utf8', timeout: 60_000 },
        (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout)),
      );
    });
    expect(out).toContain('topic "t-scram-sha-256" with 1 partitions');
  });

  it('offers its mechanisms in the handshake and cuts off a client that skips authentication', async () => {
    const handshake = await rawRequest(apis.SaslHandshake, 1, { mechanism: 'GSSAPI' });
    expect(handshake).toMatchObject({
      errorCode: 33, // UNSUPPORTED_SASL_MECHANISM
      mechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
    });
    expect(await rawRequest(apis.Metadata, 12, { topics: null })).toBeNull();
  });
});
