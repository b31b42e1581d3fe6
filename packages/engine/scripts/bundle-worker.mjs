// Bundles a stream-thread worker's code (dist/thread/worker/worker-main.js and the engine and
// topology-model modules it imports) into one script, dist/thread/worker/worker-main.bundle.cjs,
// which the built worker's entry (dist/thread/worker/worker-entry.js) runs from V8's code cache.
// Loading ~90 ES modules one by one (resolve, open, read, compile, link each) cost a worker
// ≈ 100 ms of CPU before it could join its group; one file costs a fraction of that, and its code
// cache saves the compiling (docs/BENCHMARKS.md, "Stream threads", "Worker start-up").
//
// A script, not an ES module: Node 20 caches no compiled ES modules, and node:vm's scripts take
// V8's cachedData. So the bundle is CommonJS wrapped by worker-entry.js, which hands it what a
// script lacks: `import.meta.url` (here `__bundleUrl`) and `import()` (`__dynamicImport`, put in
// place of dynamic-import.js, the worker's only import()).
//
// Left outside the bundle: @streamwright/log (its entries load native modules relative to their
// own files, so they must stay where they are; the worker needs only log/reader and log/encoder,
// which worker-entry.js imports and hands to the bundle's require) and the npm packages loaded on
// first use (lmdb, avsc).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

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
  external: ['@streamwright/log', '@streamwright/log/*', 'lmdb', 'avsc'],
  define: { 'import.meta.url': '__bundleUrl' },
  plugins: [
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
  ],
  metafile: true,
  logLevel: 'warning',
});

function fail(message) {
  console.error(`bundle-worker: ${message}`);
  process.exit(1);
}

// The log's index loads all of the log (≈ 40 modules, ≈ 40 ms of a worker's CPU): a worker needs
// only its reader and encoder entries, the two worker-entry.js hands to the bundle. Fail the build
// when another one slips into the worker's graph (a type import is erased and does not count).
const externals = new Set(
  Object.values(result.metafile.outputs)
    .flatMap((o) => o.imports)
    .filter((i) => i.external && i.path.startsWith('@streamwright/log'))
    .map((i) => i.path),
);
for (const path of externals) {
  if (path !== '@streamwright/log/reader' && path !== '@streamwright/log/encoder')
    fail(
      `the worker's modules import '${path}'; import from '@streamwright/log/reader' or ` +
        `'@streamwright/log/encoder' instead (grep "from '${path}'" src), or hand it to the ` +
        'bundle in src/thread/worker/worker-entry.ts',
    );
}
// import() inside the script would throw once it runs from a code cache.
const text = readFileSync(outfile, 'utf8');
if (/\bimport\s*\(/.test(text) || text.includes('import.meta'))
  fail(
    'the bundle contains import() or import.meta; route it through dynamic-import.ts / __bundleUrl',
  );
