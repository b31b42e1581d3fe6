// The designer's performance script (not part of `e2e`): a 300-node topology panned and dragged
// in headless Chromium, and the main thread's busy share while a 100-task app streams metrics.
// Run: pnpm build && pnpm --filter @streamwright/e2e perf
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.SW_PERF_PORT ?? 4391);
const dataDir =
  process.env.SW_PERF_DATA_DIR ??
  (process.env.SW_PERF_DATA_DIR = mkdtempSync(join(tmpdir(), 'streamwright-perf-')));

/** The Chromium flags the numbers were measured with (docs/BENCHMARKS.md states them). */
export const PERF_CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '*.perf.ts',
  outputDir: '../test-results/perf',
  workers: 1,
  retries: 0,
  timeout: 240_000,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: PERF_CHROMIUM_ARGS,
    },
  },
  webServer: {
    command: `node ../../apps/runtime/bin/streamwright.mjs serve --port ${port} --data-dir ${dataDir} 2>>${dataDir}/runtime.log`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'ignore',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
