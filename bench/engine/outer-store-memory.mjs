// Memory of a stream–stream left join's outer store holding many unmatched records: --records
// left records (integer keys over 10,000, 100-byte values, timestamps 1 ms apart) that find no
// partner and wait in the outer store of a join whose window keeps them all open (each put after
// the close scan the join runs per record), a commit every 10,000 records (as a running task
// commits), then one scan at a stream time that closes every window and emits them all, in store
// order. Run on the BUILT engine:
//
//   pnpm --filter @streamwright/engine build
//   node --expose-gc bench/engine/outer-store-memory.mjs [--records 1000000] [--store rocksDB,in_memory]
//
// Each store runs in its own child process (so its RSS is its own): `rocksDB` is the persistent
// outer store (what `default.dsl.store: rocksDB` gives the join), `in_memory` the in-memory one.
// Prints, per store, the JS heap after a full GC and the peak RSS once the records wait and once
// they are emitted, and the CPU time per record of each phase.
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

const args = storeArgs('records');
const records = args.count;
const module = engineModule('state/outer-join-store.js');

if (args.child !== undefined) {
  const { OuterJoinStore } = await import(module);
  const options = {
    name: 'KSTREAM-OUTERSHARED-0000000004-store',
    changelogTopic: 'app-KSTREAM-OUTERSHARED-0000000004-store-changelog',
    keySerde: 'integer',
    leftValueSerde: 'bytes',
    rightValueSerde: 'bytes',
  };
  // A window (after) longer than the input: nothing closes until the last scan.
  const afterMs = 10 * records;
  const closeAt = (store, streamTime, onEmit) =>
    store.scan(streamTime - afterMs, (p) => {
      if (p.timestamp + afterMs >= streamTime) return 'stop'; // left records only
      onEmit(p);
      return 'emit';
    });
  await runChild('outer-store-memory', async (dir) => {
    const store =
      args.child === 'rocksDB'
        ? new OuterJoinStore(options, 0, join(dir, options.name))
        : new OuterJoinStore(options, 0);
    const value = new Uint8Array(100).fill(7);
    const start = 1_700_000_000_000;
    let cpu = process.cpuUsage();
    for (let i = 0; i < records; i++) {
      closeAt(store, start + i, () => {
        throw new Error('emitted before its window closed');
      });
      store.put('left', i % 10_000, start + i, value.slice(), {});
      if (i % 10_000 === 9_999) store.takeChangelogRecords();
    }
    store.takeChangelogRecords();
    const written = process.cpuUsage(cpu);
    const afterWrite = memoryNow();
    const held = store.residentEntries;
    cpu = process.cpuUsage();
    let emitted = 0;
    let last = 0;
    closeAt(store, start + 11 * records, (p) => {
      if (p.timestamp < last) throw new Error('emitted out of timestamp order');
      last = p.timestamp;
      emitted++;
    });
    store.takeChangelogRecords();
    const read = process.cpuUsage(cpu);
    if (emitted !== records) throw new Error(`emitted ${emitted}, expected ${records}`);
    const afterRead = memoryNow();
    store.close();
    return phases(args.child, held, records, { written, afterWrite, read, afterRead });
  });
}

compareStores({
  title: `outer-store-memory: ${records} unmatched records waiting in a stream–stream join's outer store`,
  script: import.meta.url,
  stores: args.stores,
  args: ['--records', String(records)],
  line: (store, r) =>
    `${store}: ${r.held} records held in memory; heap ${mib(r.afterWrite.heap)} with them waiting, ` +
    `${mib(r.afterRead.heap)} after emitting them; peak RSS ${mib(r.afterWrite.rss)} waiting, ` +
    `${mib(r.afterRead.rss)} emitted; ` +
    `${r.writeNsPerRecord.toFixed(0)} ns CPU per scan + put (and commit), ${r.readNsPerRecord.toFixed(0)} ns per record emitted`,
});
