// One client connection: Kafka's framing (a 4-byte size, then the request), requests handled one
// at a time in arrival order and answered in that order (as Kafka's broker mutes a channel while
// its request is in flight, which is what idempotent producers' pipelining relies on). A request
// that does not decode, or breaks the protocol, closes the connection with a logged reason; it
// never reaches the log.
import type { Socket } from 'node:net';
import {
  apis,
  decodeRequestFrame,
  encodeResponseFrame,
  frameSize,
  UnsupportedRequestError,
  type DecodedRequest,
} from '@streamwright/kafka-protocol';
import type { ListenerContext, RequestScope } from './context.js';
import { Errors } from './errors.js';
import { apiVersionsBody, handlerFor } from './handlers/index.js';
import { SaslFailure, type SaslAuthenticator, type SaslSession } from './sasl.js';

/** Kafka's socket.request.max.bytes default: a bigger frame is refused before it is buffered. */
export const MAX_REQUEST_BYTES = 100 * 1024 * 1024;

/** Close reasons that come from the peer's bytes, not from us. */
class ProtocolViolation extends Error {}

export interface ConnectionInfo {
  id: number;
  remote: string;
  clientId: string | null;
  connectedAt: number;
  requests: number;
  user: string | null;
}

export class Connection {
  readonly info: ConnectionInfo;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private readonly queue: Buffer[] = [];
  private running = false;
  private closed = false;
  private readonly aborter = new AbortController();
  private authenticated: boolean;
  private saslSession: SaslSession | null = null;
  /** After a SaslHandshake v0: the next frames are bare SASL tokens, not requests (KIP-43). */
  private rawSasl = false;

