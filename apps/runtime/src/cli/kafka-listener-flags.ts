// `serve --kafka-listener`: the embedded log over the Kafka protocol (docs/KAFKA_LISTENER.md).
// Checked before anything opens: a bad address or a listener beyond loopback without SASL
// credentials stops the start with one line saying what to change.
import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';

export interface KafkaListenerFlags {
  /** true when given without a value (the default address). */
  kafkaListener?: string | true;
  kafkaAdvertisedListener?: string;
  kafkaListenerSaslUsername?: string;
  kafkaListenerPasswordFile?: string;
  kafkaAutoCreateTopics?: boolean;
}

export interface KafkaListenerChoice {
  host: string;
  port: number;
  advertisedHost?: string;
  advertisedPort?: number;
  /** SASL/PLAIN and SCRAM-SHA-256/512 for this user. */
  sasl?: { username: string; password: string };
  autoCreateTopics: boolean;
}

export const DEFAULT_KAFKA_LISTENER = '127.0.0.1:9092';

function hostPort(flag: string, value: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535)
    throw new CliError(
      `${flag}: expected host:port (e.g. 127.0.0.1:9092), got ${JSON.stringify(value)}`,
    );
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export function kafkaListenerChoice(
  flags: KafkaListenerFlags,
  backendKind: 'embedded' | 'kafka',
  env: NodeJS.ProcessEnv = process.env,
): KafkaListenerChoice | null {
  if (flags.kafkaListener === undefined) {
    for (const [key, flag] of [
      ['kafkaAdvertisedListener', '--kafka-advertised-listener'],
      ['kafkaListenerSaslUsername', '--kafka-listener-sasl-username'],
      ['kafkaListenerPasswordFile', '--kafka-listener-password-file'],
      ['kafkaAutoCreateTopics', '--kafka-auto-create-topics'],
    ] as const)
      if (flags[key] !== undefined && flags[key] !== false)
        throw new CliError(`${flag} needs --kafka-listener`);
    return null;
  }
  if (backendKind !== 'embedded')
    throw new CliError(
      '--kafka-listener serves the embedded log: it cannot be combined with --backend kafka (point clients at the cluster itself)',
    );
  const bind = hostPort(
    '--kafka-listener',
    flags.kafkaListener === true ? DEFAULT_KAFKA_LISTENER : flags.kafkaListener,
  );
  const advertised = flags.kafkaAdvertisedListener
    ? hostPort('--kafka-advertised-listener', flags.kafkaAdvertisedListener)
    : undefined;
  let sasl: KafkaListenerChoice['sasl'];
  if (flags.kafkaListenerSaslUsername !== undefined) {
    const password = flags.kafkaListenerPasswordFile
      ? readPassword(flags.kafkaListenerPasswordFile)
      : env.STREAMWRIGHT_KAFKA_LISTENER_PASSWORD;
    if (!password)
      throw new CliError(
        '--kafka-listener-sasl-username needs a password: --kafka-listener-password-file <file> or $STREAMWRIGHT_KAFKA_LISTENER_PASSWORD',
      );
    sasl = { username: flags.kafkaListenerSaslUsername, password };
  } else if (flags.kafkaListenerPasswordFile !== undefined)
    throw new CliError('--kafka-listener-password-file needs --kafka-listener-sasl-username');
  if (!LOOPBACK.test(bind.host) && !sasl)
    throw new CliError(
      `--kafka-listener ${bind.host}:${bind.port} is reachable from other machines: add --kafka-listener-sasl-username (SASL) or listen on 127.0.0.1`,
    );
  if (!LOOPBACK.test(bind.host) && !advertised)
    throw new CliError(
      `--kafka-listener ${bind.host}:${bind.port} needs --kafka-advertised-listener host:port: the address clients on other machines should connect to`,
    );
  return {
    host: bind.host,
    port: bind.port,
    ...(advertised ? { advertisedHost: advertised.host, advertisedPort: advertised.port } : {}),
    ...(sasl ? { sasl } : {}),
    autoCreateTopics: flags.kafkaAutoCreateTopics === true,
  };
}

function readPassword(file: string): string {
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new CliError(`--kafka-listener-password-file ${file}: ${(error as Error).message}`);
  }
}
