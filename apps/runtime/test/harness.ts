// Starts a real runtime (HTTP server, engine, embedded backend) on port 0 with a temporary data
// dir, and a tRPC client for it as the web app would make one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTRPCClient,
  TRPCClientError,
  httpBatchLink,
  httpSubscriptionLink,
  splitLink,
  type TRPCClient,
} from '@trpc/client';
import { EventSource, type FetchLike } from 'eventsource';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { startRuntime, type Runtime, type RuntimeOptions } from '../src/runtime.js';

export type Client = TRPCClient<AppRouter>;

export async function makeDataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'streamwright-runtime-test-'));
}

/** `dir` is undefined when the suite's set-up failed before making it: nothing to remove, and no
 * second error on top of the set-up's. */
export async function removeDataDir(dir: string | undefined): Promise<void> {
  if (dir === undefined) return;
  await rm(dir, { recursive: true, force: true });
}

/** Silent unless STREAMWRIGHT_TEST_LOGS=1, to keep test output readable. */
export const testLogger = pino({ level: process.env.STREAMWRIGHT_TEST_LOGS ? 'debug' : 'silent' });

export async function startTestRuntime(
  options: Partial<RuntimeOptions> & { dataDir: string },
): Promise<Runtime> {
  return startRuntime({ logger: testLogger, port: 0, ...options });
}

export function makeClient(url: string, token?: string): Client {
  const authorization = token ? { authorization: `Bearer ${token}` } : undefined;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: `${url}/trpc`,
          EventSource,
          // The polyfill lets a fetch add the header; browsers use the cookie or ?token= instead.
          ...(authorization
            ? {
                eventSourceOptions: {
                  fetch: ((input, init) =>
                    fetch(input, {
                      ...init,
                      headers: { ...init.headers, ...authorization },
                    })) satisfies FetchLike,
                },
              }
            : {}),
        }),
        false: httpBatchLink({
          url: `${url}/trpc`,
          ...(authorization ? { headers: authorization } : {}),
        }),
      }),
    ],
  });
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The tRPC error a call is refused with (the call must fail). */
export async function refusal(call: Promise<unknown>): Promise<TRPCClientError<AppRouter>> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return error as TRPCClientError<AppRouter>;
}

/** A running test runtime with its client and data dir. */
export interface TestRuntime {
  readonly runtime: Runtime;
  readonly client: Client;
  readonly dataDir: string;
  /** Closes the runtime and starts a new one on the same data dir (a new client too). */
  restart(): Promise<void>;
}

/**
 * Starts a runtime on a fresh data dir before the file's tests (before each test with `each`)
 * and closes it and removes the dir after; read the fields inside tests and hooks only.
 */
export function useTestRuntime(options: { each?: boolean } = {}): TestRuntime {
  let current: Omit<TestRuntime, 'restart'> | undefined;
  const need = (): Omit<TestRuntime, 'restart'> => {
    if (!current) throw new Error('the test runtime is used outside a test or hook');
    return current;
  };
  (options.each ? beforeEach : beforeAll)(async () => {
    const dataDir = await makeDataDir();
    const runtime = await startTestRuntime({ dataDir });
    current = { runtime, client: makeClient(runtime.url), dataDir };
  });
  (options.each ? afterEach : afterAll)(async () => {
    const started = current;
    current = undefined;
    await started?.runtime.close();
    if (started) await removeDataDir(started.dataDir);
  });
  return {
    get runtime() {
      return need().runtime;
    },
    get client() {
      return need().client;
    },
    get dataDir() {
      return need().dataDir;
    },
    async restart() {
      const { runtime, dataDir } = need();
      await runtime.close();
      const next = await startTestRuntime({ dataDir });
      current = { runtime: next, client: makeClient(next.url), dataDir };
    },
  };
}
