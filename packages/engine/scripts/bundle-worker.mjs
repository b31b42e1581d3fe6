// Bundles a stream-thread worker's entry (dist/thread/worker/worker-main.js and the engine and
// topology-model modules it imports) into one file, dist/thread/worker/worker-main.bundle.js,
// which WorkerStreamThread starts when it exists. Loading ~90 ES modules one by one (resolve,
// open, read, compile, link each) cost a worker ≈ 100 ms of CPU before it could join its group;
// one file costs a fraction of that (docs/BENCHMARKS.md, "Stream threads").
//
// Left outside the bundle: @streamwright/log (its entries load native modules relative to their
// own files, so they must stay where they are; the worker imports only log/reader and
// log/encoder) and the npm packages loaded on first use (lmdb, avsc).
import { build } from 'esbuild';

const dist = new URL('../dist/thread/worker/', import.meta.url);
const result = await build({
  entryPoints: [new URL('worker-main.js', dist).pathname],
  outfile: new URL('worker-main.bundle.js', dist).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  external: ['@streamwright/log', '@streamwright/log/*', 'lmdb', 'avsc'],
  metafile: true,
  logLevel: 'warning',
});

// The log's index loads all of the log (≈ 40 modules, ≈ 40 ms of a worker's CPU): a worker needs
// only its reader and encoder entries. Fail the build when a value import of the index slips into
// the worker's graph (a type import is erased and does not count).
const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
const whole = imports.filter((i) => i.external && i.path === '@streamwright/log');
if (whole.length > 0) {
  console.error(
    "bundle-worker: the worker's modules import '@streamwright/log' (the whole log); import from " +
      "'@streamwright/log/reader' or '@streamwright/log/encoder' instead (see the modules that " +
      `import it: grep "from '@streamwright/log'" src)`,
  );
  process.exit(1);
}
