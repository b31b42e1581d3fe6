// Option parsers and the options shared by several commands.
import type { KeyWindow } from '../service/record-codec.js';
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

/** Kafka's producer compression.type values, as `--compression` takes them. */
export const COMPRESSIONS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const;

/** `--compression <codec>`: the producer's compression.type for the batches `produce` writes. */
export function compressionOption(): Option {
  return new Option('--compression <codec>', "the batches' compression.type, as a Kafka producer's")
    .choices(COMPRESSIONS)
    .default('none');
}

/** `--key-window time:<ms> | session | store:<ms>`: the layout of windowed keys (`consume`). */
export function keyWindowOption(): Option {
  return new Option(
    '--key-window <layout>',
    'keys are windowed: time:<size ms> (TimeWindowedSerde), session (SessionWindowedSerde) or store:<size ms> (a window store changelog)',
  ).argParser((text: string): KeyWindow => {
    const [kind, size] = text.split(':');
    const sizeMs = Number(size);
    if (kind === 'session' && size === undefined) return { kind: 'session' };
    if ((kind === 'time' || kind === 'store') && Number.isSafeInteger(sizeMs) && sizeMs > 0)
      return kind === 'time' ? { kind: 'time', sizeMs } : { kind: 'windowStore', sizeMs };
    throw new InvalidArgumentError(
      `expected time:<window size ms>, session or store:<window size ms>, got "${text}"`,
    );
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
