#!/usr/bin/env node
// The full broker-outage experiment of issue 20: an application on a broker of its own counts
// records, the broker is killed for 60 s and started again as the same node; the application must
// resume by itself and count every record. Prints a JSON report (docs/KAFKA_BACKEND.md, "Outages").
//   node scripts/outage-test.mjs [--outage-ms 60000] [--threads 1] [--partitions 4] [--keys 100]
//                                [--rounds 20] [--session-timeout-ms 45000]
// Runs the engine from its TypeScript sources through tsx (an engine dev dependency); the broker
// comes from tools/kafka (its jars are fetched by `npm test`'s setup).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const engine = fileURLToPath(new URL('../packages/engine/', import.meta.url));
const tsx = pathToFileURL(createRequire(`${engine}package.json`).resolve('tsx')).href;
const main = `${engine}test/kafka/outage-main.ts`;
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', tsx, main, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: engine },
);
process.exit(result.status ?? 1);
