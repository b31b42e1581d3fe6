// `serve`'s TLS and SASL flags for the Kafka backend, read before anything opens. A password is
// never a flag value (it would show in `ps` and shell history): it comes from an environment
// variable or a file. Every refusal is one line naming the flag (and file) at fault.
import { readFileSync } from 'node:fs';
import type { KafkaSecurity } from '../service/data-dir.js';
import { CliError } from './cli-error.js';

/** Where the SASL password comes from unless --kafka-sasl-password-file is given. */
export const SASL_PASSWORD_ENV = 'STREAMWRIGHT_KAFKA_SASL_PASSWORD';
/** The passphrase of an encrypted --kafka-ssl-key, if it is one. */
export const SSL_KEY_PASSWORD_ENV = 'STREAMWRIGHT_KAFKA_SSL_KEY_PASSWORD';

const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;

export interface KafkaSecurityFlags {
  kafkaSsl?: boolean;
  kafkaSslCa?: string;
  kafkaSslCert?: string;
  kafkaSslKey?: string;
  kafkaSaslMechanism?: string;
  kafkaSaslUsername?: string;
  kafkaSaslPasswordFile?: string;
}

/** The first of these flags that is given, or null (they need --backend kafka). */
export function anySecurityFlag(flags: KafkaSecurityFlags): string | null {
  const names: [keyof KafkaSecurityFlags, string][] = [
    ['kafkaSsl', '--kafka-ssl'],
    ['kafkaSslCa', '--kafka-ssl-ca'],
    ['kafkaSslCert', '--kafka-ssl-cert'],
    ['kafkaSslKey', '--kafka-ssl-key'],
    ['kafkaSaslMechanism', '--kafka-sasl-mechanism'],
    ['kafkaSaslUsername', '--kafka-sasl-username'],
    ['kafkaSaslPasswordFile', '--kafka-sasl-password-file'],
  ];
  for (const [key, flag] of names)
    if (flags[key] !== undefined && flags[key] !== false) return flag;
  return null;
}

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`${flag}: cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The TLS and SASL settings the flags ask for (empty when none is given). */
export function kafkaSecurity(
  flags: KafkaSecurityFlags,
  env: NodeJS.ProcessEnv = process.env,
): KafkaSecurity {
  const out: KafkaSecurity = {};
  const { kafkaSslCa: ca, kafkaSslCert: cert, kafkaSslKey: key } = flags;
  if ((cert === undefined) !== (key === undefined))
    throw new CliError(
      '--kafka-ssl-cert and --kafka-ssl-key go together (a client certificate and its key)',
    );
  if (flags.kafkaSsl === true || ca !== undefined || cert !== undefined) {
    const tls: NonNullable<Exclude<KafkaSecurity['ssl'], boolean>> = {};
    if (ca !== undefined) tls.ca = readFlagFile('--kafka-ssl-ca', ca);
    if (cert !== undefined && key !== undefined) {
      tls.cert = readFlagFile('--kafka-ssl-cert', cert);
      tls.key = readFlagFile('--kafka-ssl-key', key);
      const passphrase = env[SSL_KEY_PASSWORD_ENV];
      if (passphrase !== undefined && passphrase !== '') tls.passphrase = passphrase;
    }
    out.ssl = Object.keys(tls).length > 0 ? tls : true;
  }
  const { kafkaSaslMechanism: mechanism, kafkaSaslUsername: username } = flags;
  if (mechanism === undefined) {
    if (username !== undefined || flags.kafkaSaslPasswordFile !== undefined)
      throw new CliError(
        `--kafka-sasl-username and --kafka-sasl-password-file need --kafka-sasl-mechanism (${MECHANISMS.join(', ')})`,
      );
    return out;
  }
  const m = mechanism.toLowerCase();
  if (!(MECHANISMS as readonly string[]).includes(m))
    throw new CliError(
      `--kafka-sasl-mechanism: expected ${MECHANISMS.join(', ')}, got ${JSON.stringify(mechanism)}`,
    );
  if (username === undefined || username === '')
    throw new CliError(`--kafka-sasl-mechanism ${m} needs --kafka-sasl-username`);
  let password: string | undefined;
  if (flags.kafkaSaslPasswordFile !== undefined) {
    // One trailing line break is the file's, not the password's (echo secret > file).
    password = readFlagFile('--kafka-sasl-password-file', flags.kafkaSaslPasswordFile).replace(
      /\r?\n$/,
      '',
    );
    if (password === '')
      throw new CliError(`--kafka-sasl-password-file: ${flags.kafkaSaslPasswordFile} is empty`);
  } else {
    password = env[SASL_PASSWORD_ENV];
    if (password === undefined || password === '')
      throw new CliError(
        `--kafka-sasl-mechanism ${m} needs a password: set $${SASL_PASSWORD_ENV} or pass --kafka-sasl-password-file <file>`,
      );
  }
  out.sasl = { mechanism: m as (typeof MECHANISMS)[number], username, password };
  return out;
}
