// A whole runtime: the service (backend, app, saved deployment) behind the HTTP server.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { join } from 'node:path';
import { drainWorkerPool, type EmbeddedBackend } from '@streamwright/engine';
import { startKafkaListener, type KafkaListener } from '@streamwright/kafka-listener';
import type { KafkaListenerChoice } from './cli/kafka-listener-flags.js';
import type { Logger } from 'pino';
import { startServer, type RunningServer } from './http/server.js';
import { assertSafeBinding, isWildcard } from './http/security.js';
import type { CodeRegistry } from './service/code-module.js';
import type { BackendChoice } from './service/data-dir.js';
import { RuntimeService } from './service/runtime-service.js';
import { applyWorkerHeapSetting } from './worker-heaps.js';

export interface RuntimeOptions {
  dataDir: string;
  logger: Logger;
  host?: string;
  port?: number;
  token?: string | null;
  /** Deploy and start the example topology when nothing is deployed. */
  example?: boolean;
  webRoot?: string;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  /** The operator's processors and functions (`serve --processors <module>`). */
  code?: CodeRegistry;
  /** The embedded log in the data dir (default), or a Kafka cluster (`serve --backend kafka`). */
  backend?: BackendChoice;
  /** See ServerOptions.logListening. */
  logListening?: boolean;
  /** Serve the embedded log over the Kafka protocol (`serve --kafka-listener`). */
  kafkaListener?: KafkaListenerChoice;
  /**
   * On Kafka: the host:port other instances of the application reach this one at for state
   * queries (application.server). Default: the URL this runtime listens on (this machine's host
   * name when bound to every address).
   */
  applicationServer?: string;
  /**
   * The token forwarded state queries carry, which this runtime also accepts on them. Default:
   * `token` (instances of one application share one API token).
   */
  peerToken?: string | null;
}

export interface Runtime {
  url: string;
  port: number;
  dataDir: string;
  service: RuntimeService;
  /** The Kafka-protocol listener, when started. */
  kafkaListener: KafkaListener | null;
  /** Graceful: stop accepting, end subscriptions, close the app (commit, stores), close the backend. */
  close(): Promise<void>;
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const dataDir = resolve(options.dataDir);
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? null;
  // Checked before anything opens, so a refused binding leaves no backend or app behind.
  assertSafeBinding(host, token);
  applyWorkerHeapSetting();
  const service = await RuntimeService.open({
    dataDir,
    logger: options.logger,
    ...(options.code ? { code: options.code } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
  });
  let server: RunningServer | null = null;
  let kafkaListener: KafkaListener | null = null;
  try {
    // Listening first: the app's application.server is this server's address (port 0 included).
    server = await startServer({
      service,
      logger: options.logger,
      host,
      token,
      peerToken: options.peerToken ?? null,
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.webRoot ? { webRoot: options.webRoot } : {}),
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      logListening: options.logListening,
    });
    service.setQueryEndpoint(
      options.applicationServer ?? applicationServerOf(server.url, host),
      options.peerToken ?? token,
    );
    await service.resume();
    if (options.example) await service.deployExampleIfEmpty();
    if (options.kafkaListener) {
      const k = options.kafkaListener;
      if (service.backend.kind !== 'embedded')
        throw new Error('the Kafka listener serves the embedded log only');
      kafkaListener = await startKafkaListener({
        log: (service.backend as EmbeddedBackend).log,
        host: k.host,
        port: k.port,
        ...(k.advertisedHost !== undefined ? { advertisedHost: k.advertisedHost } : {}),
        ...(k.advertisedPort !== undefined ? { advertisedPort: k.advertisedPort } : {}),
        ...(k.sasl ? { sasl: k.sasl } : {}),
        autoCreateTopics: k.autoCreateTopics,
        identityFile: join(dataDir, 'kafka-listener.json'),
        logger: options.logger,
      });
    }
  } catch (error) {
    await kafkaListener?.close();
    await server?.close();
    await service.close();
    throw error;
  }
  const running = server;
  // Only a hint for refused CLI commands: failing to write it must not stop the runtime.
  await service.announceUrl(running.url).catch((error: unknown) => {
    options.logger.warn({ err: error }, 'could not record the URL in the data dir lock');
  });
  let closing: Promise<void> | null = null;
  return {
    url: running.url,
    port: running.port,
    dataDir,
    service,
    kafkaListener,
    close() {
      closing ??= (async () => {
        await kafkaListener?.close();
        await running.close();
        await service.close();
        // The stream-thread workers the closed app left idle in the engine's pool end with it.
        await drainWorkerPool();
      })();
      return closing;
    },
  };
}

/** application.server from the URL the runtime listens on (host:port; this host's name on 0.0.0.0). */
export function applicationServerOf(url: string, host: string): string {
  const { hostname: name, port } = new URL(url);
  return `${isWildcard(host) ? hostname() : name}:${port}`;
}
