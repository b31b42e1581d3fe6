// Option parsers and the options shared by several commands.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseFormat, type RecordFormat } from './formats.js';

export function parseCount(what: string, min: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min || !Number.isSafeInteger(n)) {
      throw new InvalidArgumentError(`${what} is an integer ≥ ${min}`);
    }
    return n;
  };
}

export function formatOption(flag: '--key-format' | '--value-format'): Option {
  return new Option(`${flag} <format>`, `${flag.slice(2, -7)} as string, json, base64 or long`)
    .default('string')
    .argParser((text: string): RecordFormat => {
      try {
        return parseFormat(text);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    });
}

/** --url / --token / --data-dir: through a runtime, or on a data dir directly. */
export function addTargetOptions(command: Command): Command {
  return command
    .option('-u, --url <url>', 'work through the runtime at this URL (default: $STREAMWRIGHT_URL)')
    .option('-t, --token <token>', "the runtime's token (default: $STREAMWRIGHT_TOKEN)")
    .option(
      '-d, --data-dir <dir>',
      'work on this data dir directly, when no runtime holds it (default: ./.streamwright)',
    );
}

export function addRuntimeOptions(command: Command): Command {
  return command
    .option(
      '-u, --url <url>',
      'the runtime (default: $STREAMWRIGHT_URL, else http://127.0.0.1:4300)',
    )
    .option('-t, --token <token>', "the runtime's token (default: $STREAMWRIGHT_TOKEN)")
    .option('--json', 'print JSON instead of text', false);
}

/** `--config key=value`, repeatable: collected into one object. */
export function collectConfig(
  text: string,
  previous: Record<string, string> = {},
): Record<string, string> {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected key=value, got ${JSON.stringify(text)}`);
  return { ...previous, [text.slice(0, eq).trim()]: text.slice(eq + 1).trim() };
}
