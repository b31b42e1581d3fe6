// Command line for the full-size Kafka kill test (scripts/kafka-eos-kill.mjs runs this through
// tsx): starts a broker of its own (tools/kafka; or uses --bootstrap) and runs the harness.
//   kill-main.ts --guarantee exactly_once_v2 --records 1000000 --kills 20 [--version 4.1.1]
//                [--threads 2]
//                [--bootstrap host:port] [--keys 1000] [--min-gap-ms 5000] [--max-gap-ms 12000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBroker, type KafkaVersion } from '@streamwright/kafka-broker';
import { runKafkaKillTest, type Guarantee } from './kill-harness.js';

const { values } = parseArgs({
  options: {
    guarantee: { type: 'string', default: 'exactly_once_v2' },
    threads: { type: 'string', default: '1' },
    records: { type: 'string', default: '1000000' },
    keys: { type: 'string', default: '1000' },
    kills: { type: 'string', default: '20' },
    'min-gap-ms': { type: 'string', default: '5000' },
    'max-gap-ms': { type: 'string', default: '12000' },
    'max-restart-delay-ms': { type: 'string', default: '4000' },
    'finish-timeout-ms': { type: 'string', default: '1200000' },
    version: { type: 'string', default: '3.9.1' },
    bootstrap: { type: 'string' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'streamwright-kafka-kill-'));
const broker = values.bootstrap
  ? null
  : await startBroker({ version: values.version as KafkaVersion, heap: '1g' });
try {
  const report = await runKafkaKillTest({
    bootstrap: values.bootstrap ?? broker!.bootstrapServers,
    dir,
    guarantee: values.guarantee as Guarantee,
    threads: Number(values.threads),
    records: Number(values.records),
    keys: Number(values.keys),
    kills: Number(values.kills),
    minGapMs: Number(values['min-gap-ms']),
    maxGapMs: Number(values['max-gap-ms']),
    maxRestartDelayMs: Number(values['max-restart-delay-ms']),
    finishTimeoutMs: Number(values['finish-timeout-ms']),
    log: (line) => {
      if (!line.includes(': STATE ')) process.stderr.write(`${line}\n`);
    },
  });
  process.stdout.write(
    `${JSON.stringify({ broker: broker?.version ?? values.bootstrap, ...report }, null, 2)}\n`,
  );
  const ok =
    report.problems.length === 0 &&
    report.missing === 0 &&
    (report.guarantee === 'at_least_once' || (report.duplicates === 0 && report.outputExact));
  process.exitCode = ok ? 0 : 1;
} finally {
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
}
