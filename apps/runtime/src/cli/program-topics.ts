// The kcat-like commands: `topics`, `produce`, `consume`.
// Commands load their implementation when they run, so `--help` does not load the engine.
import type { Command } from 'commander';
import {
  addTargetOptions,
  collectConfig,
  formatOption,
  keyWindowOption,
  parseCount,
  compressionOption,
} from './options.js';

const topicsCommand = () => import('./topics-command.js');

const TARGET_HELP = `

Where it works: with --url (or $STREAMWRIGHT_URL) through a running runtime; otherwise directly
on the data dir (--data-dir, default ./.streamwright), which is refused while a runtime holds it.`;

export function registerTopicCommands(program: Command): void {
  const topics = program
    .command('topics')
    .description('create, list, describe and delete topics (like kafka-topics.sh)')
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright topics create orders --partitions 3 --config retention.ms=86400000
  $ streamwright topics list
  $ streamwright topics describe orders --url http://127.0.0.1:4300
  $ streamwright topics delete orders${TARGET_HELP}`,
    );

  addTargetOptions(
    topics
      .command('create')
      .description('create a topic')
      .argument('<topic>', 'topic name')
      .option('-p, --partitions <n>', 'number of partitions', parseCount('--partitions', 1), 1)
      .option(
        '-c, --config <key=value>',
        "a topic config with Kafka's key, repeatable (retention.ms, cleanup.policy, …)",
        collectConfig,
        {},
      ),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright topics create orders --partitions 3
  $ streamwright topics create users --config cleanup.policy=compact --config segment.ms=60000
  $ streamwright topics create clicks -p 6 --url http://127.0.0.1:4300${TARGET_HELP}`,
    )
    .action(async (name: string, options) =>
      (await topicsCommand()).runTopicsCreate(name, options),
    );

  addTargetOptions(
    topics
      .command('list')
      .description('list topics with their partition and record counts')
      .option('--json', 'print JSON instead of text', false),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright topics list
  $ streamwright topics list --json --url http://127.0.0.1:4300${TARGET_HELP}`,
    )
    .action(async (options) => (await topicsCommand()).runTopicsList(options));

  addTargetOptions(
    topics
      .command('describe')
      .description("a topic's partitions, offsets and configs")
      .argument('<topic>', 'topic name')
      .option('--json', 'print JSON instead of text', false),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright topics describe orders
  $ streamwright topics describe orders --json${TARGET_HELP}`,
    )
    .action(async (name: string, options) =>
      (await topicsCommand()).runTopicsDescribe(name, options),
    );

  addTargetOptions(
    topics
      .command('delete')
      .description('delete a topic with its records and committed offsets')
      .argument('<topic>', 'topic name'),
  )
    .addHelpText(
      'after',
      `
A topic the running application uses is refused: stop the application first.

Examples:
  $ streamwright topics delete orders${TARGET_HELP}`,
    )
    .action(async (name: string, options) =>
      (await topicsCommand()).runTopicsDelete(name, options),
    );

  addTargetOptions(
    program
      .command('produce')
      .description('append records read from stdin as JSON lines')
      .argument('<topic>', 'topic name')
      .addOption(formatOption('--key-format'))
      .addOption(keyWindowOption())
      .addOption(formatOption('--value-format'))
      .addOption(compressionOption()),
  )
    .addHelpText(
      'after',
      `
Each line: {"key": …, "value": …, "timestamp"?: ms, "headers"?: [{"key", "value"}], "partition"?: n}.
A missing key is null; null is a null key or a tombstone value. Keys and values are read per
--key-format / --value-format: string (a JSON string, the default), json (any JSON value,
stored as JSON text), base64 (any bytes), long (an integer, Java's 8-byte long). Without a
partition, the key picks one as Java clients do (murmur2). Blank lines are skipped.
Headers are an ordered array (a key may repeat); each value is text (UTF-8), {"base64": "…"}
(any bytes) or null. The older object form {"name": "text"} is still read.

--compression writes the batches compressed as a Java producer with that compression.type
would (gzip, snappy, lz4, zstd); a topic whose own compression.type differs stores them its way.

A bad line stops the command with its line number and exit code 1; every line before it has
been acknowledged (the count is in the message).

Examples:
  $ echo '{"key":"k1","value":"hello"}' | streamwright produce greetings
  $ streamwright produce orders --value-format json < orders.jsonl
  $ printf '%s\\n' '{"key":"a","value":{"n":1},"headers":[{"key":"source","value":"cli"}]}' | \\
      streamwright produce orders --value-format json --url http://127.0.0.1:4300${TARGET_HELP}`,
    )
    .action(async (topic: string, options) =>
      (await import('./produce-command.js')).runProduce(topic, options),
    );

  addTargetOptions(
    program
      .command('consume')
      .description('print records as JSON lines, up to the end of the log (or follow it)')
      .argument('<topic>', 'topic name')
      .option('-g, --group <group>', 'resume from this consumer group and commit what is printed')
      .option('--from-beginning', 'start at the earliest offset instead of the end', false)
      .option('-p, --partition <p>', 'only this partition', parseCount('--partition', 0))
      .option('-n, --max <n>', 'stop after n records', parseCount('--max', 1))
      .option('-f, --follow', 'keep waiting for new records (stop with Ctrl-C)', false)
      .addOption(formatOption('--key-format'))
      .addOption(keyWindowOption())
      .addOption(formatOption('--value-format')),
  )
    .addHelpText(
      'after',
      `
Each line: {"partition", "offset", "timestamp", "key", "value", "headers"}, keys and values
shown per --key-format / --value-format (string by default; bytes that do not decode are
shown as base64 and flagged in an extra "undecodable" field). Without --follow it stops at the
end offsets the log had when it started. Like Kafka's console consumer, a group's committed
offsets win; --from-beginning decides where a partition without one starts (else at the end).
With --key-window, a windowed key prints as {"key", "start", "end"} (the key per --key-format).
"headers" is the ordered array [{"key", "value"}] (repeated keys kept; value as text when it is
valid UTF-8, {"base64": "…"} otherwise, null for a null value), as produce reads it.

Examples:
  $ streamwright consume orders --from-beginning
  $ streamwright consume large-orders --from-beginning --value-format json --max 10
  $ streamwright consume word-counts --from-beginning --value-format long
  $ streamwright consume clicks-per-minute --from-beginning --key-window time:60000 --value-format long
  $ streamwright consume orders --group audit --follow --url http://127.0.0.1:4300${TARGET_HELP}`,
    )
    .action(async (topic: string, options) =>
      (await import('./consume-command.js')).runConsume(topic, options),
    );
}
