#!/usr/bin/env node
// The full kill test of issue 5: a child streams process (count + sink on the embedded log) is
// SIGKILLed at random moments and restarted; prints a JSON report (see docs/STATE.md).
//   node scripts/kill-test.mjs --guarantee exactly_once_v2 --records 1000000 --kills 10
//   node scripts/kill-test.mjs --guarantee at_least_once --records 1000000 --kills 10
// Runs the engine from its TypeScript sources through tsx (an engine dev dependency).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const engine = fileURLToPath(new URL('../packages/engine/', import.meta.url));
const tsx = pathToFileURL(createRequire(`${engine}package.json`).resolve('tsx')).href;
const main = `${engine}test/kill/kill-main.ts`;
const result = spawnSync(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: engine,
});
process.exit(result.status ?? 1);
