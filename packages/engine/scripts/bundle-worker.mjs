// Bundles a stream-thread worker's code (dist/thread/worker/worker-main.js and the engine,
// topology-model and log modules it imports) into one script, dist/thread/worker/
// worker-main.bundle.cjs, which the built worker's entry (dist/thread/worker/worker-entry.js) runs
// from V8's code cache. Loading ~100 ES modules one by one (resolve, open, read, compile, link
// each) cost a worker ≈ 100 ms of CPU before it could join its group; one file costs a fraction of
// that, and its code cache saves the compiling (measured in
// 3c83d33).
//
// A script, not an ES module: Node 20 caches no compiled ES modules, and node:vm's scripts take
// V8's cachedData. So the bundle is CommonJS wrapped by worker-entry.js, which hands it what a
// script lacks: `import.meta.url` (`__bundleUrl` in the engine's modules, `__logUrl` — the log's
// reader entry — in the log's, so that they load their native modules from the log's own
// dependencies) and `import()` (`__dynamicImport`, put in place of dynamic-import.js, the worker's
// only import()).
//
// In the bundle: the engine's, topology-model's and the log's reader and encoder modules (the log
// as separate ES modules cost a worker ≈ 10–15 ms of CPU more). Left outside: the log's index
// (all of the log: a worker must not load it), the native modules the log loads (@node-rs/crc32,
// snappy) and the npm packages loaded on first use (lmdb, avsc).
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { build } from 'esbuild';

const requireHere = createRequire(import.meta.url);
const logReader = requireHere.resolve('@streamwright/log/reader');
const logDist = realpathSync(dirname(logReader));

const dist = new URL('../dist/thread/worker/', import.meta.url);
const outfile = new URL('worker-main.bundle.cjs', dist).pathname;
const result = await build({
  entryPoints: [new URL('worker-main.js', dist).pathname],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  // (the log's index is kept out by the 'log-index' plugin: an entry here would take its subpaths too)
  external: ['lmdb', 'avsc', '@node-rs/crc32', 'snappy', 'lz4-napi', '@bokuweb/zstd-wasm'],
  define: { 'import.meta.url': '__bundleUrl' },
  plugins: [
    {
      name: 'log-index',
      setup(b) {
        b.onResolve({ filter: /^@streamwright\/log$/ }, (args) => ({
          path: args.path,
          external: true,
        }));
      },
    },
    {
      name: 'entry-dynamic-import',
      setup(b) {
        b.onLoad({ filter: /thread[\\/]worker[\\/]dynamic-import\.js$/ }, () => ({
          contents:
            'export function importModule(specifier) { return __dynamicImport(specifier); }',
          loader: 'js',
        }));
      },
    },
    {
      name: 'log-module-url',
      setup(b) {
        b.onLoad({ filter: /\.js$/ }, (args) => {
          if (!realpathSync(args.path).startsWith(logDist)) return undefined;
          const text = readFileSync(args.path, 'utf8');
          return { contents: text.replaceAll('import.meta.url', '__logUrl'), loader: 'js' };
        });
      },
    },
  ],
  metafile: true,
  logLevel: 'warning',
});

function fail(message) {
  console.error(`bundle-worker: ${message}`);
  process.exit(1);
}

// The log's index loads all of the log (≈ 40 modules, ≈ 40 ms of a worker's CPU): a worker needs
// only its reader and encoder entries, which are in the bundle. Fail the build when any other part
// of the log slips into the worker's graph (a type import is erased and does not count).
const externals = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && i.path.startsWith('@streamwright/log'))
    .map((i) => i.path),
);
for (const path of externals)
  fail(
    `the worker's modules import '${path}'; import from '@streamwright/log/reader' or ` +
      `'@streamwright/log/encoder' instead (grep "from '${path}'" src)`,
  );
// The log's modules require their native modules from the log's directory (__logUrl): without
// them they would fall back to JavaScript CRC-32C, silently and ~4x slower.
for (const native of ['@node-rs/crc32', 'snappy']) {
  try {
    createRequire(logReader).resolve(native);
  } catch {
    fail(`${native} does not resolve from ${logReader}, where the bundled log loads it`);
  }
}
// import() inside the script would throw once it runs from a code cache. Block comments are left
// out of the check: bundled libraries' JSDoc names types as `{import('./index.js').T}`.
const text = readFileSync(outfile, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
if (/\bimport\s*\(/.test(text) || text.includes('import.meta'))
  fail(
    'the bundle contains import() or import.meta; route it through dynamic-import.ts / __bundleUrl',
  );
