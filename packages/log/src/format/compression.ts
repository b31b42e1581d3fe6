// Batch compression codecs, with Kafka's attribute codes. gzip comes from node:zlib; snappy from
// the `snappy` package (napi-rs, prebuilt binaries) when it loads. lz4 and zstd have Kafka codes
// but no codec here: a batch using them is refused, never misread.
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { LogError, LogErrorCode } from '../errors.js';

export const COMPRESSION_CODES = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
export type CompressionType = 'none' | 'gzip' | 'snappy';
export const COMPRESSION_TYPES: readonly CompressionType[] = ['none', 'gzip', 'snappy'];

interface Snappy {
  compressSync(input: Buffer): Buffer;
  uncompressSync(input: Buffer, opts?: { asBuffer: true }): Buffer;
  compress(input: Buffer): Promise<Buffer>;
}

let snappyModule: Snappy | null | undefined;
function snappy(): Snappy | null {
  if (snappyModule === undefined) {
    try {
      snappyModule = createRequire(import.meta.url)('snappy') as Snappy;
    } catch {
      snappyModule = null;
    }
  }
  return snappyModule;
}

export function isCompressionAvailable(type: CompressionType): boolean {
  return type !== 'snappy' || snappy() !== null;
}

function unsupported(code: number): LogError {
  return new LogError(
    LogErrorCode.UNSUPPORTED_COMPRESSION_TYPE,
    `compression codec ${code} is not supported here`,
  );
}

const gzipAsync = promisify(zlib.gzip);

/** Compresses off the main thread where the codec allows (zlib and snappy use the libuv pool). */
export async function compress(type: CompressionType, data: Buffer): Promise<Buffer> {
  switch (type) {
    case 'none':
      return data;
    case 'gzip':
      return gzipAsync(data);
    case 'snappy': {
      const s = snappy();
      if (!s) throw unsupported(COMPRESSION_CODES.snappy);
      return s.compress(data);
    }
  }
}

export function compressSync(type: CompressionType, data: Buffer): Buffer {
  switch (type) {
    case 'none':
      return data;
    case 'gzip':
      return zlib.gzipSync(data);
    case 'snappy': {
      const s = snappy();
      if (!s) throw unsupported(COMPRESSION_CODES.snappy);
      return s.compressSync(data);
    }
  }
}

export function decompressSync(code: number, data: Buffer): Buffer {
  switch (code) {
    case COMPRESSION_CODES.none:
      return data;
    case COMPRESSION_CODES.gzip:
      return zlib.gunzipSync(data);
    case COMPRESSION_CODES.snappy: {
      const s = snappy();
      if (!s) throw unsupported(code);
      return s.uncompressSync(data, { asBuffer: true });
    }
    default:
      throw unsupported(code);
  }
}

export function compressionName(code: number): CompressionType {
  const name = (Object.keys(COMPRESSION_CODES) as (keyof typeof COMPRESSION_CODES)[]).find(
    (k) => COMPRESSION_CODES[k] === code,
  );
  if (name === 'none' || name === 'gzip' || name === 'snappy') return name;
  throw unsupported(code);
}
