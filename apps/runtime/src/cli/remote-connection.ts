// `--url`: the command works through a running runtime's API (the data dir is the runtime's).
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '../router/index.js';
import type { FetchedPartition } from '../service/record-service.js';
import { headersJson, parseHeadersField } from '../service/headers-json.js';
import { describeError, CliError } from './cli-error.js';
import type { Connection } from './connection.js';

export type RuntimeClient = TRPCClient<AppRouter>;

export function createRuntimeClient(url: string, token?: string): RuntimeClient {
  const base = normalizeUrl(url);
  return createTRPCClient<AppRouter>({
    links: [
      // Not batched: a long-polling fetch must not hold other calls back.
      httpLink({
        url: `${base}/trpc`,
        ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
      }),
    ],
  });
}

/** Runs a call, turning transport and API errors into one readable line. */
export async function call<T>(url: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new CliError(describeError(error, normalizeUrl(url)));
  }
}

export function openRemoteConnection(url: string, token?: string): Connection {
  const client = createRuntimeClient(url, token);
  const via = <T>(run: () => Promise<T>) => call(url, run);
  return {
    describeTarget: `runtime ${normalizeUrl(url)}`,
    listTopics: () => via(() => client.topics.list.query()),
    describeTopic: (name) => via(() => client.topics.describe.query({ name })),
    createTopic: (request) => via(() => client.topics.create.mutate(request)),
    deleteTopic: async (name) => {
      await via(() => client.topics.delete.mutate({ name }));
    },
    produceBatch: async (topic, records, compression) => {
      const { results } = await via(() =>
        client.topics.produceBatch.mutate({
          topic,
          ...(compression === undefined || compression === 'none' ? {} : { compression }),
          records: records.map((r) => ({
            key: toBase64(r.key),
            value: toBase64(r.value),
            ...(r.partition === undefined ? {} : { partition: r.partition }),
            ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }),
            ...(r.headers === undefined ? {} : { headers: headersJson(r.headers) }),
          })),
        }),
      );
      return results;
    },
    fetch: async (request, signal) => {
      const { partitions } = await via(() =>
        client.topics.fetch.mutate(request, signal ? { signal } : undefined),
      );
      return partitions.map((p): FetchedPartition => ({
        ...p,
        records: p.records.map((r) => ({
          ...r,
          key: fromBase64(r.key),
          value: fromBase64(r.value),
          headers: parseHeadersField(r.headers),
        })),
      }));
    },
    commitOffsets: async (group, topic, offsets) => {
      await via(() => client.groups.commit.mutate({ group, topic, offsets }));
    },
    committedOffsets: (group, topic) => via(() => client.groups.committed.query({ group, topic })),
    close: async () => {},
  };
}

export function normalizeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--url: not a URL: ${JSON.stringify(url)} (e.g. http://127.0.0.1:4300)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`--url: expected an http:// or https:// URL, got ${url}`);
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message));
}

function toBase64(bytes: Uint8Array | null): string | null {
  return bytes === null
    ? null
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function fromBase64(text: string | null): Uint8Array | null {
  return text === null ? null : new Uint8Array(Buffer.from(text, 'base64'));
}
