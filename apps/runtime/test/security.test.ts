// Host / Origin checks and the token, through a real server, the SSE stream included.
import { request } from 'node:http';
import { connect } from 'node:net';
import {
  TRPCClientError,
  createTRPCClient,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
} from '@trpc/client';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/index.js';
import type { Runtime } from '../src/runtime.js';
import { makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import { collectMetrics } from './metrics-helpers.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP GET: fetch() would not let a test set Host or Origin. */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      // An accepted SSE stream never ends: the first chunk is enough.
      res.on('data', (chunk: string) => {
        body += chunk;
        if (res.headers['content-type']?.startsWith('text/event-stream')) res.destroy();
      });
      res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SSE = { accept: 'text/event-stream' };

/** Sends `text` as the whole request over a socket (no client would send two Host headers). */
function rawStatus(port: number, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
  });
}

describe('on loopback without a token', () => {
  let runtime: Runtime;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await makeDataDir();
    runtime = await startTestRuntime({ dataDir });
  });
  afterAll(async () => {
    await runtime?.close();
    await removeDataDir(dataDir);
  });

  it('binds 127.0.0.1 by default', () => {
    expect(runtime.url).toBe(`http://127.0.0.1:${runtime.port}`);
  });

  it('answers requests addressed to it, with or without a same-origin Origin', async () => {
    const host = `localhost:${runtime.port}`;
    expect((await rawGet(runtime.port, '/trpc/health', { host })).status).toBe(200);
    const sameOrigin = await rawGet(runtime.port, '/trpc/health', {
      host,
      origin: `http://${host}`,
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding) with 403, the SSE stream included', async () => {
    for (const path of ['/trpc/health', '/healthz', '/', '/trpc/metrics']) {
      const response = await rawGet(runtime.port, path, {
        host: `evil.example:${runtime.port}`,
        ...SSE,
      });
      expect(response.status).toBe(403);
      expect(response.body).toMatch(/Host header .* does not name this server/);
    }
  });

  it('refuses a request with two Host headers (a good one, then another) with 400', async () => {
    for (const path of ['/trpc/health', '/healthz', '/']) {
      const status = await rawStatus(
        runtime.port,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${runtime.port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
      );
      expect(status).toBe(400);
    }
  });

  it('refuses a cross-site Origin with 403, the SSE stream included', async () => {
    for (const path of ['/trpc/health', '/trpc/metrics']) {
      const response = await rawGet(runtime.port, path, {
        host: `127.0.0.1:${runtime.port}`,
        origin: 'http://evil.example',
        ...SSE,
      });
      expect(response.status).toBe(403);
      expect(response.body).toMatch(/cross-origin request from http:\/\/evil\.example/);
    }
  });

  it('sets defensive headers', async () => {
    const response = await fetch(`${runtime.url}/healthz`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('bound to a non-loopback address', () => {
  it('refuses to start without a token', async () => {
    const dataDir = await makeDataDir();
    try {
      await expect(startTestRuntime({ dataDir, host: '0.0.0.0' })).rejects.toThrow(
        /refusing to listen on 0\.0\.0\.0 without a token/,
      );
    } finally {
      await removeDataDir(dataDir);
    }
  });

  describe('with a token', () => {
    const token = 'correct-horse-battery-staple';
    let runtime: Runtime;
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await makeDataDir();
      runtime = await startTestRuntime({ dataDir, host: '0.0.0.0', token });
    });
    afterAll(async () => {
      await runtime?.close();
      await removeDataDir(dataDir);
    });
    const local = () => `http://127.0.0.1:${runtime.port}`;

    it('refuses every call without the token with 401, the SSE stream included', async () => {
      const host = `127.0.0.1:${runtime.port}`;
      for (const path of ['/trpc/health', '/healthz', '/metrics', '/', '/trpc/metrics']) {
        const response = await rawGet(runtime.port, path, { host, ...SSE });
        expect(response.status).toBe(401);
        expect(response.body).toMatch(/requires a token/);
      }
      const wrong = await rawGet(runtime.port, '/trpc/metrics', {
        host,
        authorization: 'Bearer nope',
        ...SSE,
      });
      expect(wrong.status).toBe(401);

      const error = await makeClient(local())
        .health.query()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      await expect(collectMetrics(makeClient(local()), 1, 3000)).rejects.toBeDefined();
    });

    it('accepts the right token on queries and on the SSE stream', async () => {
      const client = makeClient(local(), token);
      expect((await client.health.query()).ok).toBe(true);
      const [event] = await collectMetrics(client, 1);
      expect(event?.data).toMatchObject({ status: null, metrics: null });
    });

    it('accepts the token the way the web app sends it (header on calls, ?token= on the SSE URL)', async () => {
      const base = `${local()}/trpc`;
      const client = createTRPCClient<AppRouter>({
        links: [
          splitLink({
            condition: (op) => op.type === 'subscription',
            true: httpSubscriptionLink({
              url: `${base}?token=${encodeURIComponent(token)}`,
              EventSource,
            }),
            false: httpBatchLink({ url: base, headers: { authorization: `Bearer ${token}` } }),
          }),
        ],
      });
      expect((await client.health.query()).ok).toBe(true);
      const [event] = await collectMetrics(client, 1);
      expect(event?.data).toMatchObject({ status: null, metrics: null });
    });

    it('accepts ?token= for EventSource, which cannot send headers', async () => {
      const source = new EventSource(`${local()}/trpc/metrics?token=${token}`);
      try {
        const first = await new Promise<string>((resolve, reject) => {
          source.onmessage = (event) => resolve(String(event.data));
          source.onerror = (event) =>
            reject(new Error(`EventSource error: ${event.message ?? 'unknown'}`));
        });
        expect(JSON.parse(first)).toMatchObject({ status: null, metrics: null });
      } finally {
        source.close();
      }
    });

    it('turns ?token= on a page into a same-site cookie for the page’s own requests', async () => {
      const page = await rawGet(runtime.port, `/?token=${token}`, {
        host: `127.0.0.1:${runtime.port}`,
      });
      expect(page.status).not.toBe(401);
      const cookie = String(page.headers['set-cookie']).split(';')[0] ?? '';
      expect(page.headers['set-cookie']?.toString()).toMatch(/HttpOnly; SameSite=Strict/);
      const withCookie = await rawGet(runtime.port, '/healthz', {
        host: `127.0.0.1:${runtime.port}`,
        cookie,
      });
      expect(withCookie.status).toBe(200);
    });
  });
});
