// Request checks applied to every HTTP request, the SSE stream included:
//  - Host must name this server (the bound address, or a loopback name when bound to loopback),
//    with its port: a DNS-rebinding page reaches us under its own host name and is refused.
//  - Origin, when sent, must be this same origin: no cross-site calls from other pages.
//  - With a token configured (mandatory off loopback), every request must carry it.
import { FORWARDED_HEADER } from '../service/peer-client.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

export const TOKEN_COOKIE = 'streamwright_token';

export interface SecurityOptions {
  /** The address the server is bound to. */
  host: string;
  /** The port it actually listens on. */
  port: number;
  token: string | null;
  /**
   * Also accepted on forwarded state queries (`/trpc/state.peer` with the forwarded header) from
   * other instances of the application, when they do not share this runtime's token.
   */
  peerToken?: string | null;
  /**
   * Extra names accepted in the Host header (e.g. behind a reverse proxy): `name` with this
   * server's port, or `name:port` for exactly that port (a dev server's proxy).
   */
  allowedHosts?: readonly string[];
  /** Extra origins accepted in the Origin header (e.g. a Vite dev server), as `http://host:port`. */
  allowedOrigins?: readonly string[];
}

export type Verdict =
  | { ok: true; tokenFrom: 'none' | 'header' | 'query' | 'cookie' }
  | { ok: false; status: 400 | 401 | 403; message: string };

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

export function isLoopback(host: string): boolean {
  const h = stripBrackets(host.toLowerCase());
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function isWildcard(host: string): boolean {
  const h = stripBrackets(host);
  return h === '0.0.0.0' || h === '::' || h === '';
}

/** Off loopback a token must be at least this long: a short one is guessed over the network. */
export const MIN_NETWORK_TOKEN_LENGTH = 16;

/**
 * Bound off loopback, the API would be open to the network: a token is then mandatory, and at
 * least MIN_NETWORK_TOKEN_LENGTH characters long.
 */
export function assertSafeBinding(host: string, token: string | null): void {
  if (isLoopback(host)) return;
  if (!token) {
    throw new Error(
      `refusing to listen on ${host} without a token: anyone on the network could deploy and read data. ` +
        'Pass --token <secret> (or set STREAMWRIGHT_TOKEN), or bind to 127.0.0.1.',
    );
  }
  if (token.length < MIN_NETWORK_TOKEN_LENGTH) {
    throw new Error(
      `refusing to listen on ${host} with a token of ${token.length} characters: off loopback it must have at least ${MIN_NETWORK_TOKEN_LENGTH} (use a long random one, e.g. openssl rand -hex 32).`,
    );
  }
}

/** How many Host headers a request carries (Node keeps only the first in `req.headers`). */
function hostHeaderCount(req: IncomingMessage): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

export class RequestGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;
  private readonly tokenDigest: Buffer | null;
  private readonly peerTokenDigest: Buffer | null;

  constructor(private readonly options: SecurityOptions) {
    this.hosts = acceptedHostNames(options);
    this.origins = new Set(
      (options.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/$/, '')),
    );
    this.tokenDigest = options.token ? digest(options.token) : null;
    this.peerTokenDigest = options.peerToken ? digest(options.peerToken) : null;
  }

  check(req: IncomingMessage, url: URL): Verdict {
    // Two Host headers (a good one first, then another) would be judged by the first alone, while
    // a proxy in front may route by the last: refused (RFC 9112 §3.2: answer 400).
    if (hostHeaderCount(req) > 1) {
      return {
        ok: false,
        status: 400,
        message: 'Bad Request: more than one Host header.',
      };
    }
    const hostHeader = req.headers.host;
    if (!hostHeader || !this.hostAllowed(hostHeader)) {
      return {
        ok: false,
        status: 403,
        message: `Forbidden: the Host header ${JSON.stringify(hostHeader ?? '')} does not name this server (DNS rebinding protection). Use http://${urlHost(this.options.host)}:${this.options.port}.`,
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin, hostHeader)) {
      return {
        ok: false,
        status: 403,
        message: `Forbidden: cross-origin request from ${origin} (only same-origin calls are accepted).`,
      };
    }
    if (!this.tokenDigest) return { ok: true, tokenFrom: 'none' };
    const presented = presentedToken(req, url);
    if (!presented) {
      return {
        ok: false,
        status: 401,
        message:
          'Unauthorized: this runtime requires a token (Authorization: Bearer <token>, or ?token=<token>).',
      };
    }
    const peerCall =
      this.peerTokenDigest !== null &&
      presented.from === 'header' &&
      url.pathname === '/trpc/state.peer' &&
      req.headers[FORWARDED_HEADER] !== undefined &&
      timingSafeEqual(digest(presented.token), this.peerTokenDigest);
    if (!peerCall && !timingSafeEqual(digest(presented.token), this.tokenDigest)) {
      return { ok: false, status: 401, message: 'Unauthorized: the token is wrong.' };
    }
    return { ok: true, tokenFrom: presented.from };
  }

  private hostAllowed(header: string): boolean {
    const parsed = parseHostHeader(header);
    if (!parsed) return false;
    // An allowed host given with a port ("localhost:5173", a dev proxy) matches only that port.
    if (this.hosts.has(`${parsed.name}:${parsed.port}`)) return true;
    return parsed.port === this.options.port && this.hosts.has(parsed.name);
  }

  private originAllowed(origin: string, hostHeader: string): boolean {
    const normalized = origin.toLowerCase().replace(/\/$/, '');
    if (this.origins.has(normalized)) return true;
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return false; // includes the opaque origin "null"
    }
    if (parsed.protocol !== 'http:') return false;
    const own = parseHostHeader(hostHeader);
    const theirs = parseHostHeader(parsed.host);
    return own !== null && theirs !== null && own.name === theirs.name && own.port === theirs.port;
  }
}

