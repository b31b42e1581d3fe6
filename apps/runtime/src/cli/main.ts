// The `streamwright` command line: serve, validate, describe, drive, export, the topic commands
// (topics, produce, consume) and app.
import { Command, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../version.js';
import { registerAppCommands } from './program-app.js';
import { registerLogCommands } from './program-log.js';
import { registerStateCommands } from './program-state.js';
import { registerTopicCommands } from './program-topics.js';
import { addTargetOptions } from './options.js';
import type { TargetOptions } from './connection.js';

// Command implementations are imported when the command runs: `--help` and `--version` load
// neither the engine nor the server.
const checkFile = () => import('./check-file.js');
const driveCommand = () => import('./drive-command.js');
const exportCommand = () => import('./export-command.js');

/** Runs the CLI; a failing command prints one line on stderr and sets exit code 1. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (error) {
    const { describeError } = await import('./cli-error.js');
    process.stderr.write(`error: ${describeError(error)}\n`);
    process.exitCode = 1;
  }
}

export function buildProgram(): Command {
  const program = new Command('streamwright')
    .description('Kafka Streams in TypeScript, made visual: the runtime server and topology tools')
    .version(VERSION)
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright serve                           # http://127.0.0.1:4300, data in ./.streamwright
  $ streamwright serve --port 0 --example        # any free port, example topology running
  $ streamwright validate topology.json          # every error with its path
  $ streamwright describe topology.json          # Kafka Streams' Topology#describe() text
  $ streamwright drive topology.json -r in.jsonl # run it over records, no runtime
  $ streamwright export program.mjs -o app.json  # a DSL program's topology, for the designer
  $ streamwright topics create orders -p 3       # on ./.streamwright (or --url a runtime)
  $ streamwright produce orders < in.jsonl       # JSON lines in, consume prints them out
  $ streamwright app lag --url http://127.0.0.1:4300`,
    );

  program
    .command('serve')
    .description('run the runtime: tRPC API, metrics, web app and the deployed application')
    .option('-p, --port <n>', 'port to listen on (0 = any free port)', parsePort, 4300)
    .option(
      '-H, --host <address>',
      'address to bind; anything but loopback needs --token',
      '127.0.0.1',
    )
    .option(
      '-d, --data-dir <dir>',
      'where the log, the state and the deployed topology live',
      './.streamwright',
    )
    .option(
      '--backend <kind>',
      'embedded (the log in the data dir) or kafka (an Apache Kafka cluster; see docs/KAFKA_BACKEND.md)',
      'embedded',
    )
    .option(
      '--bootstrap-servers <list>',
      'with --backend kafka: the cluster, host:port[,host:port…] (use 127.0.0.1, not localhost)',
    )
    .option('--kafka-ssl', 'with --backend kafka: connect with TLS (trusting the system CAs)')
    .option(
      '--kafka-ssl-ca <file>',
      'TLS: trust this CA (PEM) for the brokers; implies --kafka-ssl',
    )
    .option(
      '--kafka-ssl-cert <file>',
      "mutual TLS: this client certificate (PEM; Kafka's ssl.keystore.*), with --kafka-ssl-key; implies --kafka-ssl",
    )
    .option(
      '--kafka-ssl-key <file>',
      "mutual TLS: the client certificate's private key (PEM; an encrypted key's passphrase from $STREAMWRIGHT_KAFKA_SSL_KEY_PASSWORD)",
    )
    .option(
      '--kafka-sasl-mechanism <name>',
      'SASL authentication: plain, scram-sha-256 or scram-sha-512 (with --kafka-sasl-username)',
    )
    .option('--kafka-sasl-username <name>', 'SASL: the user name')
    .option(
      '--kafka-sasl-password-file <file>',
      'SASL: read the password from this file (default: $STREAMWRIGHT_KAFKA_SASL_PASSWORD; never a flag)',
    )
    .option(
      '--kafka-listener [host:port]',
      'serve the embedded log over the Kafka protocol (default 127.0.0.1:9092; off unless given): Kafka clients, kcat and Kafka Streams connect to it',
    )
    .option(
      '--kafka-advertised-listener <host:port>',
      'with --kafka-listener: the address clients are told to connect to (required beyond loopback)',
    )
    .option(
      '--kafka-listener-sasl-username <name>',
      'with --kafka-listener: require SASL (PLAIN or SCRAM-SHA-256/512) as this user (required beyond loopback)',
    )
    .option(
      '--kafka-listener-password-file <file>',
      'the SASL password of --kafka-listener-sasl-username (default: $STREAMWRIGHT_KAFKA_LISTENER_PASSWORD; never a flag)',
    )
    .option(
      '--kafka-auto-create-topics',
      "with --kafka-listener: create unknown topics a client's Metadata request names (Kafka's auto.create.topics.enable)",
    )
    .option(
      '-t, --token <token>',
      'require this token on every request (default: $STREAMWRIGHT_TOKEN)',
    )
    .option(
      '--application-server <host:port>',
      "with --backend kafka: where the application's other instances reach this one for state queries (application.server; default: this runtime's own address)",
    )
    .option(
      '--peer-token <token>',
      "the token state queries forwarded to the application's other instances carry, also accepted on theirs (default: $STREAMWRIGHT_PEER_TOKEN, else --token)",
    )
    .option('--example', 'deploy and start the example topology if nothing is deployed', false)
    .option(
      '--log-format <format>',
      'auto (readable lines at a terminal, JSON lines otherwise), json or pretty',
      'auto',
    )
    .option(
      '--processors <module>',
      'import custom processors (value transformers, functions) from this module: trusted code, see docs/SECURITY.md',
    )
    .option(
      '--allowed-host <name...>',
      'extra host names accepted in the Host header (reverse proxies)',
    )
    .option(
      '--allowed-origin <origin...>',
      'extra origins allowed to call the API, e.g. http://localhost:5173',
    )
    .addHelpText(
      'after',
      `
Stops gracefully (commit, close stores) on SIGTERM or Ctrl-C. Logs go to stderr: one readable
line per entry at a terminal, JSON lines (pino) when stderr is a pipe or a file or with
--log-format json; level from $STREAMWRIGHT_LOG_LEVEL (default info).

Examples:
  $ streamwright serve --port 5000
  $ streamwright serve --data-dir /tmp/sw --example
  $ STREAMWRIGHT_TOKEN=s3cret streamwright serve --host 0.0.0.0
  $ streamwright serve --processors ./processors.mjs   # exports { processors, functions }
  $ streamwright serve --kafka-listener                # Kafka clients: bootstrap.servers=127.0.0.1:9092
  $ streamwright serve --backend kafka --bootstrap-servers 127.0.0.1:9092
    (several runtimes with the same application.id on one cluster share its tasks as one
    consumer group; each keeps its own --data-dir for local state)
  $ STREAMWRIGHT_KAFKA_SASL_PASSWORD=… streamwright serve --backend kafka \\
      --bootstrap-servers broker1:9094 --kafka-ssl-ca ca.pem \\
      --kafka-sasl-mechanism scram-sha-512 --kafka-sasl-username streams
  $ streamwright serve --backend kafka --bootstrap-servers broker1:9093 \\
      --kafka-ssl-ca ca.pem --kafka-ssl-cert client.pem --kafka-ssl-key client.key
    (mutual TLS; a certificate or SASL login the brokers refuse fails at once, not after retries)`,
    )
    .action(async (options) => (await import('./serve.js')).runServe(options));

  addTargetOptions(
    program
      .command('validate')
      .description(
        'check a topology file; exit 0 when valid, 1 listing every error; application-config keys that are not honoured are warnings',
      )
      .argument('<file>', 'topology JSON file')
      .addOption(
        new Option(
          '--backend <kind>',
          'also warn about the client and topic configs this backend does not implement',
        ).choices(['embedded', 'kafka']),
      ),
  )
    .addHelpText(
      'after',
      `
With a runtime (--url or $STREAMWRIGHT_URL) or a data dir (--data-dir), the topics that already
exist there keep their partition counts whatever the file declares, and co-partitioning is
checked with them, as a deploy would.

Warnings (stderr, exit 0): a key Kafka does not know (Kafka logs "The configuration 'x' was
supplied but isn't a known config."), a key Kafka Streams overrides, a Kafka key not implemented.

Examples:
  $ streamwright validate topology.json
  $ streamwright validate topology.json --backend kafka
  $ streamwright validate exported.json && echo ok
  $ streamwright validate topology.json --url http://127.0.0.1:4300`,
    )
    .action(async (file: string, options: { backend?: 'embedded' | 'kafka' } & TargetOptions) =>
      (await checkFile()).runValidate(file, options),
    );

  program
    .command('describe')
    .description("print Kafka Streams' Topology#describe() text of a topology file")
    .argument('<file>', 'topology JSON file')
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright describe topology.json
  $ streamwright describe topology.json > topology.txt`,
    )
    .action(async (file: string) => (await checkFile()).runDescribe(file));

  program
    .command('drive')
    .description(
      "run a topology file over JSON-line records in the test driver (Kafka's TopologyTestDriver) and print what it writes",
    )
    .argument('<file>', 'topology JSON file')
    .requiredOption('-r, --records <file>', 'input JSON lines ("-" for stdin)')
    .option('--include-internal', 'also print repartition and changelog topics', false)
    .option(
      '--wall-clock <ms>',
      "the test driver's wall clock at the start, epoch ms (default: now)",
      parseWallClock,
    )
    .option(
      '--processors <module>',
      'custom processors, value transformers and functions the topology names, from this module (trusted code)',
    )
    .addHelpText(
      'after',
      `
Each input line is a record, {"topic", "key", "value", "timestamp", "headers"?}, with key and
value as the reading source's serdes take them (JSON values; text for string serdes), or
{"advanceWallClockMs": n}, which advances the wall clock and fires wall-clock punctuations.
"headers" is an ordered array [{"key", "value"}] (repeated keys kept; value as text,
{"base64": "…"} or null); the older object {"name": "text"} is still read.
Lines are processed in file order, one partition per topic, each record processed (and
committed) before the next, exactly as Kafka's TopologyTestDriver does. A line without a
timestamp is an error naming the line.

Every record written to a topic that is not internal is printed as a JSON line
{"topic", "key", "value", "timestamp", "headers"?} in the order written (headers when it has
any, in the array form: text where valid UTF-8, {"base64": …} otherwise); a windowed key prints as
{"key", "start", "end"}; bytes as base64. --include-internal adds the repartition and
changelog topics.

Examples:
  $ streamwright drive topology.json --records input.jsonl
  $ printf '%s\\n' '{"topic":"words","key":"a","value":"a","timestamp":0}' | streamwright drive wc.json -r -`,
    )
    .action(async (file: string, options) => (await driveCommand()).runDrive(file, options));

  program
    .command('export')
    .description(
      "run a DSL program (your own code, on this machine) and write its StreamsBuilder's topology JSON, which the designer imports",
    )
    .argument('<program>', 'a JavaScript module (.mjs/.js; compile TypeScript first)')
    .option('-o, --output <file>', 'write the JSON to this file (default: stdout)')
    .option(
      '-e, --export <name>',
      'the module export to take (default: the default export, else `built`)',
    )
    .option(
      '--application-id <id>',
      "the document's application.id (default: the program's own, else the file's base name)",
      parseApplicationId,
    )
    .addHelpText(
      'after',
      `
The program is imported like --processors modules: trusted code, run with your privileges, never
anything that came through the API. A .ts program must be compiled first (tsc) or written as
.mjs. The export it takes is one of:
  - a function (builder) => void | BuiltTopology, possibly async: it is given a StreamsBuilder;
    when it returns nothing, that builder is built with the application.id from
    --application-id or the file's base name;
  - the result of builder.build({ applicationId, config, topics }) (e.g. \`export const built\`,
    as the designer's Code dialog writes it).
The JSON is canonical (exportTopology). TypeScript logic stays in the document as references
by name ({"function": "isLarge"}): the designer shows them read-only, and a runtime runs them
with serve --processors (a note on stderr lists them).

Examples:
  $ streamwright export ./page-views.mjs > page-views.json
  $ streamwright export dist/orders.js --export ordersTopology -o orders.json
  $ tsc -p . && streamwright export dist/app.js --application-id orders-app`,
    )
    .action(async (program: string, options) =>
      (await exportCommand()).runExport(program, options),
    );

  registerTopicCommands(program);
  registerAppCommands(program);
  registerStateCommands(program);
  registerLogCommands(program);
  return program;
}

function parseWallClock(text: string): number {
  const ms = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(ms))
    throw new InvalidArgumentError('the wall clock is an integer ≥ 0 (epoch ms)');
  return ms;
}

function parseApplicationId(text: string): string {
  if (!/^[a-zA-Z0-9._-]{1,200}$/.test(text))
    throw new InvalidArgumentError('an application.id is 1-200 letters, digits, ".", "_" and "-"');
  return text;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}
