// The window, session, stream–stream join, stream–table join with grace and windowed record-cache
// oracle tests once more on persistent stores, now holding no committed window, session or
// buffered record in memory: after every commit (the test driver commits after each record)
// every read of a window or session store is answered from its lmdb segments and every record a
// stream–table join's grace buffer releases is read back from its lmdb file, as is every
// unmatched record a stream–stream left or outer join emits at window close (its outer store),
// and the results must still be Kafka Streams'.
import { afterAll, expect, it } from 'vitest';
import { windowStoreCache } from '../src/state/lmdb-window-stores.js';
import { outerJoinStoreCache } from '../src/state/outer-join-store-disk.js';
import { timeOrderedBufferCache } from '../src/state/time-ordered-buffer-disk.js';
import {
  persistentStoresOnDisk,
  runOracleTestsOnPersistentStores,
} from './fixtures/oracle-driver.js';

const before = [
  windowStoreCache.entries,
  timeOrderedBufferCache.entries,
  outerJoinStoreCache.entries,
] as const;
windowStoreCache.entries = 0;
timeOrderedBufferCache.entries = 0;
outerJoinStoreCache.entries = 0;
afterAll(() => {
  [windowStoreCache.entries, timeOrderedBufferCache.entries, outerJoinStoreCache.entries] = before;
});
runOracleTestsOnPersistentStores();
await import('./windows-oracle.test.js');
await import('./sliding-windows-oracle.test.js');
await import('./dsl-windows-joins-oracle.test.js');
await import('./joins-oracle.test.js');
await import('./record-cache-windows-oracle.test.js');
await import('./interactive-queries-windowed-oracle.test.js');
await import('./stream-table-grace-oracle.test.js');

it('ran them on lmdb window and session stores', () => {
  const stores = persistentStoresOnDisk();
  expect(stores.some((p) => /JOINTHIS|AGGREGATE|COUNT|REDUCE/.test(p))).toBe(true);
  expect(stores.some((p) => /JOIN-\d+-Buffer$/.test(p))).toBe(true);
  expect(stores.some((p) => /OUTERSHARED-\d+-store$/.test(p))).toBe(true);
  expect(stores.length).toBeGreaterThan(20);
});
