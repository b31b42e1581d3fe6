// Forwarded state queries: this runtime asks another instance of the application (at its
// application.server) for its share of a store through `state.peer`, with the shared API token
// (or the configured peer token) and the forwarded mark, so the peer answers from its own tasks
// and never forwards again. The parts travel as v8-serialized bytes (base64): store values keep
// their types (bigint, bytes) and each range row its serialized key for the merge.
import { deserialize, serialize } from 'node:v8';
import type { AnsweredTask, StoreQueryPart } from '@streamwright/engine';

/** The header that marks a forwarded query (answered locally, never forwarded again). */
export const FORWARDED_HEADER = 'x-streamwright-forwarded';

export interface PeerQuery {
  store: string;
  type: 'keyValue' | 'window' | 'session';
  method: string;
  args: unknown[];
  tasks?: string[];
  stale: boolean;
}

export interface PeerAnswer {
  parts: StoreQueryPart[];
  tasks: AnsweredTask[];
}

/** What `state.peer` sends back: the parts encoded (encodeParts), and the tasks that answered. */
export interface PeerWireAnswer {
  parts: string;
  tasks: AnsweredTask[];
}

export function encodeParts(parts: StoreQueryPart[]): string {
  return serialize(parts).toString('base64');
}

function decodeParts(encoded: string): StoreQueryPart[] {
  const parts = deserialize(Buffer.from(encoded, 'base64')) as StoreQueryPart[];
  // v8 gives Buffers back as Uint8Arrays of their own: keys compare with Buffer.compare.
  return parts.map((p) => ({
    ...p,
    keys: p.keys?.map((k) => (k === null ? null : new Uint8Array(k))) ?? null,
  }));
}

/** The peer did not answer (down, unreachable, timed out, refused the token). */
export class PeerUnreachableError extends Error {
  override readonly name = 'PeerUnreachableError';
}

/** A peer answered with an error of its own (its runtimeCode and message). */
export class PeerQueryError extends Error {
  override readonly name = 'PeerQueryError';
  constructor(
    readonly runtimeCode: string | null,
    message: string,
  ) {
    super(message);
  }
}

export interface PeerClient {
  query(host: string, query: PeerQuery): Promise<PeerAnswer>;
}

/** Calls peers over HTTP: `http://<application.server>/trpc/state.peer`. */
export function httpPeerClient(token: () => string | null, timeoutMs = 15_000): PeerClient {
  return {
    async query(host, query) {
      const url = `http://${host}/trpc/state.peer?input=${encodeURIComponent(JSON.stringify(query))}`;
      const headers: Record<string, string> = { [FORWARDED_HEADER]: '1' };
      const secret = token();
      if (secret) headers.authorization = `Bearer ${secret}`;
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        const cause = error instanceof Error ? (error.cause ?? error) : error;
        throw new PeerUnreachableError(cause instanceof Error ? cause.message : String(cause));
      }
      // A body that is not JSON (a proxy's error page) is reported below by its HTTP status.
      // eslint-disable-next-line no-restricted-syntax -- the status names the failure
      const body = (await response.json().catch(() => null)) as {
        result?: { data?: PeerWireAnswer };
        error?: { message?: string; data?: { runtimeCode?: string | null } };
      } | null;
      if (response.status === 401 || response.status === 403)
        throw new PeerUnreachableError(
          `refused (${response.status}): ${body?.error?.message ?? 'no message'}; instances of one application share one API token, or set the peer token`,
        );
      const data = body?.result?.data;
      if (!response.ok || data === undefined)
        throw new PeerQueryError(
          body?.error?.data?.runtimeCode ?? null,
          `instance ${host}: ${body?.error?.message ?? `HTTP ${response.status}`}`,
        );
      return { parts: decodeParts(data.parts), tasks: data.tasks };
    },
  };
}
