// The window, session, stream–stream join and windowed record-cache oracle tests once more on
// persistent stores, now holding no committed window or session in memory: after every commit
// (the test driver commits after each record) every read of a window or session store is
// answered from its lmdb segments, and the results must still be Kafka Streams'.
import { afterAll, expect, it } from 'vitest';
import { windowStoreCache } from '../src/state/lmdb-window-stores.js';
import {
  persistentStoresOnDisk,
  runOracleTestsOnPersistentStores,
} from './fixtures/oracle-driver.js';

const before = windowStoreCache.entries;
windowStoreCache.entries = 0;
afterAll(() => {
  windowStoreCache.entries = before;
});
runOracleTestsOnPersistentStores();
await import('./windows-oracle.test.js');
await import('./sliding-windows-oracle.test.js');
await import('./dsl-windows-joins-oracle.test.js');
await import('./joins-oracle.test.js');
await import('./record-cache-windows-oracle.test.js');
await import('./interactive-queries-windowed-oracle.test.js');

it('ran them on lmdb window and session stores', () => {
  const stores = persistentStoresOnDisk();
  expect(stores.some((p) => /JOINTHIS|AGGREGATE|COUNT|REDUCE/.test(p))).toBe(true);
  expect(stores.length).toBeGreaterThan(20);
});
