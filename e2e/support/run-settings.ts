// Ports and data directories of one test run. Playwright evaluates the config in the runner and
// again in every worker; the runner picks the values and exports them through the environment,
// which the workers inherit, so everyone agrees on them.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunSettings {
  port: number;
  dataDir: string;
  examplePort: number;
  exampleDataDir: string;
  tokenPort: number;
  tokenDataDir: string;
}

/** The token the token-protected runtime requires. */
export const E2E_TOKEN = 'e2e-secret-token';

/** A port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function ensureRunSettings(): Promise<RunSettings> {
  const env = process.env;
  if (!env.SW_E2E_PORT) env.SW_E2E_PORT = String(await freePort());
  if (!env.SW_E2E_EXAMPLE_PORT) env.SW_E2E_EXAMPLE_PORT = String(await freePort());
  if (!env.SW_E2E_TOKEN_PORT) env.SW_E2E_TOKEN_PORT = String(await freePort());
  if (!env.SW_E2E_TOKEN_DATA_DIR)
    env.SW_E2E_TOKEN_DATA_DIR = mkdtempSync(join(tmpdir(), 'streamwright-e2e-token-'));
  if (!env.SW_E2E_DATA_DIR) env.SW_E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'streamwright-e2e-'));
  if (!env.SW_E2E_EXAMPLE_DATA_DIR)
    env.SW_E2E_EXAMPLE_DATA_DIR = mkdtempSync(join(tmpdir(), 'streamwright-e2e-example-'));
  return {
    port: Number(env.SW_E2E_PORT),
    dataDir: env.SW_E2E_DATA_DIR,
    examplePort: Number(env.SW_E2E_EXAMPLE_PORT),
    exampleDataDir: env.SW_E2E_EXAMPLE_DATA_DIR,
    tokenPort: Number(env.SW_E2E_TOKEN_PORT),
    tokenDataDir: env.SW_E2E_TOKEN_DATA_DIR,
  };
}

function urlOf(variable: string): string {
  const port = process.env[variable];
  if (!port) throw new Error(`${variable} is not set: run the specs through playwright.config.ts`);
  return `http://127.0.0.1:${port}`;
}

/** The example runtime's URL, for specs that open it instead of the empty one. */
export const exampleUrl = (): string => urlOf('SW_E2E_EXAMPLE_PORT');

/** The URL of the runtime that requires E2E_TOKEN. */
export const tokenUrl = (): string => urlOf('SW_E2E_TOKEN_PORT');
