// The subscription index against a model of Kafka's prefix range scan: whatever subscriptions
// were added and removed, a foreign key's scan returns exactly the stored combined keys that
// start with its prefix, in unsigned byte order (what RocksDB's range(prefix, increment(prefix))
// plus Kafka's prefix check returns).
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InMemoryKeyValueStore } from '../state/key-value-store.js';
import { combinedKey, combinedKeyPrefix, splitCombinedKey } from './fk-wire.js';
import { subscriptionIndex } from './fk-subscription-index.js';

const bytes = fc.uint8Array({ minLength: 0, maxLength: 3, max: 3 });
const op = fc.record({ add: fc.boolean(), fk: bytes, pk: bytes });

describe('foreign-key subscription index', () => {
  it('scans a foreign key prefix exactly as a byte-ordered range scan does', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.array(bytes, { maxLength: 5 }),
        (ops, fks) => {
          const store = new InMemoryKeyValueStore(
            { name: 's', keySerde: 'bytes', valueSerde: 'bytes', changelogTopic: null },
            0,
          );
          const model = new Map<string, Buffer>();
          // Half of the operations happen before the index exists (restored contents).
          const half = Math.floor(ops.length / 2);
          const apply = (o: (typeof ops)[number], indexed: boolean) => {
            const key = combinedKey(o.fk, o.pk);
            const id = Buffer.from(key).toString('hex');
            if (o.add) {
              store.put(key, new Uint8Array([1]), 0);
              if (indexed) subscriptionIndex(store).add(key);
              model.set(id, Buffer.from(key));
            } else {
              store.delete(key, 0);
              if (indexed) subscriptionIndex(store).remove(key);
              model.delete(id);
            }
          };
          ops.slice(0, half).forEach((o) => apply(o, false));
          subscriptionIndex(store);
          ops.slice(half).forEach((o) => apply(o, true));
          for (const fk of [...fks, ...ops.map((o) => o.fk)]) {
            const prefix = Buffer.from(combinedKeyPrefix(fk));
            const expected = [...model.values()]
              .filter(
                (k) => k.length >= prefix.length && k.subarray(0, prefix.length).equals(prefix),
              )
              .sort(Buffer.compare)
              .map((k) => k.toString('hex'));
            const actual = subscriptionIndex(store)
              .prefixScan(prefix)
              .map((k) => Buffer.from(k).toString('hex'));
            expect(actual).toEqual(expected);
            for (const k of subscriptionIndex(store).prefixScan(prefix))
              expect(Buffer.from(splitCombinedKey(k).foreignKey)).toEqual(Buffer.from(fk));
          }
        },
      ),
    );
  });
});
