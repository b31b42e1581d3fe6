// `streamwright serve`: start the runtime, print its URL, and shut down gracefully on a signal.
import { resolveLogFormat } from '../log-format.js';
import { createLogger } from '../logger.js';
import { startRuntime } from '../runtime.js';
import { loadCodeModule } from '../service/code-module.js';
import type { BackendChoice } from '../service/data-dir.js';
import { CliError } from './cli-error.js';
import { anySecurityFlag, kafkaSecurity, type KafkaSecurityFlags } from './kafka-security.js';
import { kafkaListenerChoice, type KafkaListenerFlags } from './kafka-listener-flags.js';

export interface ServeOptions extends KafkaSecurityFlags, KafkaListenerFlags {
  port: number;
  host: string;
  dataDir: string;
  token?: string;
  applicationServer?: string;
  peerToken?: string;
  example: boolean;
  allowedHost?: string[];
  allowedOrigin?: string[];
  processors?: string;
  backend: string;
  bootstrapServers?: string;
  logFormat?: string;
}

export type ServeBackendOptions = Pick<ServeOptions, 'backend' | 'bootstrapServers'> &
  KafkaSecurityFlags;

/** `--backend`, `--bootstrap-servers` and the `--kafka-*` flags, checked before anything opens. */
export function backendChoice(
  options: ServeBackendOptions,
  env: NodeJS.ProcessEnv = process.env,
): BackendChoice {
  if (options.backend === 'embedded') {
    if (options.bootstrapServers !== undefined)
      throw new CliError('--bootstrap-servers needs --backend kafka');
    const flag = anySecurityFlag(options);
    if (flag !== null) throw new CliError(`${flag} needs --backend kafka`);
    return { kind: 'embedded' };
  }
  if (options.backend !== 'kafka')
    throw new CliError(
      `--backend: expected embedded or kafka, got ${JSON.stringify(options.backend)}`,
    );
  const servers = (options.bootstrapServers ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (servers.length === 0)
    throw new CliError('--backend kafka needs --bootstrap-servers host:port[,host:port…]');
  for (const s of servers)
    if (!/^[^\s:]+:\d{1,5}$/.test(s))
      throw new CliError(`--bootstrap-servers: expected host:port, got ${JSON.stringify(s)}`);
  return { kind: 'kafka', bootstrapServers: servers, ...kafkaSecurity(options, env) };
}

/** Node's bare `listen EADDRINUSE` / `EACCES` (and a data dir it may not use) as what to do. */
export function listenError(
  error: unknown,
  options: Pick<ServeOptions, 'port' | 'host' | 'dataDir'>,
): CliError | null {
  const { code, syscall, path } = error as { code?: unknown; syscall?: unknown; path?: unknown };
  // Only a failed listen() is about the port: EACCES from open/mkdir is about a file.
  if (syscall !== 'listen') {
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      return new CliError(
        `cannot use the data dir ${options.dataDir}: ${String(syscall ?? 'access')} ${String(path ?? '')} was refused (${String(code)}): make it writable by this user, or choose another with --data-dir`,
      );
    if (code === 'EMFILE' || code === 'ENFILE')
      return new CliError(
        `too many open files (${String(code)}) while opening ${String(path ?? options.dataDir)}: raise the limit (ulimit -n, currently counted per process) or use fewer partitions`,
      );
    return null;
  }
  const where = `port ${options.port} on ${options.host}`;
  if (code === 'EADDRINUSE')
    return new CliError(
      `${where} is already in use (another runtime or program): choose another with --port, or --port 0 for any free port`,
    );
  if (code === 'EACCES')
    return new CliError(
      `not allowed to listen on ${where} (ports below 1024 need privileges): choose another with --port`,
    );
  if (code === 'EADDRNOTAVAIL')
    return new CliError(`--host ${options.host} is not an address of this machine`);
  return null;
}

export async function runServe(options: ServeOptions): Promise<void> {
  const backend = backendChoice(options);
  const kafkaListener = kafkaListenerChoice(options, backend.kind);
  let format;
  try {
    format = resolveLogFormat(options.logFormat);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const logger = createLogger(undefined, format);
  const token = options.token ?? process.env.STREAMWRIGHT_TOKEN ?? null;
  const peerToken = options.peerToken ?? process.env.STREAMWRIGHT_PEER_TOKEN ?? null;
  if (
    options.applicationServer !== undefined &&
    !/^([^:\s[\]]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$/.test(options.applicationServer)
  )
    throw new CliError(
      `--application-server: expected host:port, got ${JSON.stringify(options.applicationServer)}`,
    );
  // Imported before anything opens: a module that fails to load stops the start cleanly.
  const code = options.processors ? await loadCodeModule(options.processors) : undefined;
  if (code) {
    logger.info(
      {
        module: code.module,
        processors: Object.keys(code.processors),
        valueTransformers: Object.keys(code.valueTransformers),
        functions: Object.keys(code.functions),
        partitioners: Object.keys(code.partitioners),
      },
      'registered the operator processors and functions',
    );
  }
  const runtime = await startRuntime({
    dataDir: options.dataDir,
    logger,
    host: options.host,
    port: options.port,
    token: token === '' ? null : token,
    ...(peerToken ? { peerToken } : {}),
    ...(options.applicationServer ? { applicationServer: options.applicationServer } : {}),
    example: options.example,
    backend,
    ...(kafkaListener ? { kafkaListener } : {}),
    // Readable logs mean a human at a terminal, who reads the URL in the lines below: a
    // `listening` log line would say it twice. JSON logs keep it for the machines reading them.
    logListening: format === 'json',
    ...(code ? { code } : {}),
    ...(options.allowedHost ? { allowedHosts: options.allowedHost } : {}),
    ...(options.allowedOrigin ? { allowedOrigins: options.allowedOrigin } : {}),
  }).catch((error: unknown) => {
    throw listenError(error, options) ?? error;
  });
  const needsToken = token !== null && token !== '';
  process.stdout.write(
    `Streamwright runtime listening on ${runtime.url}${needsToken ? ' (token required)' : ''}\n`,
  );
  process.stdout.write(
    backend.kind === 'kafka'
      ? `Topics on Kafka at ${backend.bootstrapServers.join(',')}; state and deployment in ${runtime.dataDir}. Stop with Ctrl-C.\n`
      : `Data in ${runtime.dataDir}. Stop with Ctrl-C.\n`,
  );
  if (runtime.kafkaListener)
    process.stdout.write(
      `Kafka listener on ${runtime.kafkaListener.address} (cluster id ${runtime.kafkaListener.clusterId}${kafkaListener?.sasl ? ', SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) required' : ''}): bootstrap.servers=${runtime.kafkaListener.address}\n`,
    );

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal during shutdown: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    runtime.close().then(
      () => {
        logger.info('stopped cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