  constructor(
    private readonly socket: Socket,
    id: number,
    private readonly ctx: ListenerContext,
    private readonly sasl: SaslAuthenticator | null,
    private readonly onClose: (c: Connection) => void,
  ) {
    this.authenticated = sasl === null;
    this.info = {
      id,
      remote: `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`,
      clientId: null,
      connectedAt: Date.now(),
      requests: 0,
      user: null,
    };
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  /** Ends the connection (listener shutdown): pending long polls stop at once. */
  close(reason?: string): void {
    if (this.closed) return;
    this.closed = true;
    if (reason !== undefined)
      this.ctx.logger.warn(
        { remote: this.info.remote, clientId: this.info.clientId, reason },
        'kafka listener: closing the connection',
      );
    this.aborter.abort();
    this.socket.destroy();
    this.onClose(this);
  }

  private onData(data: Buffer): void {
    if (this.closed) return;
    this.chunks.push(data);
    this.buffered += data.length;
    for (;;) {
      if (this.buffered < 4) break;
      if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
      const head = this.chunks[0]!;
      const size = frameSize(head)!;
      const min = this.rawSasl ? 0 : 8;
      if (size > MAX_REQUEST_BYTES || size < min) {
        this.close(
          `a request of ${size} bytes (the limit is ${MAX_REQUEST_BYTES}, the minimum ${min})`,
        );
        return;
      }
      if (head.length < 4 + size) break;
      // A copy: records in a decoded request are views of the frame, and the log keeps them.
      this.queue.push(Buffer.from(head.subarray(0, 4 + size)));
      const rest = head.subarray(4 + size);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (!this.closed && this.queue.length > 0) {
        const frame = this.queue.shift()!;
        const out = await this.handle(frame);
        if (out !== null && !this.closed) this.socket.write(out);
      }
    } catch (err) {
      if (err instanceof ProtocolViolation) this.close(err.message);
      else {
        this.ctx.logger.warn(
          { remote: this.info.remote, clientId: this.info.clientId, err },
          'kafka listener: a request failed unexpectedly',
        );
        this.close(`internal error: ${(err as Error).message}`);
      }
    } finally {
      this.running = false;
    }
  }

  private scope(clientId: string | null): RequestScope {
    return {
      clientId,
      clientHost: this.socket.remoteAddress ?? '',
      signal: this.aborter.signal,
    };
  }

  /** The response frame for one request frame, or null when none is due (acks=0). */
  private async handle(frame: Buffer): Promise<Buffer | null> {
    if (this.rawSasl) return this.rawSaslToken(frame.subarray(4));
    let req: DecodedRequest;
    try {
      req = decodeRequestFrame(frame);
    } catch (err) {
      if (err instanceof UnsupportedRequestError && err.apiKey === apis.ApiVersions.apiKey) {
        // KIP-511: a client newer than us sends ApiVersions at its own latest version; answer
        // v0 with UNSUPPORTED_VERSION and our versions, and it retries with one we know.
        return encodeResponseFrame(apis.ApiVersions, 0, err.correlationId, {
          ...apiVersionsBody(this.ctx),
          errorCode: Errors.UNSUPPORTED_VERSION,
        });
      }
      throw new ProtocolViolation(`malformed request: ${(err as Error).message}`);
    }
    this.info.requests++;
    this.info.clientId = req.clientId;
    const handler = handlerFor(req.apiKey);
    if (!handler || req.apiVersion < handler.min || req.apiVersion > handler.max) {
      if (req.apiKey === apis.ApiVersions.apiKey)
        return encodeResponseFrame(apis.ApiVersions, 0, req.correlationId, {
          ...apiVersionsBody(this.ctx),
          errorCode: Errors.UNSUPPORTED_VERSION,
        });
      throw new ProtocolViolation(
        `${req.api.name} v${req.apiVersion} is not served here (see ApiVersions)`,
      );
    }
    if (!this.authenticated) {
      const body = this.authenticate(req);
      return encodeResponseFrame(req.api, req.apiVersion, req.correlationId, body);
    }
    const body = await handler.handle(this.ctx, req, this.scope(req.clientId));
    if (body === null) return null;
    return encodeResponseFrame(req.api, req.apiVersion, req.correlationId, body);
  }

  /** A bare SASL token (after a v0 handshake): the reply as a bare frame; a failure closes. */
  private rawSaslToken(token: Buffer): Buffer {
    try {
      const r = this.saslSession!.step(token);
      if (r.user !== null) {
        this.authenticated = true;
        this.info.user = r.user;
        this.rawSasl = false;
      }
      const out = Buffer.alloc(4 + r.reply.length);
      out.writeInt32BE(r.reply.length, 0);
      out.set(r.reply, 4);
      return out;
    } catch (err) {
      if (!(err instanceof SaslFailure)) throw err;
      throw new ProtocolViolation(`SASL authentication failed: ${err.reason}`);
    }
  }

  /** Before authentication only ApiVersions, SaslHandshake and SaslAuthenticate are allowed. */
  private authenticate(req: DecodedRequest): object {
    if (req.apiKey === apis.ApiVersions.apiKey) return apiVersionsBody(this.ctx);
    if (req.apiKey === apis.SaslHandshake.apiKey) {
      const { mechanism } = req.body as { mechanism: string };
      const offered = [...this.sasl!.mechanisms];
      if (!this.sasl!.offers(mechanism))
        return { errorCode: 33 /* UNSUPPORTED_SASL_MECHANISM */, mechanisms: offered };
      this.saslSession = this.sasl!.session(mechanism);
      // v0: the tokens follow as bare size-prefixed frames instead of SaslAuthenticate requests.
      this.rawSasl = req.apiVersion === 0;
      return { errorCode: 0, mechanisms: offered };
    }
    if (req.apiKey === apis.SaslAuthenticate.apiKey && this.saslSession) {
      try {
        const r = this.saslSession.step((req.body as { authBytes: Uint8Array }).authBytes);
        if (r.user !== null) {
          this.authenticated = true;
          this.info.user = r.user;
        }
        return { errorCode: 0, errorMessage: null, authBytes: r.reply };
      } catch (err) {
        if (!(err instanceof SaslFailure)) throw err;
        // Answer first so the client can report why, then close (as Kafka does).
        setImmediate(() => this.close(`SASL authentication failed: ${err.reason}`));
        return { errorCode: 58, errorMessage: err.message, authBytes: new Uint8Array(0) };
      }
    }
    throw new ProtocolViolation(
      `${req.api.name} before SASL authentication (the listener requires SASL)`,
    );
  }
}
