#!/usr/bin/env node
// `npm test`: install everything the tests need (pnpm deps, Debian chromium, openssl and kcat; the Maven jars of
// tools/ks-oracle, tools/java-peer, of the Kafka broker in tools/kafka and Apicurio Registry in
// tools/schema-registry come with their
// packages' turbo `setup`, which the tests depend on) and run every test:
// typecheck, lint (incl. dependency direction and import cycles), formatting, unit and
// integration tests, then the Playwright specs in real Chromium.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { delimiter, dirname, join } from 'node:path';
import { run, runPnpm, step } from './lib/run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Debian packages: chromium for the Playwright specs, openssl for the Kafka tests' TLS listener
// (tools/kafka/tls.mjs makes its CA and broker certificate with it), kcat (librdkafka's client)
// for the Kafka backend's and the Kafka listener's interop tests.
const missing = [];
if (!existsSync(chromium)) missing.push('chromium');
if (!onPath('openssl')) missing.push('openssl');
if (!onPath('kcat')) missing.push('kcat');
if (missing.length > 0) {
  step(
    `Installing Debian ${missing.join(', ')} (for the Playwright specs and the Kafka TLS and interop tests)`,
  );
  const asRoot = process.getuid?.() === 0;
  const apt = (args) => (asRoot ? run('apt-get', args) : run('sudo', ['apt-get', ...args]));
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...missing]);
}
process.env.CHROMIUM_PATH = chromium;

step('Installing dependencies (pnpm)');
runPnpm(['install', '--frozen-lockfile']);

step('Build, typecheck, lint, unit and integration tests');
runPnpm([
  'exec',
  'turbo',
  'run',
  'build',
  'typecheck',
  'lint',
  'test',
  '--concurrency=2',
  '--output-logs=new-only',
  '--continue',
]);

step('Import cycles, public API reports and formatting');
runPnpm(['run', 'lint:cycles']);
runPnpm(['run', 'lint:api']);
runPnpm(['run', 'format:check']);

step('End-to-end specs (Playwright, Debian chromium)');
runPnpm(['--filter', '@streamwright/e2e', 'run', 'e2e']);

step('All tests passed');

function onPath(command) {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .some((dir) => dir !== '' && existsSync(join(dir, command)));
}
