// The data dir's layout, and opening it: take its lock first, then the backend — the embedded one
// in `<dataDir>/log`, or a Kafka cluster (`serve --backend kafka`: the data dir then keeps the
// state, the deployment and the workspace, and the topics live on Kafka). The runtime and the
// CLI's direct mode (`--data-dir`, always embedded) open it the same way.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createEmbeddedBackend, type Backend } from '@streamwright/engine';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';

export interface OpenDataDir {
  dataDir: string;
  /** `<dataDir>/state`: the application's local state (Kafka Streams' state.dir). */
  stateDir: string;
  backend: Backend;
  lock: DataDirLock;
  /** Closes the backend, then releases the lock. */
  close(): Promise<void>;
}

/** TLS and SASL towards a Kafka cluster (the engine's KafkaBackendOptions `ssl` and `sasl`). */
export interface KafkaSecurity {
  /** true: TLS trusting the system's CAs; or PEM texts of a CA and a client certificate and key. */
  ssl?: true | { ca?: string; cert?: string; key?: string; passphrase?: string };
  sasl?: {
    mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
    username: string;
    password: string;
  };
}

/** Which backend the runtime's application runs on. */
export type BackendChoice =
  | { kind: 'embedded' }
  | ({
      kind: 'kafka';
      /** bootstrap.servers, `host:port` each. */
      bootstrapServers: string[];
    } & KafkaSecurity);

export const logDirOf = (dataDir: string): string => join(dataDir, 'log');
export const stateDirOf = (dataDir: string): string => join(dataDir, 'state');

/**
 * @param owner `runtime`, or the CLI command, named in the lock for whoever is refused.
 * @param logger where the embedded log's repairs at open are reported (WARN).
 */
export async function openDataDir(
  dataDir: string,
  owner: string,
  choice: BackendChoice = { kind: 'embedded' },
  logger?: { warn(obj: object, msg?: string): void },
): Promise<OpenDataDir> {
  const lock = await lockDataDir(dataDir, owner);
  try {
    const stateDir = stateDirOf(dataDir);
    await mkdir(stateDir, { recursive: true });
    let backend: Backend;
    if (choice.kind === 'kafka') {
      // A separate entry point: runtimes on the embedded backend never load kafkajs.
      const { createKafkaBackend } = await import('@streamwright/engine/kafka');
      backend = await createKafkaBackend({
        bootstrapServers: choice.bootstrapServers,
        clientId: 'streamwright-runtime',
        ...(choice.ssl !== undefined ? { ssl: choice.ssl } : {}),
        ...(choice.sasl !== undefined ? { sasl: choice.sasl } : {}),
      });
    } else {
      const logDir = logDirOf(dataDir);
      await mkdir(logDir, { recursive: true });
      backend = await createEmbeddedBackend({ dataDir: logDir, ...(logger ? { logger } : {}) });
    }
    let closing: Promise<void> | null = null;
    return {
      dataDir,
      stateDir,
      backend,
      lock,
      close() {
        closing ??= (async () => {
          try {
            await backend.close();
          } finally {
            await lock.release();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
