// Playwright in Debian's Chromium (never a downloaded browser), against the BUILT runtime CLI
// serving the built web app, each run on a fresh data directory and free ports.
//
// Three runtimes: one empty (the specs build everything through the UI; started with the
// operator code in support/operator-code.mjs, which topologies may name), one started with
// `--example` (the `npm start` experience, also used for docs/screenshot.png), and one that
// requires a token (the web app's token handling).
import { defineConfig } from '@playwright/test';
import { E2E_TOKEN, ensureRunSettings } from './support/run-settings.js';

const settings = await ensureRunSettings();
const cli = '../apps/runtime/bin/streamwright.mjs';
// The runtimes' JSON logs go to runtime.log in their data directory: look there when one fails.
const serve = (port: number, dataDir: string, extra = '') =>
  `node ${cli} serve --port ${port} --data-dir ${dataDir}${extra} 2>>${dataDir}/runtime.log`;

export default defineConfig({
  testDir: './specs',
  outputDir: 'test-results',
  // Specs share one runtime (one deployed application), so they run one at a time.
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${settings.port}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: serve(settings.port, settings.dataDir, ' --processors support/operator-code.mjs'),
      url: `http://127.0.0.1:${settings.port}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'ignore',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      command: serve(settings.examplePort, settings.exampleDataDir, ' --example'),
      url: `http://127.0.0.1:${settings.examplePort}/healthz`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'ignore',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      command: serve(settings.tokenPort, settings.tokenDataDir, ` --token ${E2E_TOKEN}`),
      url: `http://127.0.0.1:${settings.tokenPort}/healthz?token=${E2E_TOKEN}`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'ignore',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
  ],
});
