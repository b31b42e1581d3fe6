// The full-size scale-out run (scripts/scale-out.mjs runs this through tsx): a broker of its own
// (or --bootstrap), a count application scaled 1 → 2 → 3 → 2 instances under steady input
// (scale-out-run.ts), under the cooperative protocol or, with --protocol eager, Kafka Streams'
// eager one (upgrade.from=2.3). Prints each step's longest processing gap of the tasks that
// stayed and of those that moved, and the records lost and counted twice.
//   scale-out-main.ts [--protocol cooperative|eager] [--partitions 12] [--keys 20000]
//                     [--preload 20000] [--rate 500] [--commit-ms 1000] [--bootstrap host:port]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBroker } from '@streamwright/kafka-broker';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { runScaleOut } from './scale-out-run.js';

const { values } = parseArgs({
  options: {
    protocol: { type: 'string', default: 'cooperative' },
    partitions: { type: 'string', default: '12' },
    keys: { type: 'string', default: '20000' },
    preload: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '500' },
    'commit-ms': { type: 'string', default: '1000' },
    bootstrap: { type: 'string' },
  },
});
if (values.protocol !== 'cooperative' && values.protocol !== 'eager')
  throw new Error(`--protocol must be cooperative or eager, not ${values.protocol}`);
const partitions = Number(values.partitions);
const tickMs = 20;
const dir = mkdtempSync(join(tmpdir(), 'streamwright-scale-out-'));
const broker = values.bootstrap ? null : await startBroker({ heap: '1g' });
const bootstrap = values.bootstrap ?? broker!.bootstrapServers;
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
const backend = await createKafkaBackend({ bootstrapServers: [bootstrap] });
let dirs = 0;
try {
  const commitMs = Number(values['commit-ms']);
  const result = await runScaleOut({
    bootstrap,
    backend,
    stateDir: () => join(dir, `instance-${++dirs}`),
    partitions,
    keysPerPartition: Number(values.keys),
    // --rate records per second per partition, written every 20 ms.
    recordsPerTick: Math.max(1, Math.round((Number(values.rate) * tickMs) / 1000)),
    tickMs,
    preloadPerPartition: Number(values.preload),
    // Longer than the probing rebalance interval: a step ends once the warm-ups have moved.
    settleMs: 8_000,
    config: {
      'commit.interval.ms': commitMs,
      // Warm-ups are checked every 5 s instead of 10 min, so a run ends in minutes.
      'probing.rebalance.interval.ms': 5_000,
      ...(values.protocol === 'eager' ? { 'upgrade.from': '2.3' } : {}),
    },
    log,
    runId: `${values.protocol}-${Date.now()}`,
  });
  const bound = Math.max(2 * commitMs, 1_000);
  console.log(
    JSON.stringify({
      protocol: values.protocol,
      partitions,
      boundMs: bound,
      steps: result.steps.map((s) => ({
        step: s.step,
        settledMs: s.settledMs,
        unmoved: s.tasks.filter((t) => !t.moved).length,
        moved: s.tasks.filter((t) => t.moved).length,
        maxGapUnmovedMs: s.maxGapUnmovedMs,
        maxGapMovedMs: s.maxGapMovedMs,
        unmovedInterrupted: s.tasks.filter((t) => t.interrupted).length,
        restoredByMoved: s.tasks.reduce((n, t) => n + t.restored, 0),
      })),
      produced: result.produced,
      lost: result.lostRecords,
      countedTwice: result.duplicatedRecords,
    }),
  );
} finally {
  await backend.close();
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
}
