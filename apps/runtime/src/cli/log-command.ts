// The actions of `streamwright log check|repair` (see program-log.ts).
import { createInterface } from 'node:readline/promises';
import { checkDataDir, repairPartition, type Damage } from '@streamwright/log';
import { logDirOf } from '../service/data-dir.js';
import { lockDataDir } from '../service/data-dir-lock.js';
import { CliError } from './cli-error.js';

function describeDamage(d: Damage): string {
  const where = d.topic === undefined ? d.file : `${d.topic}-${d.partition}`;
  const at =
    d.offset === undefined
      ? ''
      : ` from offset ${d.offset}${d.position === undefined ? '' : ` (position ${d.position})`}`;
  return `${where}: damaged${at} in ${d.file}: ${d.reason}`;
}

export async function runLogCheck(options: { dataDir: string; json: boolean }): Promise<void> {
  const lock = await lockDataDir(options.dataDir, 'log check');
  try {
    const report = checkDataDir(logDirOf(options.dataDir));
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      process.stdout.write(
        `checked ${report.partitions} partitions, ${report.segments} segments, ${report.batches} batches: ${report.damage.length === 0 ? 'no damage' : `${report.damage.length} damaged`}\n`,
      );
      for (const d of report.damage) {
        process.stdout.write(`${describeDamage(d)}\n`);
        if (d.topic !== undefined && d.offset !== undefined)
          process.stdout.write(
            `  repair: streamwright log repair --data-dir ${options.dataDir} --partition ${d.topic}-${d.partition} --from ${d.offset}\n`,
          );
      }
    }
    if (report.damage.length > 0) process.exitCode = 1;
  } finally {
    await lock.release();
  }
}

export async function runLogRepair(options: {
  dataDir: string;
  partition: string;
  from: string;
  yes: boolean;
}): Promise<void> {
  const m = /^(.+)-(\d+)$/.exec(options.partition);
  if (!m)
    throw new CliError(
      `--partition: expected topic-partition (e.g. orders-2), got ${JSON.stringify(options.partition)}`,
    );
  const topic = m[1]!;
  const partition = Number(m[2]);
  if (!/^\d+$/.test(options.from))
    throw new CliError(`--from: expected an offset, got ${JSON.stringify(options.from)}`);
  const from = Number(options.from);
  if (!options.yes) {
    if (!process.stdin.isTTY)
      throw new CliError('log repair deletes records: confirm with --yes when not at a terminal');
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question(
      `Cut ${topic}-${partition} at offset ${from}? Every record from offset ${from} on is deleted. Type "yes": `,
    );
    rl.close();
    if (answer.trim() !== 'yes') throw new CliError('not repaired (no confirmation)');
  }
  const lock = await lockDataDir(options.dataDir, 'log repair');
  try {
    const result = repairPartition(logDirOf(options.dataDir), topic, partition, from);
    process.stdout.write(
      `repaired ${topic}-${partition}: cut at offset ${from} in ${result.truncatedFile}` +
        (result.deletedSegments.length > 0
          ? `, ${result.deletedSegments.length} later segments deleted`
          : '') +
        '\n',
    );
  } finally {
    await lock.release();
  }
}
