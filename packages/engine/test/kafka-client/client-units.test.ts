// The Kafka client's pieces that need no broker: the reconnect backoff (Kafka's
// ExponentialBackoff: 50 ms doubling to 1 s, ±20 % jitter), response framing across socket
// chunks, version negotiation, and SCRAM-SHA-256 against RFC 7677's own example exchange.
import { describe, expect, it } from 'vitest';
import { backoffMs, RECONNECT_BACKOFF } from '../../src/backends/kafka/client/backoff.js';
import { FrameReader } from '../../src/backends/kafka/client/frame-reader.js';
import { saslExchange } from '../../src/backends/kafka/client/sasl-mechanisms.js';
import { negotiate } from '../../src/backends/kafka/client/versions.js';

describe('reconnect backoff', () => {
  it('doubles from reconnect.backoff.ms to reconnect.backoff.max.ms, jittered by ±20 %', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffMs(RECONNECT_BACKOFF, n, mid))).toEqual([
      50, 100, 200, 400, 800, 1000, 1000, 1000,
    ]);
    expect(backoffMs(RECONNECT_BACKOFF, 1, () => 0)).toBe(40);
    expect(backoffMs(RECONNECT_BACKOFF, 9, () => 0.999_999)).toBe(1200);
    expect(backoffMs(RECONNECT_BACKOFF, 0)).toBe(0);
  });
});

describe('response framing', () => {
  const frame = (body: string) => {
    const b = Buffer.from(body);
    const out = Buffer.alloc(4 + b.length);
    out.writeInt32BE(b.length, 0);
    b.copy(out, 4);
    return out;
  };

  it('reassembles frames split anywhere, and several frames in one chunk', () => {
    const stream = Buffer.concat([frame('first'), frame(''), frame('x'.repeat(1000)), frame('z')]);
    for (const cut of [1, 2, 3, 5, 7, 64, 500]) {
      const reader = new FrameReader();
      const got: string[] = [];
      for (let at = 0; at < stream.length; at += cut)
        for (const f of reader.push(stream.subarray(at, at + cut)))
          got.push(f.subarray(4).toString());
      expect(got).toEqual(['first', '', 'x'.repeat(1000), 'z']);
    }
  });

  it('refuses a corrupt size instead of waiting for gigabytes', () => {
    const reader = new FrameReader(1024);
    const bad = Buffer.alloc(4);
    bad.writeInt32BE(1_000_000, 0);
    expect(() => reader.push(bad)).toThrow(/1000000 bytes/);
  });
});

describe('version negotiation', () => {
  it('takes the highest version both sides speak, none when the ranges do not meet', () => {
    expect(negotiate([4, 12], { minVersion: 4, maxVersion: 18 })).toBe(12);
    expect(negotiate([4, 12], { minVersion: 0, maxVersion: 11 })).toBe(11);
    expect(negotiate([4, 12], { minVersion: 13, maxVersion: 18 })).toBeUndefined();
    expect(negotiate([4, 12], undefined)).toBeUndefined();
  });
});

describe('SASL mechanisms', () => {
  it('SCRAM-SHA-256 gives RFC 7677 §3 example exchange, and checks the server signature', () => {
    const scram = saslExchange(
      { mechanism: 'scram-sha-256', username: 'user', password: 'pencil' },
      'rOprNGfwEbeRWgbNEkqO',
    );
    expect(scram.name).toBe('SCRAM-SHA-256');
    expect(scram.step(null)!.toString()).toBe('n,,n=user,r=rOprNGfwEbeRWgbNEkqO');
    const serverFirst =
      'r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096';
    expect(scram.step(Buffer.from(serverFirst))!.toString()).toBe(
      'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=',
    );
    expect(scram.step(Buffer.from('v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4='))).toBeNull();

    const forged = saslExchange(
      { mechanism: 'scram-sha-256', username: 'user', password: 'pencil' },
      'rOprNGfwEbeRWgbNEkqO',
    );
    forged.step(null);
    forged.step(Buffer.from(serverFirst));
    expect(() => forged.step(Buffer.from('v=AAAA'))).toThrow(/signature did not verify/);
  });

  it('SCRAM refuses a server nonce that does not extend its own; PLAIN is one message', () => {
    const scram = saslExchange(
      { mechanism: 'scram-sha-512', username: 'a,b=c', password: 'p' },
      'abc',
    );
    expect(scram.step(null)!.toString()).toBe('n,,n=a=2Cb=3Dc,r=abc');
    expect(() => scram.step(Buffer.from('r=xyz,s=AAAA,i=4096'))).toThrow(/server-first/);
    const plain = saslExchange({ mechanism: 'plain', username: 'u', password: 'pw' });
    expect(plain.step(null)).toEqual(Buffer.from('\u0000u\u0000pw'));
    expect(plain.step(Buffer.alloc(0))).toBeNull();
  });
});
