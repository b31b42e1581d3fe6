// The built engine's stream-thread worker starts here (worker-stream-thread.ts picks this file when
// the build made the bundle). It runs worker-main.bundle.cjs, the worker's code as one script
// (scripts/bundle-worker.mjs), compiled from V8's code cache when an earlier worker left one:
// compiling the bundle and, lazily, every function a thread runs until its first records cost
// each worker ≈ 15 ms of CPU that the cache saves (measured in 3c83d33). Node 20
// has no compile cache of its own for ES modules (module.enableCompileCache is Node 22), so the
// bundle is a script run through node:vm, whose cachedData V8 checks itself: a cache made by
// another Node, V8 flags or bundle is rejected, and then replaced.
//
// The cache lives in STREAMWRIGHT_CODE_CACHE_DIR (default: <os tmpdir>/streamwright-code-cache-
// <uid>; used only when this user owns it and nobody else can write to it), one file per Node
// version, flags and bundle; `off` disables it. It is written once, by the first
// worker that found none (or a rejected one), when it exits or after CACHE_AFTER_MS of running, so
// it holds the functions a running thread compiled, not only the bundle's top level. Nothing here
// may fail a worker: a cache that cannot be read or written is simply not used.
//
// This file imports only Node's built-ins: the log's reader and encoder are in the bundle too.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';

/** Emitted on `process` by worker-main.ts when a pooled worker's first app is over. */
const IDLE_EVENT = 'streamwright:worker-idle';

/** A thread that runs this long has compiled its record path; a cache written then includes it. */
const CACHE_AFTER_MS = 5_000;

const bundleUrl = new URL('./worker-main.bundle.cjs', import.meta.url);
const bundlePath = fileURLToPath(bundleUrl);
const source = readFileSync(bundlePath, 'utf8');
const cacheFile = cachePath(bundlePath, source.length);
const cached = cacheFile === null ? undefined : readOrUndefined(cacheFile);

// One line, so the bundle's own lines (and its source map) keep their numbers. The parameters are
// what scripts/bundle-worker.mjs leaves for the loader to give: CommonJS's five, the bundle's URL
// (import.meta.url of the engine's modules), the URL of the log's reader entry (import.meta.url
// of the log's modules, which load their native modules — CRC-32C, snappy — from the log's own
// dependencies) and a dynamic import (a script compiled from a code cache has no module loader
// for import() of its own).
const wrapped =
  '(function (exports, require, module, __filename, __dirname, __bundleUrl, __logUrl, __dynamicImport) {' +
  '"use strict";' +
  source +
  '\n})';
const script = new Script(wrapped, {
  filename: bundlePath,
  ...(cached !== undefined ? { cachedData: cached } : {}),
});

if (cacheFile !== null && (cached === undefined || script.cachedDataRejected === true)) {
  let written = false;
  const write = (): void => {
    if (written) return;
    written = true;
    try {
      const data = script.createCachedData();
      const tmp = `${cacheFile}.${process.pid}.${threadId}.tmp`;
      writeFileSync(tmp, data);
      renameSync(tmp, cacheFile); // atomic: a worker starting meanwhile reads the old file or this
      removeOlderBuilds(cacheFile);
    } catch {
      // a read-only or full disk: run without a cache
    }
  };
  setTimeout(write, CACHE_AFTER_MS).unref();
  process.once('exit', write);
  // A pooled worker (worker-pool.ts) may never exit on its own (the process ends it): its first
  // app's thread has run by the time it goes idle, so that is a moment with the record path
  // compiled too (worker-main.ts emits this).
  process.once(IDLE_EVENT, write);
}

const module = { exports: {} };
const run = script.runInThisContext() as (
  exports: object,
  require: (id: string) => unknown,
  module: object,
  filename: string,
  dirname: string,
  bundleUrl: string,
  logUrl: string,
  dynamicImport: (specifier: string) => Promise<unknown>,
) => void;
run(
  module.exports,
  createRequire(bundleUrl),
  module,
  bundlePath,
  fileURLToPath(new URL('.', bundleUrl)),
  bundleUrl.href,
  import.meta.resolve('@streamwright/log/reader'),
  (specifier) => import(specifier),
);

/**
 * Where this Node, these flags and this bundle keep their code cache; null: no cache. The name is
 * `worker-<node>-<arch>-<bundle path>-<build>-<flags>.bin` (the last three hashed), so that caches
 * of older builds of the same bundle can be told apart and removed.
 */
function cachePath(bundle: string, length: number): string | null {
  const setting = process.env['STREAMWRIGHT_CODE_CACHE_DIR'];
  if (setting === 'off') return null;
  const uid = process.getuid?.();
  const dir =
    setting !== undefined && setting !== ''
      ? setting
      : join(tmpdir(), `streamwright-code-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // V8 runs what a cache holds: only a directory of this user that nobody else can write to.
    const owner = statSync(dir);
    if ((uid !== undefined && owner.uid !== uid) || (owner.mode & 0o022) !== 0) return null;
    const { mtimeMs } = statSync(bundle);
    // V8 rejects a cache of other flags itself; keying by them too keeps two ways of running
    // (tests, a benchmark with --expose-gc) from replacing each other's cache on every start.
    const flags = [process.execArgv.join(' '), process.env['NODE_OPTIONS'] ?? ''].join('\n');
    const name = [process.version, process.arch, fnv1a(bundle), fnv1a(`${length} ${mtimeMs}`)];
    return join(dir, `worker-${name.join('-')}-${fnv1a(flags)}.bin`);
  } catch {
    return null;
  }
}

/** Removes the caches of other builds of this bundle (same Node, arch and path; any flags). */
function removeOlderBuilds(file: string): void {
  const dir = dirname(file);
  const parts = basename(file).split('-');
  const bundle = parts.slice(0, -2).join('-') + '-'; // worker-<node>-<arch>-<path>-
  const build = parts[parts.length - 2];
  for (const other of readdirSync(dir)) {
    if (!other.startsWith(bundle) || !other.endsWith('.bin')) continue;
    if (other.split('-').at(-2) === build) continue;
    try {
      unlinkSync(join(dir, other));
    } catch {
      // removed by another worker meanwhile
    }
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
