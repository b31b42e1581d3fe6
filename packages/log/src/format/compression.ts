// Batch compression codecs, with Kafka's attribute codes: every codec Java clients write.
// gzip comes from node:zlib; snappy (xerial-framed as Java writes it, raw read too) from the
// `snappy` package; lz4 (Kafka's LZ4 frame) from `lz4-napi`; zstd from `@bokuweb/zstd-wasm`
// (codecs/). All are required dependencies, loaded on first use.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LogError, LogErrorCode } from '../errors.js';
import { compressLz4Frame, compressLz4FrameSync, decompressLz4Frame } from './codecs/lz4-frame.js';
import { compressXerial, compressXerialSync, uncompressSnappy } from './codecs/xerial-snappy.js';
import { compressZstd, decompressZstd } from './codecs/zstd.js';

export const COMPRESSION_CODES = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
export type CompressionType = keyof typeof COMPRESSION_CODES;
export const COMPRESSION_TYPES: readonly CompressionType[] = [
  'none',
  'gzip',
  'snappy',
  'lz4',
  'zstd',
];

export function isCompressionType(s: string): s is CompressionType {
  return (COMPRESSION_TYPES as readonly string[]).includes(s);
}

const available = new Map<CompressionType, boolean>();

/** The codec's package loads and round-trips a byte (they are dependencies; false: a broken install). */
export function isCompressionAvailable(type: CompressionType): boolean {
  let ok = available.get(type);
  if (ok === undefined) {
    try {
      const one = Buffer.from([7]);
      ok = decompressSync(COMPRESSION_CODES[type], compressSync(type, one)).equals(one);
    } catch {
      ok = false;
    }
    available.set(type, ok);
  }
  return ok;
}

function unsupported(code: number): LogError {
  return new LogError(
    LogErrorCode.UNSUPPORTED_COMPRESSION_TYPE,
    `compression codec ${code} is not one of Kafka's (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd)`,
  );
}

const gzipAsync = promisify(zlib.gzip);

/** Compresses off the main thread where the codec allows (zlib, snappy and lz4 use libuv's pool). */
export async function compress(type: CompressionType, data: Buffer): Promise<Buffer> {
  switch (type) {
    case 'none':
      return data;
    case 'gzip':
      return gzipAsync(data);
    case 'snappy':
      return compressXerial(data);
    case 'lz4':
      return compressLz4Frame(data);
    case 'zstd':
      return compressZstd(data);
  }
}

export function compressSync(type: CompressionType, data: Buffer): Buffer {
  switch (type) {
    case 'none':
      return data;
    case 'gzip':
      return zlib.gzipSync(data);
    case 'snappy':
      return compressXerialSync(data);
    case 'lz4':
      return compressLz4FrameSync(data);
    case 'zstd':
      return compressZstd(data);
  }
}

export function decompressSync(code: number, data: Buffer): Buffer {
  if (code === COMPRESSION_CODES.none) return data;
  const name = compressionName(code);
  try {
    switch (name) {
      case 'gzip':
        return zlib.gunzipSync(data);
      case 'snappy':
        return uncompressSnappy(data);
      case 'lz4':
        return decompressLz4Frame(data);
      default:
        return decompressZstd(data);
    }
  } catch (error) {
    if (error instanceof LogError) throw error;
    throw new LogError(
      LogErrorCode.CORRUPT_MESSAGE,
      `the batch's ${name}-compressed records (${data.length} bytes) failed to decompress: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

export function compressionName(code: number): CompressionType {
  const name = COMPRESSION_TYPES[code];
  if (name === undefined) throw unsupported(code);
  return name;
}
