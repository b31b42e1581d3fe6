// Kafka frames: a 4-byte big-endian size, the request or response header, then the body.
// Client side: encodeRequestFrame / decodeResponseFrame; server side (the embedded log's Kafka
// listener): decodeRequestFrame / encodeResponseFrame.
import type { AnyApi, RequestInputOf, RequestOf, ResponseInputOf, ResponseOf } from './api.js';
import { apisByKey } from './registry.js';
import { messages } from './generated/apis.js';
import {
  FieldError,
  MalformedMessageError,
  UnsupportedRequestError,
  withContext,
} from './runtime/errors.js';
import { Reader } from './runtime/reader.js';
import { Writer } from './runtime/writer.js';

export interface RequestHeaderFields {
  correlationId: number;
  /** null is allowed by the protocol; Java clients always send one. */
  clientId: string | null;
}

/** The whole frame of a request, size prefix included, ready for the socket. */
export function encodeRequestFrame<A extends AnyApi>(
  api: A,
  version: number,
  header: RequestHeaderFields,
  body: RequestInputOf<A>,
): Buffer {
  const w = new Writer(512);
  w.rawInt32(0);
  messages.RequestHeader.encodeInto(
    w,
    {
      requestApiKey: api.apiKey,
      requestApiVersion: version,
      correlationId: header.correlationId,
      clientId: header.clientId,
    },
    api.requestHeaderVersion(version),
  );
  api.encodeRequestInto(w, body, version);
  return finishFrame(w);
}

/** The whole frame of a response, size prefix included. */
export function encodeResponseFrame<A extends AnyApi>(
  api: A,
  version: number,
  correlationId: number,
  body: ResponseInputOf<A>,
): Buffer {
  const w = new Writer(512);
  w.rawInt32(0);
  messages.ResponseHeader.encodeInto(w, { correlationId }, api.responseHeaderVersion(version));
  api.encodeResponseInto(w, body, version);
  return finishFrame(w);
}

function finishFrame(w: Writer): Buffer {
  const frame = w.finish();
  frame.writeInt32BE(frame.length - 4, 0);
  return frame;
}

/**
 * The size a frame announces, once `bytes` holds its first 4 bytes (else null): a reader of a
 * socket waits for 4 + size bytes, then hands exactly that slice to decode…Frame.
 */
export function frameSize(bytes: Uint8Array, offset = 0): number | null {
  if (bytes.length - offset < 4) return null;
  const size =
    ((bytes[offset]! << 24) |
      (bytes[offset + 1]! << 16) |
      (bytes[offset + 2]! << 8) |
      bytes[offset + 3]!) >>>
    0;
  return size;
}

/** The correlation id of a response frame (both header versions start with it). */
export function responseCorrelationId(frame: Uint8Array): number {
  if (frame.length < 8)
    throw new MalformedMessageError(`a response frame of ${frame.length} bytes has no header`);
  return (frame[4]! << 24) | (frame[5]! << 16) | (frame[6]! << 8) | frame[7]!;
}

function frameReader(frame: Uint8Array, what: string): Reader {
  const size = frameSize(frame);
  if (size === null)
    throw new MalformedMessageError(
      `${what}: a frame needs a 4-byte size, got ${frame.length} byte(s)`,
    );
  if (size !== frame.length - 4) {
    throw new MalformedMessageError(
      `${what}: the frame announces ${size} bytes but holds ${frame.length - 4}`,
    );
  }
  return new Reader(frame, 4);
}

function expectEnd(r: Reader, what: string, version: number): void {
  if (r.pos !== r.end) {
    throw new MalformedMessageError(
      `Cannot decode ${what} v${version}: ${r.end - r.pos} trailing byte(s) after the message`,
    );
  }
}

/** Decodes a whole response frame (size prefix included) of `api` at `version`. */
export function decodeResponseFrame<A extends AnyApi>(
  api: A,
  version: number,
  frame: Uint8Array,
): { correlationId: number; body: ResponseOf<A> } {
  const what = `${api.name}Response`;
  const r = frameReader(frame, what);
  const header = messages.ResponseHeader.decodeFrom(r, api.responseHeaderVersion(version));
  const body = api.decodeResponseFrom(r, version) as ResponseOf<A>;
  expectEnd(r, what, version);
  return { correlationId: header.correlationId, body };
}

export interface DecodedRequest {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  clientId: string | null;
  api: AnyApi;
  body: RequestOf<AnyApi>;
}

/**
 * Decodes a whole request frame (size prefix included), server side. An API key or version
 * this package does not know throws UnsupportedRequestError carrying the header, so the
 * server can answer UNSUPPORTED_VERSION with the right correlation id.
 */
export function decodeRequestFrame(frame: Uint8Array): DecodedRequest {
  const r = frameReader(frame, 'request frame');
  // Header v1 and v2 begin alike: key, version, correlation id, client id (a classic string even
  // in v2), so this much is readable before the API is known.
  let apiKey: number;
  let apiVersion: number;
  let correlationId: number;
  let clientId: string | null;
  try {
    apiKey = r.int16('RequestHeader.requestApiKey');
    apiVersion = r.int16('RequestHeader.requestApiVersion');
    correlationId = r.int32('RequestHeader.correlationId');
    const n = r.length(false, false, 'RequestHeader.clientId');
    clientId = n < 0 ? null : r.string(n, 'RequestHeader.clientId');
  } catch (e) {
    throw e instanceof FieldError ? withContext(e, 'RequestHeader', 1, 'decode') : e;
  }
  const api = apisByKey.get(apiKey);
  if (api === undefined || !api.supportsVersion(apiVersion)) {
    const known =
      api === undefined
        ? 'unknown API key'
        : `${api.name} supports versions ${api.minVersion}-${api.maxVersion}`;
    throw new UnsupportedRequestError(
      `Unsupported request: API key ${apiKey} v${apiVersion} (${known})`,
      apiKey,
      apiVersion,
      correlationId,
      clientId,
    );
  }
  if (api.requestHeaderVersion(apiVersion) >= 2) {
    // Re-read the header with its tagged fields.
    r.pos = 4;
    messages.RequestHeader.decodeFrom(r, 2);
  }
  const body = api.decodeRequestFrom(r, apiVersion);
  expectEnd(r, `${api.name}Request`, apiVersion);
  return { apiKey, apiVersion, correlationId, clientId, api, body };
}
