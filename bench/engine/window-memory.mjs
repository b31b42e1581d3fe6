// Memory of a window store holding many windows: a 24 h tumbling window's count over --keys
// distinct keys, as a windowed count writes it (fetch the window, put the count + 1; a commit
// every 10,000 records), then every window read back once. Run on the BUILT engine:
//
//   pnpm --filter @streamwright/engine build
//   node --expose-gc bench/engine/window-memory.mjs [--keys 1000000] [--store rocksDB,in_memory]
//
// Each store runs in its own child process (so its RSS is its own): `rocksDB` is the persistent
// lmdb window store (what `default.dsl.store: rocksDB` gives a windowed aggregation), `in_memory`
// the in-memory one. Prints, per store, the JS heap after a full GC and the peak RSS, once the
// windows are written and once they are read back, and the CPU time per record of each phase.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    keys: { type: 'string', default: '1000000' },
    store: { type: 'string', default: 'rocksDB,in_memory' },
    child: { type: 'string' },
  },
});
const keys = Number(args.keys);
const stores = new URL('../../packages/engine/dist/state/lmdb-window-stores.js', import.meta.url);
const memoryStore = new URL('../../packages/engine/dist/state/window-store.js', import.meta.url);
if (!existsSync(fileURLToPath(stores))) {
  console.error('packages/engine/dist is missing: run `pnpm --filter @streamwright/engine build`');
  process.exit(1);
}

if (args.child !== undefined) {
  const spec = {
    name: 'counts',
    retentionMs: 86_400_000,
    keySerde: 'integer',
    valueSerde: 'long',
    changelogTopic: 'app-counts-changelog',
  };
  const dir = mkdtempSync(join(tmpdir(), 'streamwright-window-memory-'));
  try {
    const store =
      args.child === 'rocksDB'
        ? new (await import(stores.href)).LmdbWindowStore(spec, 0, join(dir, 'counts'))
        : new (await import(memoryStore.href)).SegmentedWindowStore(spec, 0);
    const heap = () => {
      globalThis.gc?.();
      return process.memoryUsage().heapUsed;
    };
    const start = 3_600_000;
    let cpu = process.cpuUsage();
    for (let k = 0; k < keys; k++) {
      const old = store.fetch(k, start);
      store.put(k, (old?.value ?? 0) + 1, start, start + k);
      if (k % 10_000 === 9_999) store.takeChangelogRecords();
    }
    store.takeChangelogRecords();
    const written = process.cpuUsage(cpu);
    const afterWrite = { heap: heap(), rss: process.resourceUsage().maxRSS * 1024 };
    cpu = process.cpuUsage();
    let sum = 0;
    for (let k = 0; k < keys; k++) sum += store.fetch(k, start)?.value ?? 0;
    const read = process.cpuUsage(cpu);
    if (sum !== keys) throw new Error(`read back ${sum} counts, expected ${keys}`);
    const afterRead = { heap: heap(), rss: process.resourceUsage().maxRSS * 1024 };
    const ns = (c) => ((c.user + c.system) * 1000) / keys;
    console.log(
      JSON.stringify({
        store: args.child,
        held: store.residentEntries,
        afterWrite,
        afterRead,
        writeNsPerRecord: ns(written),
        readNsPerRecord: ns(read),
      }),
    );
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

const mib = (b) => `${(b / 1048576).toFixed(0)} MiB`;
console.log(
  `window-memory: ${keys} keys, one 24 h window each; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const store of args.store.split(',')) {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), '--child', store, '--keys', String(keys)],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) {
    console.error(child.stderr);
    process.exit(1);
  }
  const r = JSON.parse(child.stdout.trim().split('\n').pop());
  console.log(
    `${store}: ${r.held} windows held in memory; heap ${mib(r.afterWrite.heap)} after writing, ` +
      `${mib(r.afterRead.heap)} after reading back; peak RSS ${mib(r.afterRead.rss)}; ` +
      `${r.writeNsPerRecord.toFixed(0)} ns CPU per fetch + put, ${r.readNsPerRecord.toFixed(0)} ns per fetch`,
  );
}
