// The data dir's layout, and opening it: take its lock first, then the embedded backend in
// `<dataDir>/log`. The runtime and the CLI's direct mode (`--data-dir`) open it the same way.
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

export const logDirOf = (dataDir: string): string => join(dataDir, 'log');
export const stateDirOf = (dataDir: string): string => join(dataDir, 'state');

/** @param owner `runtime`, or the CLI command, named in the lock for whoever is refused. */
export async function openDataDir(dataDir: string, owner: string): Promise<OpenDataDir> {
  const lock = await lockDataDir(dataDir, owner);
  try {
    const logDir = logDirOf(dataDir);
    const stateDir = stateDirOf(dataDir);
    await mkdir(logDir, { recursive: true });
    await mkdir(stateDir, { recursive: true });
    const backend = await createEmbeddedBackend({ dataDir: logDir });
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
