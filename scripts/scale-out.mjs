#!/usr/bin/env node
// The full-size scale-out run of issue 22: a count application scaled 1 → 2 → 3 → 2 instances
// under steady input on a broker of its own (tools/kafka); prints per step the longest
// processing gap of the tasks that stayed on their instance and of those that moved, and the
// records lost or counted twice (docs/KAFKA_BACKEND.md). --protocol eager runs Kafka Streams'
// eager protocol (upgrade.from=2.3) for comparison.
//   node scripts/scale-out.mjs [--protocol cooperative|eager] [--partitions 12] [--keys 20000]
//                              [--preload 20000] [--rate 500] [--commit-ms 1000]
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const engine = fileURLToPath(new URL('../packages/engine/', import.meta.url));
const tsx = pathToFileURL(createRequire(`${engine}package.json`).resolve('tsx')).href;
const main = `${engine}test/kafka/scale-out-main.ts`;
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', tsx, main, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: engine },
);
process.exit(result.status ?? 1);
