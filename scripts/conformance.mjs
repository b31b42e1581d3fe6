#!/usr/bin/env node
// Long random differential runs against Kafka Streams 4.1 (docs/CONFORMANCE.md):
//   node scripts/conformance.mjs --runs 5000 --seed 42 [--batch 100] [--out result.json]
//     [--max-shrunk 10] [--focus windowed-tables]
// Runs packages/engine/test/conformance/long-run.ts with the workspace packages resolved to their
// TypeScript sources; exits 1 when a divergence was found.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const engine = join(dirname(fileURLToPath(import.meta.url)), '..', 'packages', 'engine');
const result = spawnSync(
  'npx',
  ['tsx', '--conditions=source', 'test/conformance/long-run.ts', ...process.argv.slice(2)],
  { cwd: engine, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
