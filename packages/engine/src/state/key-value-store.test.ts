import { describe, expect, it } from 'vitest';
import { InMemoryKeyValueStore } from './key-value-store.js';

describe('in-memory key-value store with change logging', () => {
  it('collapses updates of a key between commits into one changelog record (latest value)', () => {
    const store = new InMemoryKeyValueStore(
      { name: 's', keySerde: 'string', valueSerde: 'long', changelogTopic: 'app-s-changelog' },
      2,
    );
    store.put('a', 1, 10);
    store.put('a', 2, 11);
    store.put('b', 1, 12);
    const records = store.takeChangelogRecords();
    expect(
      records.map((r) => [
        r.topic,
        r.partition,
        Buffer.from(r.key!).toString(),
        Buffer.from(r.value!).toString('hex'),
        r.timestamp,
      ]),
    ).toEqual([
      ['app-s-changelog', 2, 'a', '0000000000000002', 11],
      ['app-s-changelog', 2, 'b', '0000000000000001', 12],
    ]);
    expect(store.takeChangelogRecords()).toEqual([]);
  });

  it('restores from changelog records, tombstones included', () => {
    const store = new InMemoryKeyValueStore(
      { name: 's', keySerde: 'string', valueSerde: 'long', changelogTopic: 'c' },
      0,
    );
    const rec = (key: string, hex: string | null, offset: number) => ({
      topic: 'c',
      partition: 0,
      offset,
      timestamp: offset,
      key: Buffer.from(key),
      value: hex === null ? null : Buffer.from(hex, 'hex'),
      headers: {},
    });
    store.restore(rec('a', '0000000000000005', 0));
    store.restore(rec('b', '0000000000000001', 1));
    store.restore(rec('b', null, 2));
    expect(store.get('a')).toEqual({ key: 'a', value: 5, timestamp: 0 });
    expect(store.get('b')).toBeUndefined();
    expect(store.takeChangelogRecords()).toEqual([]);
  });
});
