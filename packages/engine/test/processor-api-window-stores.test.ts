// Window and session stores in the Processor API (Stores.windowStoreBuilder /
// sessionStoreBuilder), as Kafka Streams' WindowStore / SessionStore behave: windows by key and
// start, reads limited to stream time − retention, key ranges in the keys' byte order (an
// inverted range is empty), windowed keys with end = start + window size; sessions found by
// findSessions(key, earliestSessionEndTime, latestSessionStartTime) (the bounds Kafka's
// AbstractSessionBytesStoreTest and KStreamSessionWindowAggregate use).
import { describe, expect, it } from 'vitest';
import {
  Consumed,
  Named,
  Serdes,
  Stores,
  StreamsBuilder,
  type Processor,
  type ProcessorContext,
  type SessionStore,
  type StreamRecord,
  type WindowStore,
} from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

function driverWith(
  store: Parameters<StreamsBuilder['addStateStore']>[0],
  supplier: () => Processor<number, string, unknown, unknown>,
) {
  const builder = new StreamsBuilder();
  builder.addStateStore(store);
  builder
    .stream('in', Consumed.with(Serdes.Integer(), Serdes.String()))
    .process(supplier, Named.as('custom'), store.name);
  return createTestDriver(builder.build({ applicationId: 'papi-windows' }));
}

describe('Processor API window stores', () => {
  it('put / fetch / backwardFetch / fetchAll / all with retention, as WindowStore', () => {
    const reads: Record<string, unknown> = {};
    const driver = driverWith(
      Stores.windowStoreBuilder(
        Stores.persistentWindowStore('w', 3000, 1000, false),
        Serdes.Integer(),
        Serdes.String(),
      ),
      () => {
        let store: WindowStore<number, string>;
        return {
          init(ctx: ProcessorContext) {
            store = ctx.getStateStore<WindowStore<number, string>>('w');
          },
          process(record: StreamRecord<number, string>) {
            if (record.value === 'read') {
              reads['one'] = store.fetch(5, 500);
              reads['key'] = store.fetch(5, 0, 1000);
              reads['backward'] = store.backwardFetch(5, 0, 1000);
              reads['range'] = store.fetch(4, 9, 0, 1000);
              // -1 serializes as ff ff ff ff, after 9: an inverted range (Kafka returns nothing).
              reads['inverted'] = store.fetch(-1, 9, 0, 1000);
              reads['all'] = store.fetchAll(0, 10_000).map((kv) => [kv.key.key, kv.key.start]);
              return;
            }
            if (record.value === 'expire') {
              store.put(record.key, record.value, record.timestamp);
              reads['afterExpiry'] = store.all().map((kv) => [kv.key.key, kv.key.start]);
              return;
            }
            store.put(record.key, record.value, record.timestamp);
          },
        };
      },
    );
    driver.pipeInput('in', 5, 'a', 0);
    driver.pipeInput('in', 5, 'b', 500);
    driver.pipeInput('in', 9, 'c', 700);
    driver.pipeInput('in', 5, 'b2', 500); // the same window again: replaced
    driver.pipeInput('in', 5, 'read', 800);
    expect(reads['one']).toBe('b2');
    expect(reads['key']).toEqual([
      { key: 0, value: 'a' },
      { key: 500, value: 'b2' },
    ]);
    expect(reads['backward']).toEqual([
      { key: 500, value: 'b2' },
      { key: 0, value: 'a' },
    ]);
    expect(reads['range']).toEqual([
      { key: { key: 5, start: 0, end: 1000 }, value: 'a' },
      { key: { key: 5, start: 500, end: 1500 }, value: 'b2' },
      { key: { key: 9, start: 700, end: 1700 }, value: 'c' },
    ]);
    expect(reads['inverted']).toEqual([]);
    expect(reads['all']).toEqual([
      [5, 0],
      [5, 500],
      [9, 700],
    ]);
    // Stream time 3600: windows starting at or before 600 are gone.
    driver.pipeInput('in', 1, 'expire', 3600);
    expect(reads['afterExpiry']).toEqual([
      [9, 700],
      [1, 3600],
    ]);
  });

  it('retainDuplicates keeps every put of a window', () => {
    let seen: unknown;
    const driver = driverWith(
      Stores.windowStoreBuilder(
        Stores.inMemoryWindowStore('d', 10_000, 1000, true),
        Serdes.Integer(),
        Serdes.String(),
      ),
      () => {
        let store: WindowStore<number, string>;
        return {
          init: (ctx: ProcessorContext) => void (store = ctx.getStateStore('d')),
          process(record: StreamRecord<number, string>) {
            store.put(record.key, record.value, 100);
            seen = store.fetch(record.key, 0, 1000).map((kv) => kv.value);
          },
        };
      },
    );
    driver.pipeInput('in', 1, 'x', 100);
    driver.pipeInput('in', 1, 'y', 100);
    expect(seen).toEqual(['x', 'y']);
  });

  it('refuses a window larger than the retention, with Kafka’s message', () => {
    expect(() => Stores.persistentWindowStore('w', 500, 1000, false)).toThrow(
      'The retention period of the window store w must be no smaller than its window size. Got size=[1000], retention=[500]',
    );
  });
});

describe('Processor API session stores', () => {
  it('put / findSessions / fetchSession / remove / fetch, as SessionStore', () => {
    const reads: Record<string, unknown> = {};
    const driver = driverWith(
      Stores.sessionStoreBuilder(
        Stores.persistentSessionStore('s', 10_000),
        Serdes.Integer(),
        Serdes.Long(),
      ),
      () => {
        let store: SessionStore<number, number>;
        return {
          init: (ctx: ProcessorContext) => void (store = ctx.getStateStore('s')),
          process(record: StreamRecord<number, string>) {
            if (record.value === 'setup') {
              store.put({ key: 1, start: 0, end: 0 }, 1);
              store.put({ key: 1, start: 1000, end: 1500 }, 2);
              store.put({ key: 1, start: 3000, end: 3000 }, 3);
              store.put({ key: 2, start: 1200, end: 1300 }, 4);
              return;
            }
            // Sessions of 1 ending at or after 500 and starting at or before 3000.
            reads['find'] = store.findSessions(1, 500, 3000);
            reads['backward'] = store.backwardFindSessions(1, 500, 3000).map((kv) => kv.value);
            reads['range'] = store.findSessions(1, 2, 0, 2000).map((kv) => kv.value);
            reads['one'] = store.fetchSession(1, 1000, 1500);
            store.remove({ key: 1, start: 1000, end: 1500 });
            reads['afterRemove'] = store.fetch(1).map((kv) => kv.value);
          },
        };
      },
    );
    driver.pipeInput('in', 0, 'setup', 0);
    driver.pipeInput('in', 0, 'read', 1);
    expect(reads['find']).toEqual([
      { key: { key: 1, start: 1000, end: 1500 }, value: 2 },
      { key: { key: 1, start: 3000, end: 3000 }, value: 3 },
    ]);
    expect(reads['backward']).toEqual([3, 2]);
    // By end, then key, then start: (1, 0–0), (2, 1200–1300), (1, 1000–1500).
    expect(reads['range']).toEqual([1, 4, 2]);
    expect(reads['one']).toBe(2);
    expect(reads['afterRemove']).toEqual([1, 3]);
  });
});
