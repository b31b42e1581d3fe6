// The run-time shape of the generated `apis` and `messages` tables: version metadata, header
// versions, and whole-buffer encode/decode built on the generated streaming codecs.
import { MalformedMessageError } from './runtime/errors.js';
import { Reader } from './runtime/reader.js';
import { Writer } from './runtime/writer.js';

/** One Kafka API: its key, versions and typed codecs for requests and responses. */
export interface Api<Req, ReqIn, Res, ResIn> {
  readonly apiKey: number;
  /** The definition's name without Request/Response, e.g. 'Produce'. */
  readonly name: string;
  /** Lowest and highest version Kafka 4.1.1 defines; maxVersion < minVersion means none (removed APIs). */
  readonly minVersion: number;
  readonly maxVersion: number;
  /** The definition's flexibleVersions ('9+', or 'none'). */
  readonly flexibleVersions: string;
  /** The first flexible version (compact encodings, tagged fields, header v2/v1), or null. */
  readonly firstFlexibleVersion: number | null;
  /** Kafka marks the highest version as not yet stable (brokers do not advertise it by default). */
  readonly latestVersionUnstable: boolean;
  supportsVersion(version: number): boolean;
  isFlexible(version: number): boolean;
  /** Request header version: 2 for flexible versions, else 1. */
  requestHeaderVersion(version: number): number;
  /** Response header version: 1 for flexible versions, else 0; ApiVersions always 0 (KIP-511). */
  responseHeaderVersion(version: number): number;
  encodeRequest(body: ReqIn, version: number): Buffer;
  decodeRequest(bytes: Uint8Array, version: number): Req;
  encodeResponse(body: ResIn, version: number): Buffer;
  decodeResponse(bytes: Uint8Array, version: number): Res;
  /** Streaming forms, for frames: write into / read from a shared Writer or Reader. */
  readonly encodeRequestInto: (w: Writer, body: ReqIn, version: number) => void;
  readonly decodeRequestFrom: (r: Reader, version: number) => Req;
  readonly encodeResponseInto: (w: Writer, body: ResIn, version: number) => void;
  readonly decodeResponseFrom: (r: Reader, version: number) => Res;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- `any` in the other slots: the codec
   functions make Api invariant in each type parameter, so `unknown` would never match. */
export type AnyApi = Api<any, any, any, any>;
export type RequestOf<A> = A extends Api<infer R, any, any, any> ? R : never;
export type RequestInputOf<A> = A extends Api<any, infer R, any, any> ? R : never;
export type ResponseOf<A> = A extends Api<any, any, infer R, any> ? R : never;
export type ResponseInputOf<A> = A extends Api<any, any, any, infer R> ? R : never;
/* eslint-enable @typescript-eslint/no-explicit-any */

interface ApiSpec<Req, ReqIn, Res, ResIn> {
  apiKey: number;
  name: string;
  minVersion: number;
  maxVersion: number;
  flexibleVersions: string;
  firstFlexibleVersion: number | null;
  latestVersionUnstable: boolean;
  encodeRequestInto: (w: Writer, body: ReqIn, version: number) => void;
  decodeRequestFrom: (r: Reader, version: number) => Req;
  encodeResponseInto: (w: Writer, body: ResIn, version: number) => void;
  decodeResponseFrom: (r: Reader, version: number) => Res;
}

const API_VERSIONS_KEY = 18;

export function defineApi<Req, ReqIn, Res, ResIn>(
  spec: ApiSpec<Req, ReqIn, Res, ResIn>,
): Api<Req, ReqIn, Res, ResIn> {
  const flexible = (v: number) =>
    spec.firstFlexibleVersion !== null && v >= spec.firstFlexibleVersion;
  const what = (kind: string) => `${spec.name}${kind}`;
  return {
    ...spec,
    supportsVersion: (v) => Number.isInteger(v) && v >= spec.minVersion && v <= spec.maxVersion,
    isFlexible: flexible,
    requestHeaderVersion: (v) => (flexible(v) ? 2 : 1),
    responseHeaderVersion: (v) => (spec.apiKey === API_VERSIONS_KEY ? 0 : flexible(v) ? 1 : 0),
    encodeRequest: (body, v) => encodeWhole(spec.encodeRequestInto, body, v),
    decodeRequest: (bytes, v) => decodeWhole(spec.decodeRequestFrom, bytes, v, what('Request')),
    encodeResponse: (body, v) => encodeWhole(spec.encodeResponseInto, body, v),
    decodeResponse: (bytes, v) => decodeWhole(spec.decodeResponseFrom, bytes, v, what('Response')),
  };
}

/** A message that is not a request or response (headers, consumer protocol, Raft records). */
export interface Message<T, TIn> {
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  encode(body: TIn, version: number): Buffer;
  decode(bytes: Uint8Array, version: number): T;
  readonly encodeInto: (w: Writer, body: TIn, version: number) => void;
  readonly decodeFrom: (r: Reader, version: number) => T;
}

export function defineMessage<T, TIn>(spec: {
  name: string;
  minVersion: number;
  maxVersion: number;
  encodeInto: (w: Writer, body: TIn, version: number) => void;
  decodeFrom: (r: Reader, version: number) => T;
}): Message<T, TIn> {
  return {
    ...spec,
    encode: (body, v) => encodeWhole(spec.encodeInto, body, v),
    decode: (bytes, v) => decodeWhole(spec.decodeFrom, bytes, v, spec.name),
  };
}

/** A copy-free result: the Writer's buffer trimmed to what was written. */
function encodeWhole<T>(write: (w: Writer, b: T, v: number) => void, body: T, version: number) {
  const w = new Writer();
  write(w, body, version);
  return w.finish();
}

function decodeWhole<T>(
  read: (r: Reader, v: number) => T,
  bytes: Uint8Array,
  version: number,
  what: string,
): T {
  const r = new Reader(bytes);
  const value = read(r, version);
  if (r.pos !== r.end) {
    throw new MalformedMessageError(
      `Cannot decode ${what} v${version}: ${r.end - r.pos} trailing byte(s) after the message`,
    );
  }
  return value;
}
