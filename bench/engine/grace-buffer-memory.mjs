// Memory of a stream–table join's grace buffer (Joined#withGracePeriod) holding many records:
// --records stream records (integer keys over 10,000, 100-byte values, timestamps 1 ms apart)
// put into a buffer whose grace period keeps them all waiting, a commit every 10,000 records (as
// a running task commits), then one record that releases them all, in timestamp order. Run on the
// BUILT engine:
//
//   pnpm --filter @streamwright/engine build
//   node --expose-gc bench/engine/grace-buffer-memory.mjs [--records 1000000] [--store rocksDB,in_memory]
//
// Each store runs in its own child process (so its RSS is its own): `rocksDB` is the persistent
// buffer (what `default.dsl.store: rocksDB` gives the join), `in_memory` the in-memory one.
// Prints, per store, the JS heap after a full GC and the peak RSS once the records are buffered
// and once they are released, and the CPU time per record of each phase.
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
const module = engineModule('state/time-ordered-buffer.js');

if (args.child !== undefined) {
  const { TimeOrderedKeyValueBuffer } = await import(module);
  const options = {
    name: 'KSTREAM-LEFTJOIN-0000000004-Buffer',
    keySerde: 'integer',
    valueSerde: 'bytes',
    changelogTopic: 'app-KSTREAM-LEFTJOIN-0000000004-Buffer-changelog',
    graceMs: 10 * records,
  };
  await runChild('grace-buffer-memory', async (dir) => {
    const buffer =
      args.child === 'rocksDB'
        ? new TimeOrderedKeyValueBuffer(options, 0, join(dir, options.name))
        : new TimeOrderedKeyValueBuffer(options, 0);
    const value = new Uint8Array(100).fill(7);
    const start = 1_700_000_000_000;
    let cpu = process.cpuUsage();
    for (let i = 0; i < records; i++) {
      const metadata = { topic: 'input', partition: 0, offset: i };
      buffer.put(i % 10_000, value.slice(), start + i, {}, metadata, 0);
      buffer.evict(() => {}, 0);
      if (i % 10_000 === 9_999) buffer.takeChangelogRecords();
    }
    buffer.takeChangelogRecords();
    const written = process.cpuUsage(cpu);
    const afterWrite = memoryNow();
    const held = buffer.residentEntries;
    cpu = process.cpuUsage();
    let released = 0;
    let last = 0;
    const end = { topic: 'input', partition: 0, offset: records };
    buffer.put(0, value, start + 11 * records, {}, end, 0);
    buffer.evict((r) => {
      if (r.timestamp < last) throw new Error('released out of timestamp order');
      last = r.timestamp;
      released++;
    }, 0);
    buffer.takeChangelogRecords();
    const read = process.cpuUsage(cpu);
    if (released !== records) throw new Error(`released ${released}, expected ${records}`);
    const afterRead = memoryNow();
    buffer.close();
    return phases(args.child, held, records, { written, afterWrite, read, afterRead });
  });
}

compareStores({
  title: `grace-buffer-memory: ${records} records waiting in a stream–table join's buffer`,
  script: import.meta.url,
  stores: args.stores,
  args: ['--records', String(records)],
  line: (store, r) =>
    `${store}: ${r.held} records held in memory; heap ${mib(r.afterWrite.heap)} with them buffered, ` +
    `${mib(r.afterRead.heap)} after releasing them; peak RSS ${mib(r.afterWrite.rss)} buffered, ` +
    `${mib(r.afterRead.rss)} released; ` +
    `${r.writeNsPerRecord.toFixed(0)} ns CPU per put + evict (and commit), ${r.readNsPerRecord.toFixed(0)} ns per record released`,
});
