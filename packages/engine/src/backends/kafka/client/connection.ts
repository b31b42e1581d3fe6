// One connection to one broker: a TCP (or TLS) socket carrying size-prefixed request and
// response frames. Requests are pipelined — written as they come, each with its own correlation
// id, answered in order by the broker — and each has a timeout after which the connection is
// closed (a broker answers a connection's requests in order, so a late answer would hold up all
// those behind it; Java's NetworkClient does the same). On open, ApiVersions tells which versions
// the broker speaks (the highest both sides know is used per API, versions.ts), then SASL
// (SaslHandshake + SaslAuthenticate) logs in when configured.
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions as TlsConnectionOptions } from 'node:tls';
import {
  KafkaConnectionError,
  KafkaRequestTimeoutError,
  KafkaSaslAuthenticationError,
  KafkaUnsupportedVersionError,
} from './errors.js';
import { FrameReader } from './frame-reader.js';
import {
  apiKeyOf,
  decodeResponse,
  encodeRequest,
  errorName,
  type RequestOf,
  type ResponseOf,
} from './protocol.js';
import { saslExchange, SaslProtocolError, type SaslCredentials } from './sasl-mechanisms.js';
import { socketError } from './socket-errors.js';
import { CLIENT_VERSIONS, negotiate, type ClientApi } from './versions.js';

export interface ConnectionConfig {
  host: string;
  port: number;
  /** client.id, sent in every request header. */
  clientId: string;
  /** TLS (security.protocol SSL / SASL_SSL): Node's TLS options. Absent: plain TCP. */
  tls?: TlsConnectionOptions;
  sasl?: SaslCredentials;
  /** socket.connection.setup.timeout.ms (Kafka's default 10 s). */
  connectTimeoutMs?: number;
  /** request.timeout.ms (Kafka's default 30 s), added to a fetch's own wait. */
  requestTimeoutMs?: number;
}

export interface SendOptions {
  /** This request's timeout instead of request.timeout.ms (a long-polled fetch adds its wait). */
  timeoutMs?: number;
  /** A version to use instead of the negotiated one. */
  version?: number;
}

