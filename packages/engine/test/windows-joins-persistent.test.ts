// The window, session, stream–stream join, stream–table join with grace and windowed
// record-cache oracle tests again, on persistent stores (lmdb window, session and key-value
// stores, grace buffers and outer join stores, a running app's default): the results must be Kafka Streams' as they
// are in memory.
import { expect, it } from 'vitest';
import {
  persistentStoresOnDisk,
  runOracleTestsOnPersistentStores,
} from './fixtures/oracle-driver.js';

runOracleTestsOnPersistentStores();
await import('./windows-oracle.test.js');
await import('./sliding-windows-oracle.test.js');
await import('./dsl-windows-joins-oracle.test.js');
await import('./joins-oracle.test.js');
await import('./record-cache-windows-oracle.test.js');
await import('./stream-table-grace-oracle.test.js');

it('ran them on lmdb window and session stores', () => {
  const stores = persistentStoresOnDisk();
  // Windowed aggregations' stores and stream–stream join buffers, e.g. KSTREAM-JOINTHIS-…-store.
  expect(stores.some((p) => /JOINTHIS|AGGREGATE|COUNT|REDUCE/.test(p))).toBe(true);
  expect(stores.some((p) => /JOIN-\d+-Buffer$/.test(p))).toBe(true);
  expect(stores.some((p) => /OUTERSHARED-\d+-store$/.test(p))).toBe(true);
  expect(stores.length).toBeGreaterThan(20);
});
