#!/usr/bin/env node
// The fault suite of issue 24 (docs/RELIABILITY.md): every fault experiment, each on a fresh data
// dir, through the packages' own tests. `npm test` runs the same files with their default sizes;
// this script runs them on their own and with bigger fuzz and damage counts:
//   node scripts/fault-suite.mjs            # FAULT_FUZZ_DOCS=10000, LOG_DAMAGE_RUNS=300
// Disk-full experiments mount small tmpfs file systems: run as root (as CI and these machines do).
import { runPnpm, step } from './lib/run.mjs';

const env = {
  FAULT_FUZZ_DOCS: process.env.FAULT_FUZZ_DOCS ?? '10000',
  LOG_DAMAGE_RUNS: process.env.LOG_DAMAGE_RUNS ?? '300',
};
Object.assign(process.env, env);

const suites = [
  [
    '@streamwright/log',
    [
      'test/disk-full.test.ts', // ENOSPC: no crash, retriable refusal, resume, nothing acked lost
      'src/storage/recovery.test.ts', // torn tails, damage below the recovery point, topics.json
      'test/repair.test.ts', // log check / repair
      'test/corruption.property.test.ts', // random bit flips and cuts in every file
      'test/crash.test.ts', // SIGKILLs while appending and in transactions
    ],
  ],
  [
    '@streamwright/engine',
    [
      'test/log-recoveries.test.ts', // torn tail, position past the end, a partition refused
      'test/persistent-state.test.ts', // a store dir deleted, a stored value damaged
      'src/state/lmdb-key-value-store.test.ts', // a checksum per stored value
      'test/state-dir-full.test.ts', // a full state dir: a named error, the writes kept
      'src/state/lmdb-segments-checksums.test.ts', // checksums of window, session, join stores
      'test/window-store-damage.test.ts', // a damaged window store rebuilt from its changelog
      'test/offset-reset.test.ts', // auto.offset.reset at start and when retention overtakes
      'test/generator-disk-full.test.ts', // a generator on a full tmpfs: throttled WARNs
      'test/worker-out-of-memory.test.ts', // a worker's heap full: its app in ERROR, process up
    ],
  ],
  [
    '@streamwright/topology-model',
    ['src/expressions/bounds.test.ts', 'test/prototype-ids.test.ts'], // ReDoS, cost budget, ids
  ],
  [
    '@streamwright/runtime',
    [
      'test/disk-full.test.ts', // a full tmpfs under a running runtime: ERROR, up, resumed
      'test/hostile-documents.test.ts', // fuzzed documents, a ReDoS filter running
      'test/input-limits.test.ts', // 413s naming the limits
      'test/security.test.ts', // duplicate Host headers, short tokens
      'test/cli-log.test.ts', // streamwright log check|repair
      'src/cli/serve-errors.test.ts', // EACCES data dir, EMFILE advice
    ],
  ],
];

for (const [pkg, files] of suites) {
  step(`${pkg}: ${files.length} fault test files (${JSON.stringify(env)})`);
  runPnpm(['--filter', pkg, 'exec', 'vitest', 'run', ...files]);
}
step('Fault suite passed');
