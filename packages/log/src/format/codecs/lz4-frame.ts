// LZ4 as Kafka stores it since message format v1 (KIP-57): the standard LZ4 frame format with
// independent blocks, no block checksums and no content size, which Kafka's
// KafkaLZ4BlockOutputStream writes (64 KiB blocks) and its input stream reads. lz4-napi (napi-rs
// over lz4_flex, prebuilt binaries on npm) writes frames of that shape (independent 256 KiB blocks,
// no checksums; Kafka reads any block size of the format) and reads any standard frame.
import { loadCodecPackage } from './native-module.js';

interface Lz4 {
  compressFrameSync(data: Buffer): Buffer;
  compressFrame(data: Uint8Array): Promise<Buffer>;
  decompressFrameSync(data: Buffer): Buffer;
}

let lz4Module: Lz4 | undefined;
function lz4(): Lz4 {
  return (lz4Module ??= loadCodecPackage<Lz4>('lz4', 'lz4-napi'));
}

export const compressLz4FrameSync = (data: Buffer): Buffer => lz4().compressFrameSync(data);
/** On libuv's thread pool. */
export const compressLz4Frame = (data: Buffer): Promise<Buffer> => lz4().compressFrame(data);
export const decompressLz4Frame = (data: Buffer): Buffer => lz4().decompressFrameSync(data);
