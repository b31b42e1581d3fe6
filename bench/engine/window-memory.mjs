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
import { join } from 'node:path';
import {
  compareStores,
  engineModule,
  memoryNow,
  mib,
  phases,
  runChild,
  storeArgs,
} from './store-memory.mjs';

const args = storeArgs('keys');
const keys = args.count;
const stores = engineModule('state/lmdb-window-stores.js');
const memoryStore = engineModule('state/window-store.js');

if (args.child !== undefined) {
  const spec = {
    name: 'counts',
    retentionMs: 86_400_000,
    keySerde: 'integer',
    valueSerde: 'long',
    changelogTopic: 'app-counts-changelog',
  };
  await runChild('window-memory', async (dir) => {
    const store =
      args.child === 'rocksDB'
        ? new (await import(stores)).LmdbWindowStore(spec, 0, join(dir, 'counts'))
        : new (await import(memoryStore)).SegmentedWindowStore(spec, 0);
    const start = 3_600_000;
    let cpu = process.cpuUsage();
    for (let k = 0; k < keys; k++) {
      const old = store.fetch(k, start);
      store.put(k, (old?.value ?? 0) + 1, start, start + k);
      if (k % 10_000 === 9_999) store.takeChangelogRecords();
    }
    store.takeChangelogRecords();
    const written = process.cpuUsage(cpu);
    const afterWrite = memoryNow();
    cpu = process.cpuUsage();
    let sum = 0;
    for (let k = 0; k < keys; k++) sum += store.fetch(k, start)?.value ?? 0;
    const read = process.cpuUsage(cpu);
    if (sum !== keys) throw new Error(`read back ${sum} counts, expected ${keys}`);
    const afterRead = memoryNow();
    const result = phases(args.child, store.residentEntries, keys, {
      written,
      afterWrite,
      read,
      afterRead,
    });
    store.close();
    return result;
  });
}

compareStores({
  title: `window-memory: ${keys} keys, one 24 h window each`,
  script: import.meta.url,
  stores: args.stores,
  args: ['--keys', String(keys)],
  line: (store, r) =>
    `${store}: ${r.held} windows held in memory; heap ${mib(r.afterWrite.heap)} after writing, ` +
    `${mib(r.afterRead.heap)} after reading back; peak RSS ${mib(r.afterRead.rss)}; ` +
    `${r.writeNsPerRecord.toFixed(0)} ns CPU per fetch + put, ${r.readNsPerRecord.toFixed(0)} ns per fetch`,
});
