// `streamwright state …`: query the stores of a running runtime's application.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { addRuntimeOptions, parseCount } from './options.js';

// Loaded when a command runs, so `--help` stays quick.
const stateCommand = () => import('./state-command.js');

const KEYS_HELP = `
Keys are given as the store's key serde takes them: text for string keys (the default), or
JSON with --key-format json (numbers for long or integer keys, objects for JSON keys).`;

/** Options every query takes: the runtime, how keys are read, and how many entries at most. */
function addQueryOptions(command: Command, withLimit = true): Command {
  command
    .option(
      '-u, --url <url>',
      'the runtime (default: $STREAMWRIGHT_URL, else http://127.0.0.1:4300)',
    )
    .option('-t, --token <token>', "the runtime's token (default: $STREAMWRIGHT_TOKEN)")
    .addOption(
      new Option('--key-format <format>', 'key arguments as text or JSON')
        .choices(['string', 'json'])
        .default('string'),
    )
    .option(
      '--stale',
      'on Kafka: a standby replica may answer (KIP-535), e.g. while a rebalance moves the task; stderr names the instance and lag of each task that answered',
    );
  if (withLimit)
    command.option(
      '--limit <n>',
      'at most this many entries, 1–1000 (a note on stderr says when more matched)',
      parseLimit,
      100,
    );
  return command;
}

const time = (what: string) => parseCount(what, 0);

/** The API answers at most 1000 entries a query. */
function parseLimit(text: string): number {
  const n = parseCount('--limit', 1)(text);
  if (n > 1000) throw new InvalidArgumentError('--limit is at most 1000');
  return n;
}

export function registerStateCommands(program: Command): void {
  const state = program
    .command('state')
    .description("interactive queries on the running application's state stores")
    .addHelpText(
      'after',
      `
Each query prints one JSON line per entry (key, value, timestamp; windows and sessions also
start and end), merged across the application's tasks as Kafka Streams' KafkaStreams#store
does. The application must be RUNNING. On Kafka, any instance of the application answers: a
key's query goes to the instance running its task, a range or all() to every instance; a task a
rebalance is moving answers "migrating" (exit 1) unless --stale lets a standby answer.
${KEYS_HELP}

Examples:
  $ streamwright state stores
  $ streamwright state get word-counts apple
  $ streamwright state range word-counts --from a --to m
  $ streamwright state windows clicks-per-hour --key ann --time-from 1700000000000`,
    );

  addRuntimeOptions(state.command('stores').description('the stores, their types and entries'))
    .addHelpText('after', '\nExamples:\n  $ streamwright state stores --url http://127.0.0.1:4300')
    .action(async (options) => (await stateCommand()).runStateStores(options));

  addQueryOptions(
    state
      .command('get')
      .description("a key's value and timestamp (exit 1 when the store has no value for it)")
      .argument('<store>', 'key-value store')
      .argument('<key>', 'the key')
      .option(
        '--as-of <ms>',
        'versioned stores: the version valid at this time (epoch ms), with its validTo',
        time('--as-of'),
      ),
    false,
  )
    .addHelpText(
      'after',
      `${KEYS_HELP}

Examples:
  $ streamwright state get word-counts apple
  $ streamwright state get users-by-id 42 --key-format json
  $ streamwright state get prices widget --as-of 1700000000000`,
    )
    .action(async (store: string, key: string, options) =>
      (await stateCommand()).runStateGet(store, key, options),
    );

  addQueryOptions(
    state
      .command('range')
      .description('entries with keys from --from to --to, inclusive, in key-byte order')
      .argument('<store>', 'key-value store')
      .option('--from <key>', 'lowest key (default: open)')
      .option('--to <key>', 'highest key (default: open)'),
  )
    .addHelpText(
      'after',
      `${KEYS_HELP}\n\nExamples:\n  $ streamwright state range word-counts --from a --to m`,
    )
    .action(async (store: string, options) => (await stateCommand()).runStateRange(store, options));

  addQueryOptions(
    state
      .command('prefix')
      .description("entries whose serialized key starts with the prefix's (prefixScan)")
      .argument('<store>', 'key-value store')
      .argument('<prefix>', 'the key prefix'),
  )
    .addHelpText(
      'after',
      `${KEYS_HELP}\n\nExamples:\n  $ streamwright state prefix word-counts app`,
    )
    .action(async (store: string, prefix: string, options) =>
      (await stateCommand()).runStatePrefix(store, prefix, options),
    );

  addQueryOptions(
    state
      .command('all')
      .description('every entry, in key-byte order')
      .argument('<store>', 'key-value store'),
  )
    .addHelpText('after', '\nExamples:\n  $ streamwright state all word-counts --limit 1000')
    .action(async (store: string, options) => (await stateCommand()).runStateAll(store, options));

  addQueryOptions(
    state
      .command('windows')
      .description("a window store's windows: one key's, a key range's, or all")
      .argument('<store>', 'window store')
      .option('--key <key>', "one key's windows (fetch(key, timeFrom, timeTo))")
      .option('--from <key>', 'key range: lowest key (fetch(keyFrom, keyTo, …))')
      .option('--to <key>', 'key range: highest key')
      .option(
        '--time-from <ms>',
        'windows starting at or after this time (epoch ms)',
        time('--time-from'),
      )
      .option(
        '--time-to <ms>',
        'windows starting at or before this time (epoch ms)',
        time('--time-to'),
      )
      .option('--backward', 'latest first (backwardFetch)', false),
  )
    .addHelpText(
      'after',
      `${KEYS_HELP}

Examples:
  $ streamwright state windows clicks-per-hour --key ann
  $ streamwright state windows clicks-per-hour --time-from 1700000000000 --backward`,
    )
    .action(async (store: string, options) =>
      (await stateCommand()).runStateWindows(store, options),
    );

  addQueryOptions(
    state
      .command('sessions')
      .description("a session store's sessions: one key's, a key range's, or all")
      .argument('<store>', 'session store')
      .option('--key <key>', "one key's sessions")
      .option('--from <key>', 'key range: lowest key')
      .option('--to <key>', 'key range: highest key')
      .option(
        '--earliest-end <ms>',
        'sessions ending at or after this time',
        time('--earliest-end'),
      )
      .option(
        '--latest-start <ms>',
        'sessions starting at or before this time',
        time('--latest-start'),
      )
      .option('--backward', 'latest first (backwardFindSessions)', false),
  )
    .addHelpText(
      'after',
      `${KEYS_HELP}

Examples:
  $ streamwright state sessions visits --key ann
  $ streamwright state sessions visits --from a --to m --earliest-end 1700000000000`,
    )
    .action(async (store: string, options) =>
      (await stateCommand()).runStateSessions(store, options),
    );
}
