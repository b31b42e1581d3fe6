import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { RequestGuard, assertSafeBinding, isLoopback, parseHostHeader } from './security.js';

function request(headers: Record<string, string>, rawHeaders?: string[]): IncomingMessage {
  return {
    headers,
    rawHeaders: rawHeaders ?? Object.entries(headers).flat(),
  } as unknown as IncomingMessage;
}
const root = new URL('http://x/');

describe('parseHostHeader', () => {
  it('reads names, IPv6 literals and ports (80 when absent)', () => {
    expect(parseHostHeader('LocalHost:4300')).toEqual({ name: 'localhost', port: 4300 });
    expect(parseHostHeader('[::1]:8080')).toEqual({ name: '::1', port: 8080 });
    expect(parseHostHeader('example.com')).toEqual({ name: 'example.com', port: 80 });
    expect(parseHostHeader('::1')).toBeNull();
    expect(parseHostHeader('host:abc')).toBeNull();
    expect(parseHostHeader('')).toBeNull();
  });
});

describe('binding', () => {
  it('treats 127/8, ::1 and localhost as loopback', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('127.3.2.1')).toBe(true);
    expect(isLoopback('[::1]')).toBe(true);
    expect(isLoopback('localhost')).toBe(true);
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('192.168.1.4')).toBe(false);
  });

  it('refuses a non-loopback address without a token', () => {
    expect(() => assertSafeBinding('0.0.0.0', null)).toThrow(/without a token/);
    expect(() => assertSafeBinding('0.0.0.0', 'correct-horse-battery')).not.toThrow();
    // A short token is guessed over the network: refused off loopback, fine on it.
    expect(() => assertSafeBinding('0.0.0.0', 'x')).toThrow(/1 characters: .*at least 16/);
    expect(() => assertSafeBinding('0.0.0.0', 'secret')).toThrow(/at least 16/);
    expect(() => assertSafeBinding('127.0.0.1', 'x')).not.toThrow();
    expect(() => assertSafeBinding('127.0.0.1', null)).not.toThrow();
  });
});

describe('RequestGuard on loopback', () => {
  const guard = new RequestGuard({ host: '127.0.0.1', port: 4300, token: null });

  it('accepts loopback names with the right port', () => {
    for (const host of ['127.0.0.1:4300', 'localhost:4300', '[::1]:4300']) {
      expect(guard.check(request({ host }), root)).toEqual({ ok: true, tokenFrom: 'none' });
    }
  });

  it('refuses another host name or port: DNS rebinding', () => {
    for (const host of ['evil.example:4300', '127.0.0.1:4301', 'localhost', '']) {
      const verdict = guard.check(request({ host }), root);
      expect(verdict).toMatchObject({ ok: false, status: 403 });
    }
  });

  it('accepts same-origin and refuses cross-site or opaque origins', () => {
    const ok = guard.check(
      request({ host: 'localhost:4300', origin: 'http://localhost:4300' }),
      root,
    );
    expect(ok.ok).toBe(true);
    for (const origin of [
      'http://evil.example',
      'http://127.0.0.1:4300',
      'https://localhost:4300',
      'null',
    ]) {
      const verdict = guard.check(request({ host: 'localhost:4300', origin }), root);
      expect(verdict).toMatchObject({ ok: false, status: 403 });
    }
  });

  it('accepts an origin that was allowed explicitly', () => {
    const dev = new RequestGuard({
      host: '127.0.0.1',
      port: 4300,
      token: null,
      allowedOrigins: ['http://localhost:5173/'],
    });
    expect(
      dev.check(request({ host: '127.0.0.1:4300', origin: 'http://localhost:5173' }), root).ok,
    ).toBe(true);
  });
});

describe('RequestGuard with extra allowed hosts', () => {
  const guard = new RequestGuard({
    host: '127.0.0.1',
    port: 4300,
    token: null,
    allowedHosts: ['streams.internal', 'localhost:5173'],
  });

  it('accepts a bare name on the bound port and a name:port on exactly that port', () => {
    expect(guard.check(request({ host: 'streams.internal:4300' }), root).ok).toBe(true);
    expect(guard.check(request({ host: 'streams.internal:80' }), root).ok).toBe(false);
    expect(guard.check(request({ host: 'localhost:5173' }), root).ok).toBe(true);
    expect(guard.check(request({ host: 'localhost:5174' }), root).ok).toBe(false);
  });
});

describe('RequestGuard with a token', () => {
  const guard = new RequestGuard({ host: '0.0.0.0', port: 4300, token: 's3cret' });
  const host = '127.0.0.1:4300';

  it('refuses a request without the token or with a wrong one (401)', () => {
    expect(guard.check(request({ host }), root)).toMatchObject({ ok: false, status: 401 });
    expect(guard.check(request({ host, authorization: 'Bearer nope' }), root)).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(guard.check(request({ host, authorization: 'Bearer s3cret2' }), root)).toMatchObject({
      ok: false,
    });
  });

  it('accepts the token as a bearer header, a query parameter or the cookie', () => {
    expect(guard.check(request({ host, authorization: 'Bearer s3cret' }), root)).toEqual({
      ok: true,
      tokenFrom: 'header',
    });
    expect(guard.check(request({ host }), new URL('http://x/trpc/metrics?token=s3cret'))).toEqual({
      ok: true,
      tokenFrom: 'query',
    });
    expect(guard.check(request({ host, cookie: 'a=b; streamwright_token=s3cret' }), root)).toEqual({
      ok: true,
      tokenFrom: 'cookie',
    });
  });

  it('refuses a request with two Host headers, whatever the first says (400)', () => {
    const raw = ['Host', host, 'Authorization', 'Bearer s3cret', 'Host', 'evil.example:4300'];
    const verdict = guard.check(request({ host, authorization: 'Bearer s3cret' }, raw), root);
    expect(verdict).toMatchObject({ ok: false, status: 400 });
  });

  it('checks Host before the token', () => {
    const verdict = guard.check(
      request({ host: 'evil.example:4300', authorization: 'Bearer s3cret' }),
      root,
    );
    expect(verdict).toMatchObject({ ok: false, status: 403 });
  });
});
