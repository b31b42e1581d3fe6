#!/usr/bin/env node
// The full-size standby failover run of issue 22: one count task over --keys keys on a broker of
// its own (tools/kafka), two instances, the active's SIGKILLed; prints the time from the
// assignment that hands the task to the survivor to its first processed record, the full
// kill-to-first-record time and the changelog records restored (docs/KAFKA_BACKEND.md).
//   node scripts/standby-failover.mjs --keys 1000000 --standbys 1
//   node scripts/standby-failover.mjs --keys 1000000 --standbys 0
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const engine = fileURLToPath(new URL('../packages/engine/', import.meta.url));
const tsx = pathToFileURL(createRequire(`${engine}package.json`).resolve('tsx')).href;
const main = `${engine}test/kafka/standby-failover-main.ts`;
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', tsx, main, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: engine },
);
process.exit(result.status ?? 1);
