// zstd through the zstd library compiled to WebAssembly (@bokuweb/zstd-wasm: no native build, no
// download at install). Its module is instantiated synchronously on first use through Emscripten's
// `instantiateWasm` hook, so the log's synchronous decoders can decompress without an init step.
// Compression level 3 (zstd's and Kafka's default).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LogError, LogErrorCode } from '../../errors.js';
import { loadCodecPackage, resolveInPackage } from './native-module.js';
import { ZstdFrameError, zstdDecompressedBound } from './zstd-frame-bound.js';

/** The few WebAssembly APIs used here (the project's lib settings declare no WebAssembly types). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
}
const wasmApi = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

interface ZstdModule {
  HEAPU8: Uint8Array;
  instantiateWasm?: (
    imports: object,
    receive: (instance: { exports: object }) => unknown,
  ) => object;
  init(): unknown;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _ZSTD_compressBound(size: number): number;
  _ZSTD_compress(dst: number, cap: number, src: number, size: number, level: number): number;
  _ZSTD_decompress(dst: number, cap: number, src: number, size: number): number;
  _ZSTD_isError(code: number): number;
}

const PACKAGE = '@bokuweb/zstd-wasm';
export const ZSTD_LEVEL = 3;
/** A batch whose records would decompress past this is refused (Kafka's own batches stay far below). */
const MAX_DECOMPRESSED = 1 << 30;

let zstdModule: ZstdModule | undefined;
function zstd(): ZstdModule {
  if (zstdModule) return zstdModule;
  const dir = dirname(resolveInPackage(PACKAGE));
  const m = loadCodecPackage<{ Module: ZstdModule }>('zstd', join(dir, 'module.js')).Module;
  const wasm = readFileSync(join(dir, 'zstd.wasm'));
  m.instantiateWasm = (imports, receive) => {
    const instance = new wasmApi.Instance(new wasmApi.Module(wasm), imports);
    receive(instance);
    return instance.exports;
  };
  m.init();
  return (zstdModule = m);
}

function fail(what: string): LogError {
  return new LogError(LogErrorCode.CORRUPT_MESSAGE, `zstd: ${what}`);
}

/** Runs `fn` with `data` copied into the module's memory; frees both buffers afterwards. */
function withBuffers<T>(
  m: ZstdModule,
  data: Uint8Array,
  outSize: number,
  fn: (src: number, dst: number) => T,
): T {
  const src = m._malloc(Math.max(data.length, 1));
  const dst = m._malloc(Math.max(outSize, 1));
  try {
    if (src === 0 || dst === 0) throw fail(`out of WebAssembly memory for ${outSize} bytes`);
    m.HEAPU8.set(data, src);
    return fn(src, dst);
  } finally {
    m._free(src);
    m._free(dst);
  }
}

/** The module's bytes [ptr, ptr + n) as a Buffer of its own (the heap may move on the next call). */
function copyOut(m: ZstdModule, ptr: number, n: number): Buffer {
  const out = Buffer.allocUnsafe(n);
  out.set(m.HEAPU8.subarray(ptr, ptr + n));
  return out;
}

export function compressZstd(data: Uint8Array): Buffer {
  const m = zstd();
  const cap = m._ZSTD_compressBound(data.length);
  return withBuffers(m, data, cap, (src, dst) => {
    const n = m._ZSTD_compress(dst, cap, src, data.length, ZSTD_LEVEL);
    if (m._ZSTD_isError(n)) throw fail(`compressing ${data.length} bytes failed (code ${n})`);
    return copyOut(m, dst, n);
  });
}

export function decompressZstd(data: Uint8Array): Buffer {
  let bound: number;
  try {
    bound = zstdDecompressedBound(data);
  } catch (error) {
    if (error instanceof ZstdFrameError) throw fail(error.message);
    throw error;
  }
  if (bound > MAX_DECOMPRESSED)
    throw fail(
      `the records would decompress to ${bound} bytes, over the ${MAX_DECOMPRESSED} allowed`,
    );
  const m = zstd();
  return withBuffers(m, data, bound, (src, dst) => {
    const n = m._ZSTD_decompress(dst, bound, src, data.length);
    if (m._ZSTD_isError(n)) throw fail(`decompressing ${data.length} bytes failed (code ${n})`);
    return copyOut(m, dst, n);
  });
}
