// Command line for the full kill test (scripts/kill-test.mjs runs this through tsx):
//   kill-main.ts --guarantee exactly_once_v2 --records 1000000 --keys 10000 --kills 10 --max-delay-ms 5000 [--dir d]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runKillTest, type Guarantee } from './kill-harness.js';

const { values } = parseArgs({
  options: {
    guarantee: { type: 'string', default: 'exactly_once_v2' },
    records: { type: 'string', default: '1000000' },
    keys: { type: 'string', default: '10000' },
    kills: { type: 'string', default: '10' },
    'max-delay-ms': { type: 'string', default: '5000' },
    'finish-timeout-ms': { type: 'string', default: '1800000' },
    dir: { type: 'string' },
    lmdb: { type: 'boolean', default: false },
    'wipe-state': { type: 'boolean', default: false },
  },
});
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'streamwright-kill-'));
try {
  const report = await runKillTest({
    dir,
    guarantee: values.guarantee as Guarantee,
    records: Number(values.records),
    keys: Number(values.keys),
    kills: Number(values.kills),
    maxKillDelayMs: Number(values['max-delay-ms']),
    finishTimeoutMs: Number(values['finish-timeout-ms']),
    persistentStores: values.lmdb,
    wipeStateBeforeFinal: values['wipe-state'],
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  process.exitCode = report.problems.length === 0 ? 0 : 1;
} finally {
  if (!values.dir) rmSync(dir, { recursive: true, force: true });
}