/** Parses `name[:port]` or `[v6]:port`; the port defaults to 80 as in HTTP. */
export function parseHostHeader(header: string): { name: string; port: number } | null {
  const value = header.trim().toLowerCase();
  let name: string;
  let portText: string | undefined;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    name = value.slice(1, end);
    const rest = value.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) return null;
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const colon = value.lastIndexOf(':');
    if (colon >= 0 && value.indexOf(':') !== colon) return null; // bare IPv6 is not a valid Host
    name = colon < 0 ? value : value.slice(0, colon);
    portText = colon < 0 ? undefined : value.slice(colon + 1);
  }
  if (name === '') return null;
  if (portText === undefined) return { name, port: 80 };
  if (!/^\d{1,5}$/.test(portText)) return null;
  return { name, port: Number(portText) };
}

function acceptedHostNames(options: SecurityOptions): Set<string> {
  const names = new Set<string>();
  for (const allowed of options.allowedHosts ?? []) {
    const parsed = parseHostHeader(allowed);
    if (!parsed) continue;
    names.add(/:\d+$/.test(allowed.trim()) ? `${parsed.name}:${parsed.port}` : parsed.name);
  }
  const bound = stripBrackets(options.host.toLowerCase());
  if (isWildcard(bound)) {
    // Reachable under any local address: accept those and this machine's name; the mandatory
    // token stops a rebinding page, which can neither read it nor send our cookie.
    for (const name of LOOPBACK_NAMES) names.add(name);
    for (const list of Object.values(networkInterfaces())) {
      for (const address of list ?? []) names.add(address.address.toLowerCase());
    }
    names.add(hostname().toLowerCase());
  } else {
    names.add(bound);
    if (isLoopback(bound)) for (const name of LOOPBACK_NAMES) names.add(name);
  }
  return names;
}

function presentedToken(
  req: IncomingMessage,
  url: URL,
): { token: string; from: 'header' | 'query' | 'cookie' } | null {
  const auth = req.headers.authorization;
  if (auth) {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match?.[1]) return { token: match[1], from: 'header' };
  }
  // EventSource cannot send headers: the SSE stream passes the token in the query instead.
  const query = url.searchParams.get('token');
  if (query) return { token: query, from: 'query' };
  const cookie = readCookie(req.headers.cookie, TOKEN_COOKIE);
  if (cookie) return { token: cookie, from: 'cookie' };
  return null;
}

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Equal-length digests let timingSafeEqual compare tokens of any length in constant time. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export function urlHost(host: string): string {
  const bare = stripBrackets(host);
  return bare.includes(':') ? `[${bare}]` : bare;
}
