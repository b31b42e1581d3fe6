#!/usr/bin/env node
// The full-size Kafka kill test of issue 20: two instances of a count-by-word application on a
// Kafka broker of its own (tools/kafka), one of them SIGKILLed at random moments and restarted;
// prints a JSON report (kills, records in/out, duplicates, missing; see docs/KAFKA_BACKEND.md).
//   node scripts/kafka-eos-kill.mjs --guarantee exactly_once_v2 --records 1000000 --kills 20
//   node scripts/kafka-eos-kill.mjs --guarantee at_least_once --version 4.1.1
//   node scripts/kafka-eos-kill.mjs --threads 2   (num.stream.threads of each instance)
// Runs the engine from its TypeScript sources through tsx (an engine dev dependency).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const engine = fileURLToPath(new URL('../packages/engine/', import.meta.url));
const tsx = pathToFileURL(createRequire(`${engine}package.json`).resolve('tsx')).href;
const main = `${engine}test/kafka/eos-kill/kill-main.ts`;
const result = spawnSync(
  process.execPath,
  ['--conditions=source', '--import', tsx, main, ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: engine },
);
process.exit(result.status ?? 1);
