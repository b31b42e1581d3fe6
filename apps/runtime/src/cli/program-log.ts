// `streamwright log check|repair --data-dir`: the embedded log's offline check and repair, with
// the runtime stopped (both take the data dir's lock). A partition the log refuses to open
// because of damage below its recovery point is repaired here, explicitly and after confirmation.
import type { Command } from 'commander';

const logCommand = () => import('./log-command.js');

export function registerLogCommands(program: Command): void {
  const log = program
    .command('log')
    .description("check and repair the embedded log's files (the runtime stopped)")
    .addHelpText(
      'after',
      `
The embedded log never cuts records below its recovery point (what it fsynced and checkpointed):
damage there makes the partition refuse to open, naming the file and the offset. These commands
find such damage and cut a partition at a named offset (every record from it on is lost).

Examples:
  $ streamwright log check --data-dir .streamwright
  $ streamwright log repair --data-dir .streamwright --partition orders-2 --from 1840`,
    );
  log
    .command('check')
    .description('CRC-scan every segment of every partition and list the damage (exit 1 if any)')
    .option('-d, --data-dir <dir>', 'the data dir (default: ./.streamwright)', '.streamwright')
    .option('--json', 'print the report as JSON', false)
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright log check --data-dir .streamwright
  $ streamwright log check --data-dir /var/lib/streamwright --json`,
    )
    .action(async (options: { dataDir: string; json: boolean }) =>
      (await logCommand()).runLogCheck(options),
    );
  log
    .command('repair')
    .description('cut one partition at an offset: every record from it on is deleted')
    .option('-d, --data-dir <dir>', 'the data dir (default: ./.streamwright)', '.streamwright')
    .requiredOption('-p, --partition <topic-partition>', 'the partition, e.g. orders-2')
    .requiredOption('--from <offset>', 'the first offset to cut (as `log check` reports it)')
    .option('-y, --yes', 'do not ask for confirmation', false)
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright log repair --data-dir .streamwright --partition orders-2 --from 1840
  $ streamwright log repair -d /var/lib/streamwright -p __consumer_offsets-0 --from 512 --yes`,
    )
    .action(async (options: { dataDir: string; partition: string; from: string; yes: boolean }) =>
      (await logCommand()).runLogRepair(options),
    );
}
