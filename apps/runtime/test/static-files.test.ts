// The built web app: files with their content types, the SPA fallback, and a clear page when
// the app is not built.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/runtime.js';
import { makeDataDir, removeDataDir, startTestRuntime } from './harness.js';

let dataDir: string;
let webRoot: string;
let runtime: Runtime;

beforeAll(async () => {
  dataDir = await makeDataDir();
  webRoot = join(dataDir, 'web');
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>designer</title>');
  await writeFile(join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(join(webRoot, 'assets', 'index-abc123.css'), 'body{}');
  await writeFile(join(dataDir, 'secret.txt'), 'not for the web');
  runtime = await startTestRuntime({ dataDir, webRoot });
});

afterAll(async () => {
  await runtime?.close();
  await removeDataDir(dataDir);
});

describe('the web app', () => {
  it('serves index.html and assets with their content types', async () => {
    const index = await fetch(`${runtime.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('<title>designer</title>');

    const js = await fetch(`${runtime.url}/assets/index-abc123.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toMatch(/immutable/);
    const css = await fetch(`${runtime.url}/assets/index-abc123.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('falls back to index.html for client-side routes, not for missing assets', async () => {
    const route = await fetch(`${runtime.url}/topologies/orders`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('<title>designer</title>');
    expect((await fetch(`${runtime.url}/assets/missing.js`)).status).toBe(404);
  });

  it('never serves a file outside the web root', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const response = await fetch(`${runtime.url}${path}`);
      expect(await response.text()).not.toContain('not for the web');
    }
  });

  it('says so when the web app is not built', async () => {
    const empty = await makeDataDir();
    const bare = await startTestRuntime({ dataDir: empty, webRoot: join(empty, 'no-such-dist') });
    try {
      const response = await fetch(`${bare.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toMatch(/web app is not built/);
      // The API works regardless.
      expect((await fetch(`${bare.url}/healthz`)).status).toBe(200);
    } finally {
      await bare.close();
      await removeDataDir(empty);
    }
  });
});
