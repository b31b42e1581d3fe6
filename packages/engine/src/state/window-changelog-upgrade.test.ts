// Upgrade safety of window changelogs: before commit 839d171 (2026-12-07) a timestamped window
// store logged each value prefixed by its timestamp (int64, ValueAndTimestampSerializer's layout:
// what WindowChangelogFormat#diskValue still writes to disk); since then it logs the value's bytes
// alone, as Kafka Streams does. Restoring an old changelog fails, naming the store, the changelog
// partition and offset, and what to do — instead of restoring wrong values (a long count read
// from the timestamp's bytes). Values of the current layout, even one equal to its timestamp,
// restore as before.
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../backend-spi.js';
import { EngineError } from '../errors.js';
import { getSerde } from '../serdes/index.js';
import { isPre839dValue, WindowChangelogFormat } from './window-changelog.js';
import { SegmentedWindowStore } from './window-store.js';

const TOPIC = 'app-counts-changelog';

function spec(valueSerde: 'long' | 'string', timestamped = true) {
  return {
    name: 'counts',
    keySerde: 'string' as const,
    valueSerde,
    changelogTopic: TOPIC,
    retentionMs: 60_000,
    timestamped,
  };
}

/** A changelog record of window (`key`, `start`) as the store's current version logs it. */
function current(
  valueSerde: 'long' | 'string',
  key: string,
  start: number,
  value: unknown,
  timestamp: number,
  offset: number,
): StoredRecord {
  const format = new WindowChangelogFormat(getSerde('string'), getSerde(valueSerde), true);
  return {
    topic: TOPIC,
    partition: 0,
    offset,
    timestamp,
    key: format.key(key, start, 0),
    value: format.changelogValue(value),
    headers: {},
  };
}

/** The same record as Streamwright logged it before 839d171: the value prefixed by its timestamp. */
function pre839d(
  valueSerde: 'long' | 'string',
  key: string,
  start: number,
  value: unknown,
  timestamp: number,
  offset: number,
): StoredRecord {
  const format = new WindowChangelogFormat(getSerde('string'), getSerde(valueSerde), true);
  return {
    ...current(valueSerde, key, start, value, timestamp, offset),
    value: format.diskValue(value, timestamp),
  };
}

describe('window changelogs written before 839d171', () => {
  it.each(['long', 'string'] as const)(
    '%s values: the restore fails naming the store, the changelog and what to do',
    (serde) => {
      const store = new SegmentedWindowStore(spec(serde), 0);
      const value = serde === 'long' ? 3 : 'three';
      const error = (() => {
        try {
          store.restore(pre839d(serde, 'a', 1000, value, 1500, 42));
          return null;
        } catch (e) {
          return e as EngineError;
        }
      })();
      expect(error).toBeInstanceOf(EngineError);
      expect(error?.code).toBe('INVALID_STATE_STORE');
      expect(error?.message).toContain(
        `window store counts cannot be restored from its changelog ${TOPIC}-0: the record at offset 42 is in the changelog format Streamwright wrote before 2026-12-07 (commit 839d171`,
      );
      expect(error?.message).toContain('streamwright app reset');
      expect(store.all()).toEqual([]);
    },
  );

  it('values of the current layout restore, also a long equal to its timestamp', () => {
    const longs = new SegmentedWindowStore(spec('long'), 0);
    longs.restore(current('long', 'a', 1000, 1500, 1500, 0));
    longs.restore(current('long', 'b', 1000, 7, 1200, 1));
    expect(longs.all().map((e) => [e.key, e.start, e.value, e.timestamp])).toEqual([
      ['a', 1000, 1500, 1500],
      ['b', 1000, 7, 1200],
    ]);
    const strings = new SegmentedWindowStore(spec('string'), 0);
    strings.restore(current('string', 'a', 1000, 'a value of some length', 1500, 0));
    expect(strings.all().map((e) => e.value)).toEqual(['a value of some length']);
  });

  it('a store without timestamps never had the prefix: its values restore as they are', () => {
    const format = new WindowChangelogFormat(getSerde('string'), getSerde('string'), false);
    const bytes = new WindowChangelogFormat(getSerde('string'), getSerde('string'), true).diskValue(
      'x',
      1500,
    )!;
    expect(isPre839dValue(format, bytes, 1500)).toBe(false);
    const store = new SegmentedWindowStore(spec('string', false), 0);
    store.restore({ ...current('string', 'a', 1000, 'x', 1500, 0), value: bytes });
    expect(store.all()).toHaveLength(1);
  });
});
