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
import { checkPlain, type SaslCredentials } from './sasl.js';

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
  private handshakeDone = false;

  constructor(
    private readonly socket: Socket,
    id: number,
    private readonly ctx: ListenerContext,
    private readonly sasl: SaslCredentials | null,
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
      if (size > MAX_REQUEST_BYTES || size < 8) {
        this.close(`a request of ${size} bytes (the limit is ${MAX_REQUEST_BYTES}, the minimum 8)`);
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

  /** Before authentication only ApiVersions, SaslHandshake and SaslAuthenticate are allowed. */
  private authenticate(req: DecodedRequest): object {
    if (req.apiKey === apis.ApiVersions.apiKey) return apiVersionsBody(this.ctx);
    if (req.apiKey === apis.SaslHandshake.apiKey) {
      const { mechanism } = req.body as { mechanism: string };
      if (req.apiVersion < 1)
        throw new ProtocolViolation('SaslHandshake v0 (unframed SASL tokens) is not supported');
      if (mechanism !== 'PLAIN') {
        return { errorCode: 33 /* UNSUPPORTED_SASL_MECHANISM */, mechanisms: ['PLAIN'] };
      }
      this.handshakeDone = true;
      return { errorCode: 0, mechanisms: ['PLAIN'] };
    }
    if (req.apiKey === apis.SaslAuthenticate.apiKey && this.handshakeDone) {
      const result = checkPlain((req.body as { authBytes: Uint8Array }).authBytes, this.sasl!);
      if (!result.ok) {
        // Answer first so the client can report why, then close (as Kafka does).
        setImmediate(() => this.close(`SASL authentication failed: ${result.reason}`));
        return { errorCode: 58, errorMessage: result.reason, authBytes: new Uint8Array(0) };
      }
      this.authenticated = true;
      this.info.user = result.user;
      return { errorCode: 0, errorMessage: null, authBytes: new Uint8Array(0) };
    }
    throw new ProtocolViolation(
      `${req.api.name} before SASL authentication (the listener requires SASL/PLAIN)`,
    );
  }
}
