// Snappy as Kafka's Java clients write it: snappy-java's SnappyOutputStream framing ("xerial"), an
// 8-byte magic, two int32 versions, then blocks of 32 KiB of input each compressed on its own and
// preceded by its compressed length (int32, big-endian). Readers take either that framing or one
// raw snappy block (librdkafka and older Streamwright write raw; snappy-java reads both the same way:
// no magic means raw).
import { LogError, LogErrorCode } from '../../errors.js';
import { loadCodecPackage } from './native-module.js';

interface Snappy {
  compressSync(input: Buffer): Buffer;
  compress(input: Buffer): Promise<Buffer>;
  uncompressSync(input: Buffer, opts: { asBuffer: true }): Buffer;
}

let snappyModule: Snappy | undefined;
export function snappy(): Snappy {
  return (snappyModule ??= loadCodecPackage<Snappy>('snappy', 'snappy'));
}

/** snappy-java's stream header: 0x82 "SNAPPY" 0x00, then version 1 and compatible version 1. */
const MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const HEADER = Buffer.concat([MAGIC, Buffer.from([0, 0, 0, 1, 0, 0, 0, 1])]);
/** SnappyOutputStream's default block size, which Kafka's SnappyFactory keeps. */
export const XERIAL_BLOCK_SIZE = 32 * 1024;

function blocksOf(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += XERIAL_BLOCK_SIZE)
    out.push(data.subarray(at, Math.min(at + XERIAL_BLOCK_SIZE, data.length)));
  return out;
}

function frame(compressedBlocks: Buffer[]): Buffer {
  let size = HEADER.length;
  for (const b of compressedBlocks) size += 4 + b.length;
  const out = Buffer.allocUnsafe(size);
  HEADER.copy(out, 0);
  let at = HEADER.length;
  for (const b of compressedBlocks) {
    out.writeInt32BE(b.length, at);
    b.copy(out, at + 4);
    at += 4 + b.length;
  }
  return out;
}

export function compressXerialSync(data: Buffer): Buffer {
  const s = snappy();
  return frame(blocksOf(data).map((b) => s.compressSync(b)));
}

/** The blocks are compressed on libuv's thread pool, in parallel. */
export async function compressXerial(data: Buffer): Promise<Buffer> {
  const s = snappy();
  return frame(await Promise.all(blocksOf(data).map((b) => s.compress(b))));
}

export function isXerialFramed(data: Buffer): boolean {
  return data.length >= HEADER.length && data.subarray(0, MAGIC.length).equals(MAGIC);
}

/** Either framing: xerial blocks, or one raw snappy block. */
export function uncompressSnappy(data: Buffer): Buffer {
  const s = snappy();
  if (!isXerialFramed(data)) return s.uncompressSync(data, { asBuffer: true });
  const parts: Buffer[] = [];
  for (let at = HEADER.length; at < data.length;) {
    if (at + 4 > data.length) throw corrupt(`a block length is cut short at byte ${at}`);
    const length = data.readInt32BE(at);
    if (length < 0 || at + 4 + length > data.length)
      throw corrupt(
        `the block at byte ${at} claims ${length} bytes, past the end (${data.length})`,
      );
    parts.push(s.uncompressSync(data.subarray(at + 4, at + 4 + length), { asBuffer: true }));
    at += 4 + length;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function corrupt(what: string): LogError {
  return new LogError(LogErrorCode.CORRUPT_MESSAGE, `xerial-framed snappy: ${what}`);
}
