// The runtime's HTTP server: tRPC under /trpc (SSE subscriptions included), /healthz, /metrics
// (OpenMetrics) and the web app. Every request passes the RequestGuard first.
import { FORWARDED_HEADER } from '../service/peer-client.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Logger } from 'pino';
import { appRouter } from '../router/index.js';
import type { RuntimeService } from '../service/runtime-service.js';
import { VERSION } from '../version.js';
import { OPENMETRICS_CONTENT_TYPE, toOpenMetrics } from './openmetrics.js';
import { RequestGuard, TOKEN_COOKIE, assertSafeBinding, urlHost } from './security.js';
import { documentTooLarge } from '../service/input-limits.js';
import { DEFAULT_WEB_ROOT, NOT_BUILT_MESSAGE, serveStatic, webAppBuilt } from './static-files.js';

export interface ServerOptions {
  service: RuntimeService;
  logger: Logger;
  /** Default 127.0.0.1. Any non-loopback address needs a token. */
  host?: string;
  /** Default 4300; 0 picks a free port. */
  port?: number;
  token?: string | null;
  /** Also accepted on forwarded state queries of other instances (SecurityOptions.peerToken). */
  peerToken?: string | null;
  webRoot?: string;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  /** How long close() lets in-flight requests finish before cutting connections. */
  closeGraceMs?: number;
  /**
   * Log the `listening` entry (url, host, port, token). Default true; false when the caller
   * already tells a human (`serve` at a terminal prints the URL on stdout).
   */
  logListening?: boolean;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  /** Stops accepting, ends subscriptions, lets in-flight requests finish. Idempotent. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy': "frame-ancestors 'none'",
};

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? null;
  assertSafeBinding(host, token);
  const { service, logger } = options;
  const webRoot = options.webRoot ?? DEFAULT_WEB_ROOT;
  const shutdown = new AbortController();

  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: '/trpc/',
    // A produce batch of 10,000 records of 1 KB is about 14 MB as base64; more is refused (413).
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req }) => ({
      service,
      shutdown: shutdown.signal,
      forwarded: req.headers[FORWARDED_HEADER] !== undefined,
    }),
    onError({ error, path, type }) {
      if (error.code === 'INTERNAL_SERVER_ERROR')
        logger.error({ err: error, path, type }, 'request failed');
      else
        logger.debug({ code: error.code, path, type, message: error.message }, 'request refused');
    },
  });

  let guard: RequestGuard | null = null;
  const connections = new ConnectionTracker(shutdown.signal);
  const server = createServer((req, res) => {
    connections.requestStarted(req, res);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error, url: req.url }, 'unhandled request error');
      if (!res.headersSent)
        sendJson(res, 500, { error: { code: 'INTERNAL_SERVER_ERROR', message: 'internal error' } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://runtime.invalid');
    if (!guard) throw new Error('request before the server was listening');
    const verdict = guard.check(req, url);
    if (!verdict.ok) {
      logger.warn(
        {
          status: verdict.status,
          url: url.pathname,
          host: req.headers.host,
          origin: req.headers.origin,
        },
        verdict.message,
      );
      sendJson(res, verdict.status, {
        error: {
          code:
            verdict.status === 400
              ? 'BAD_REQUEST'
              : verdict.status === 401
                ? 'UNAUTHORIZED'
                : 'FORBIDDEN',
          message: verdict.message,
        },
      });
      return;
    }
    const path = url.pathname;
    const tooLarge = documentTooLarge(path, req.headers['content-length']);
    if (tooLarge !== null) {
      // Refused before the body is read and parsed: a big document must not stall the server.
      // Answered in tRPC's error shape (one per call of a batch), so clients show the message.
      req.resume();
      const error = (procedure: string) => ({
        error: {
          message: tooLarge,
          code: -32413,
          data: {
            code: 'PAYLOAD_TOO_LARGE',
            httpStatus: 413,
            path: procedure,
            runtimeCode: 'LIMIT_EXCEEDED',
          },
        },
      });
      const calls = decodeURIComponent(path.slice('/trpc/'.length)).split(',');
      sendJson(res, 413, url.searchParams.has('batch') ? calls.map(error) : error(calls[0]!));
      return;
    }
    if (path === '/trpc' || path.startsWith('/trpc/')) {
      if (url.searchParams.has('token')) {
        // The token is not an input: keep it out of tRPC's query parsing and its logs.
        url.searchParams.delete('token');
        req.url = `${url.pathname}${url.search}`;
      }
      trpc(req, res);
      return;
    }
    if (verdict.tokenFrom === 'query' && token) {
      // A page opened with ?token= keeps it in a same-site cookie, so the page's own asset,
      // API and SSE requests carry it without the token sitting in every URL.
      res.setHeader(
        'set-cookie',
        `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`,
      );
    }
    if (path === '/healthz') {
      sendJson(res, 200, {
        ok: true,
        version: VERSION,
        backend: service.backend.kind,
        app: service.appState(),
      });
      return;
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': OPENMETRICS_CONTENT_TYPE, 'cache-control': 'no-cache' });
      res.end(
        toOpenMetrics(
          service.metrics(),
          service.appState(),
          service.backend.backgroundFailures?.() ?? {},
        ),
      );
      return;
    }
    await serveStatic(webRoot, path, req, res);
  }

  server.on('connection', (socket: Socket) => connections.add(socket));
  await listen(server, options.port ?? 4300, host);
  const port = (server.address() as AddressInfo).port;
  guard = new RequestGuard({
    host,
    port,
    token,
    peerToken: options.peerToken ?? null,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  });
  const url = `http://${urlHost(host)}:${port}`;
  if (!(await webAppBuilt(webRoot))) logger.warn({ webRoot }, NOT_BUILT_MESSAGE);
  if (options.logListening !== false)
    logger.info({ url, host, port, token: token ? 'required' : 'none' }, 'listening');

  let closing: Promise<void> | null = null;
  return {
    url,
    host,
    port,
    close() {
      closing ??= closeServer(server, shutdown, connections, options.closeGraceMs ?? 5000);
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolvePromise();
    });
  });
}

async function closeServer(
  server: Server,
  shutdown: AbortController,
  connections: ConnectionTracker,
  graceMs: number,
): Promise<void> {
  const closed = new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
  shutdown.abort(); // ends the metrics subscriptions, so their SSE responses finish
  connections.closeIdle();
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * Tracks which sockets have a request in flight. Node's server.close() leaves keep-alive sockets
 * open when their last response ends after the call, and never counts a socket that has not sent
 * a request yet as idle; both would hold a graceful shutdown until the client gives up.
 */
class ConnectionTracker {
  private readonly inFlight = new Map<Socket, number>();

  constructor(private readonly shutdown: AbortSignal) {}

  add(socket: Socket): void {
    this.inFlight.set(socket, 0);
    socket.once('close', () => this.inFlight.delete(socket));
  }

  requestStarted(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    this.inFlight.set(socket, (this.inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const left = (this.inFlight.get(socket) ?? 1) - 1;
      this.inFlight.set(socket, left);
      if (left === 0 && this.shutdown.aborted) socket.destroySoon();
    });
  }

  closeIdle(): void {
    for (const [socket, count] of this.inFlight) if (count === 0) socket.destroy();
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-cache',
  });
  res.end(`${JSON.stringify(body)}\n`);
}