interface Pending {
  api: ClientApi;
  version: number;
  resolve: (body: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const SOFTWARE_NAME = 'streamwright';
const SOFTWARE_VERSION = '0.1.0';

export class BrokerConnection {
  /** `host:port`, for messages and for the cluster's bookkeeping. */
  readonly broker: string;
  readonly #socket: Socket;
  readonly #reader = new FrameReader();
  readonly #pending = new Map<number, Pending>();
  readonly #closeListeners: ((why: Error) => void)[] = [];
  readonly #requestTimeoutMs: number;
  /** The broker's versions per API key (from ApiVersions). */
  #brokerVersions = new Map<number, { minVersion: number; maxVersion: number }>();
  #versionCache = new Map<ClientApi, number>();
  /** The cluster's finalized features (ApiVersions v3+), e.g. transaction.version (KIP-890). */
  #features = new Map<string, number>();
  #nextCorrelationId = 0;
  #closedWith: Error | null = null;

  private constructor(
    readonly config: ConnectionConfig,
    socket: Socket,
  ) {
    this.broker = `${config.host}:${config.port}`;
    this.#socket = socket;
    this.#requestTimeoutMs = config.requestTimeoutMs ?? 30_000;
    socket.on('data', (chunk: Buffer) => this.#onData(chunk));
    socket.on('error', (error) => this.#fail(socketError(this.broker, error)));
    socket.on('close', () =>
      this.#fail(
        new KafkaConnectionError(this.broker, `the connection to ${this.broker} was closed`),
      ),
    );
  }

  /** Connects, learns the broker's API versions and logs in (SASL) if configured. */
  static async open(config: ConnectionConfig): Promise<BrokerConnection> {
    const socket = await openSocket(config);
    const connection = new BrokerConnection(config, socket);
    try {
      await connection.#negotiateVersions();
      if (config.sasl) await connection.#authenticate(config.sasl);
    } catch (error) {
      connection.close(error as Error);
      throw error;
    }
    return connection;
  }

  /** The version of `api` this connection speaks (throws when none is shared). */
  version(api: ClientApi): number {
    let version = this.#versionCache.get(api);
    if (version !== undefined) return version;
    version = negotiate(CLIENT_VERSIONS[api], this.#brokerVersions.get(apiKeyOf(api)));
    if (version === undefined) {
      const b = this.#brokerVersions.get(apiKeyOf(api));
      throw new KafkaUnsupportedVersionError(
        `the broker at ${this.broker} speaks ${api} ${b ? `v${b.minVersion}–${b.maxVersion}` : 'in no version'}, this client v${CLIENT_VERSIONS[api][0]}–${CLIENT_VERSIONS[api][1]}`,
      );
    }
    this.#versionCache.set(api, version);
    return version;
  }

  /** A finalized feature's level as the broker advertised it (0 when it advertised none). */
  featureLevel(name: string): number {
    return this.#features.get(name) ?? 0;
  }

  /** True once the socket closed (or was closed): a new connection is needed. */
  get closed(): boolean {
    return this.#closedWith !== null;
  }

  /** Requests written and not answered yet. */
  get inFlight(): number {
    return this.#pending.size;
  }

  /** Calls `listener` once when the connection closes, with why. */
  onClose(listener: (why: Error) => void): void {
    if (this.#closedWith) listener(this.#closedWith);
    else this.#closeListeners.push(listener);
  }

  /** Sends a request and resolves with the broker's response body. */
  send<A extends ClientApi>(
    api: A,
    body: RequestOf<A>,
    options?: SendOptions,
  ): Promise<ResponseOf<A>> {
    if (this.#closedWith) return Promise.reject(this.#closedWith);
    let version: number;
    let frame: Uint8Array;
    const correlationId = this.#nextCorrelationId;
    this.#nextCorrelationId = (this.#nextCorrelationId + 1) | 0;
    try {
      version = options?.version ?? this.version(api);
      frame = encodeRequest(api, version, correlationId, this.config.clientId, body);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise<ResponseOf<A>>((resolve, reject) => {
      const timeoutMs = options?.timeoutMs ?? this.#requestTimeoutMs;
      const timer = setTimeout(
        () =>
          this.close(
            new KafkaRequestTimeoutError(
              this.broker,
              `${api} to ${this.broker} got no answer within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      this.#pending.set(correlationId, {
        api,
        version,
        resolve: resolve as (body: unknown) => void,
        reject,
        timer,
      });
      this.#socket.write(frame);
    });
  }

  /** Closes the socket; requests still waiting fail with `why` (a closed connection by default). */
  close(why?: Error): void {
    this.#fail(
      why ?? new KafkaConnectionError(this.broker, `the connection to ${this.broker} was closed`),
    );
  }

  #onData(chunk: Buffer): void {
    let frames: Buffer[];
    try {
      frames = this.#reader.push(chunk);
    } catch (error) {
      return this.#fail(new KafkaConnectionError(this.broker, (error as Error).message));
    }
    for (const frame of frames) {
      const correlationId = frame.readInt32BE(4); // after the size prefix
      const pending = this.#pending.get(correlationId);
      if (pending === undefined)
        return this.#fail(
          new KafkaConnectionError(
            this.broker,
            `${this.broker} answered correlation id ${correlationId}, which no request has`,
          ),
        );
      this.#pending.delete(correlationId);
      clearTimeout(pending.timer);
      try {
        pending.resolve(decodeResponse(pending.api, pending.version, frame));
      } catch (error) {
        pending.reject(
          new Error(
            `decoding ${pending.api} v${pending.version} from ${this.broker} failed: ${(error as Error).message}`,
            { cause: error },
          ),
        );
      }
    }
  }

  #fail(why: Error): void {
    if (this.#closedWith) {
      // A TLS alert arrives as an error, then the close: keep the first, more telling, reason.
      return;
    }
    this.#closedWith = why;
    this.#socket.destroy();
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(why);
    }
    this.#pending.clear();
    for (const l of this.#closeListeners.splice(0)) l(why);
  }

  async #negotiateVersions(): Promise<void> {
    const answer = await this.send(
      'ApiVersions',
      { clientSoftwareName: SOFTWARE_NAME, clientSoftwareVersion: SOFTWARE_VERSION },
      { version: CLIENT_VERSIONS.ApiVersions[1] },
    );
    if (answer.errorCode !== 0)
      throw new KafkaUnsupportedVersionError(
        `the broker at ${this.broker} refused ApiVersions v${CLIENT_VERSIONS.ApiVersions[1]} (${errorName(answer.errorCode)}): a broker older than Kafka 2.4?`,
      );
    this.#brokerVersions = new Map(
      answer.apiKeys.map((k) => [k.apiKey, { minVersion: k.minVersion, maxVersion: k.maxVersion }]),
    );
    this.#features = new Map(answer.finalizedFeatures.map((f) => [f.name, f.maxVersionLevel]));
  }

  async #authenticate(credentials: SaslCredentials): Promise<void> {
    const exchange = saslExchange(credentials);
    const refused = (why: string) =>
      new KafkaSaslAuthenticationError(
        this.broker,
        `SASL ${exchange.name} authentication as "${credentials.username}" failed: ${why}`,
      );
    const handshake = await this.send('SaslHandshake', { mechanism: exchange.name });
    if (handshake.errorCode !== 0)
      throw refused(
        `${errorName(handshake.errorCode)} (the listener enables ${handshake.mechanisms.join(', ') || 'no mechanism'})`,
      );
    try {
      for (let out = exchange.step(null); out !== null;) {
        const answer = await this.send('SaslAuthenticate', { authBytes: out });
        if (answer.errorCode !== 0)
          throw refused(answer.errorMessage ?? errorName(answer.errorCode));
        out = exchange.step(Buffer.from(answer.authBytes));
      }
    } catch (error) {
      // A lost connection stays retriable: the broker answers a refused login before closing.
      if (error instanceof SaslProtocolError) throw refused(error.message);
      throw error;
    }
  }
}

/** A connected socket (TLS handshake done), or the reason there is none. */
function openSocket(config: ConnectionConfig): Promise<Socket> {
  const broker = `${config.host}:${config.port}`;
  const timeoutMs = config.connectTimeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const socket = config.tls
      ? tlsConnect({
          host: config.host,
          port: config.port,
          // SNI takes host names only; an IP is checked against the certificate's IP SANs.
          ...(isIP(config.host) === 0 ? { servername: config.host } : {}),
          ...config.tls,
        })
      : netConnect({ host: config.host, port: config.port });
    socket.setNoDelay(true);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new KafkaConnectionError(
          broker,
          `connecting to ${broker} timed out after ${timeoutMs} ms`,
          {
            code: 'ETIMEDOUT',
          },
        ),
      );
    }, timeoutMs);
    const failed = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(socketError(broker, error));
    };
    socket.once('error', failed);
    socket.once(config.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.off('error', failed);
      resolve(socket);
    });
  });
}
