// How large a zstd stream decompresses at most, read from its frame and block headers (RFC 8878):
// Java's zstd-jni writes through a stream, so its frames do not carry their content size, and a
// one-shot ZSTD_decompress needs room for the whole output up front. A frame with a content size
// gives it exactly; otherwise every block says its size (raw and RLE blocks exactly, compressed
// blocks at most min(window size, 128 KiB)). Skippable frames count zero.
const FRAME_MAGIC = 0xfd2fb528;
const BLOCK_MAX = 128 * 1024;
const FCS_BYTES = [0, 2, 4, 8] as const;
const DICT_ID_BYTES = [0, 1, 2, 4] as const;

export class ZstdFrameError extends Error {}

export function zstdDecompressedBound(data: Uint8Array): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const need = (at: number, n: number, what: string) => {
    if (at + n > data.length)
      throw new ZstdFrameError(`${what} at byte ${at} runs past the end (${data.length} bytes)`);
  };
  let total = 0;
  let at = 0;
  while (at < data.length) {
    need(at, 4, 'a frame magic');
    const magic = view.getUint32(at, true);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      need(at + 4, 4, 'a skippable frame size');
      at += 8 + view.getUint32(at + 4, true);
      continue;
    }
    if (magic !== FRAME_MAGIC)
      throw new ZstdFrameError(`byte ${at} starts no zstd frame (magic 0x${magic.toString(16)})`);
    at += 4;
    need(at, 1, 'the frame header descriptor');
    const descriptor = data[at++]!;
    const fcsFlag = descriptor >> 6;
    const singleSegment = (descriptor & 0x20) !== 0;
    const checksum = (descriptor & 0x04) !== 0;
    let window = 0;
    if (!singleSegment) {
      need(at, 1, 'the window descriptor');
      const w = data[at++]!;
      const base = 2 ** (10 + (w >> 3));
      window = base + (base / 8) * (w & 7);
    }
    at += DICT_ID_BYTES[descriptor & 3]!;
    const fcsBytes = fcsFlag === 0 && singleSegment ? 1 : FCS_BYTES[fcsFlag]!;
    let contentSize = -1;
    if (fcsBytes > 0) {
      need(at, fcsBytes, 'the frame content size');
      if (fcsBytes === 1) contentSize = data[at]!;
      else if (fcsBytes === 2) contentSize = view.getUint16(at, true) + 256;
      else if (fcsBytes === 4) contentSize = view.getUint32(at, true);
      else contentSize = Number(view.getBigUint64(at, true));
      at += fcsBytes;
    }
    const blockMax = Math.min(singleSegment ? Math.max(contentSize, 0) : window, BLOCK_MAX);
    let blocks = 0;
    for (let last = false; !last;) {
      need(at, 3, 'a block header');
      const h = data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16);
      at += 3;
      last = (h & 1) !== 0;
      const type = (h >> 1) & 3;
      const size = h >>> 3;
      if (type === 3) throw new ZstdFrameError(`reserved block type at byte ${at - 3}`);
      blocks += type === 2 ? blockMax : size;
      at += type === 1 ? 1 : size;
    }
    if (checksum) at += 4;
    if (at > data.length) throw new ZstdFrameError('the last frame runs past the end');
    total += contentSize >= 0 ? contentSize : blocks;
  }
  return total;
}
