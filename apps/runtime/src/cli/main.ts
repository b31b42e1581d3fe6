// The `streamwright` command line: serve, validate, describe, the topic commands (topics,
// produce, consume) and app.
import { Command, InvalidArgumentError } from 'commander';
import { VERSION } from '../version.js';
import { registerAppCommands } from './program-app.js';
import { registerStateCommands } from './program-state.js';
import { registerTopicCommands } from './program-topics.js';

// Command implementations are imported when the command runs: `--help` and `--version` load
// neither the engine nor the server.
const checkFile = () => import('./check-file.js');

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
  $ streamwright serve                      # http://127.0.0.1:4300, data in ./.streamwright
  $ streamwright serve --port 0 --example   # any free port, example topology running
  $ streamwright validate topology.json     # every error with its path
  $ streamwright describe topology.json     # Kafka Streams' Topology#describe() text
  $ streamwright topics create orders -p 3  # on ./.streamwright (or --url a runtime)
  $ streamwright produce orders < in.jsonl  # JSON lines in, consume prints them out
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
      '-t, --token <token>',
      'require this token on every request (default: $STREAMWRIGHT_TOKEN)',
    )
    .option('--example', 'deploy and start the example topology if nothing is deployed', false)
    .option(
      '--processors <module>',
      'import custom processors (and functions) from this module: trusted code, see docs/SECURITY.md',
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
Examples:
  $ streamwright serve --port 5000
  $ streamwright serve --data-dir /tmp/sw --example
  $ STREAMWRIGHT_TOKEN=s3cret streamwright serve --host 0.0.0.0
  $ streamwright serve --processors ./processors.mjs   # exports { processors, functions }
Stops gracefully (commit, close stores) on SIGTERM or Ctrl-C. Logs are JSON lines on stderr.`,
    )
    .action(async (options) => (await import('./serve.js')).runServe(options));

  program
    .command('validate')
    .description('check a topology file; exit 0 when valid, 1 listing every error')
    .argument('<file>', 'topology JSON file')
    .addHelpText(
      'after',
      `
Examples:
  $ streamwright validate topology.json
  $ streamwright validate exported.json && echo ok`,
    )
    .action(async (file: string) => (await checkFile()).runValidate(file));

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

  registerTopicCommands(program);
  registerAppCommands(program);
  registerStateCommands(program);
  return program;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  return port;
}
