#!/usr/bin/env node
// `npm start`: install, build, then run the runtime with the web app and the example topology
// on the embedded backend. Arguments after `--` go to `streamwright serve` (e.g. `--port 5000`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { runPnpm, step } from './lib/run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

step('Installing dependencies (pnpm)');
runPnpm(['install', '--frozen-lockfile']);

step('Building');
runPnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);

step('Starting the runtime');
const args = process.argv.slice(2);
const child = spawn(
  process.execPath,
  [join(root, 'apps/runtime/bin/streamwright.mjs'), 'serve', '--example', ...args],
  { stdio: 'inherit' },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
