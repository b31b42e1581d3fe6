// The Processor API as Kafka Streams defines it (org.apache.kafka.streams.processor.api):
// forward to all or one named child, stores only when connected, record metadata and headers,
// stream time, punctuation on STREAM_TIME (aligned to 0, fires as soon as there is data) and
// WALL_CLOCK_TIME, exceptions through the processing exception handler, init/close.
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import {
  Consumed,
  Named,
  Produced,
  Serdes,
  Stores,
  StreamsBuilder,
  type FixedKeyProcessorContext,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  type StreamRecord,
} from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

type Ctx = ProcessorContext<string, unknown>;

function app(
  supplier: () => Processor<string, string, string, unknown>,
  options: { stores?: string[]; config?: Record<string, string> } = {},
) {
  const builder = new StreamsBuilder();
  builder.addStateStore(
    Stores.keyValueStoreBuilder(
      Stores.inMemoryKeyValueStore('seen'),
      Serdes.String(),
      Serdes.Long(),
    ),
  );
  builder.addStateStore(
    Stores.keyValueStoreBuilder(
      Stores.inMemoryKeyValueStore('other'),
      Serdes.String(),
      Serdes.Long(),
    ),
  );
  const processed = builder
    .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
    .process(supplier, Named.as('custom'), ...(options.stores ?? ['seen']));
  processed.to('a', Produced.with(Serdes.String(), Serdes.Json()).withName('to-a'));
  processed.to('b', Produced.with(Serdes.String(), Serdes.Json()).withName('to-b'));
  return builder.build({
    applicationId: 'papi',
    ...(options.config ? { config: options.config } : {}),
  });
}

describe('Processor API', () => {
  it('forwards to every child, or only to the named one; records carry metadata, headers and task info', () => {
    const seen: unknown[] = [];
    const built = app(() => {
      let ctx: Ctx;
      return {
        init: (c) => void (ctx = c),
        process(record: StreamRecord<string, string>) {
          seen.push({
            meta: ctx.recordMetadata(),
            task: ctx.taskId,
            app: ctx.applicationId,
            streamTime: ctx.currentStreamTimeMs(),
            headers: record.headers,
          });
          if (record.value === 'only-b')
            ctx.forward({ ...record, value: { v: record.value } }, 'to-b');
          else ctx.forward({ ...record, value: { v: record.value } });
        },
      };
    });
    const driver = createTestDriver(built);
    driver.pipeInput('in', 'k1', 'both', 7, { trace: 'x' });
    driver.pipeInput('in', 'k2', 'only-b', 3);
    expect(driver.readOutput('a').map((r) => [r.key, r.value, r.timestamp, r.headers])).toEqual([
      ['k1', { v: 'both' }, 7, { trace: 'x' }],
    ]);
    expect(driver.readOutput('b').map((r) => [r.key, r.value])).toEqual([
      ['k1', { v: 'both' }],
      ['k2', { v: 'only-b' }],
    ]);
    expect(seen).toEqual([
      {
        meta: { topic: 'in', partition: 0, offset: 0 },
        task: '0_0',
        app: 'papi',
        streamTime: 7,
        headers: { trace: 'x' },
      },
      {
        meta: { topic: 'in', partition: 0, offset: 1 },
        task: '0_0',
        app: 'papi',
        streamTime: 7,
        headers: {},
      },
    ]);
  });

  it('forwarding to an unknown child is a processing error (log-and-continue: dropped and counted)', () => {
    const built = app(
      () => {
        let ctx: Ctx;
        return { init: (c) => void (ctx = c), process: (r) => ctx.forward(r, 'nope') };
      },
      { config: { 'processing.exception.handler': 'log-and-continue' } },
    );
    const driver = createTestDriver(built);
    driver.pipeInput('in', 'k', 'v', 1);
    expect(driver.errors()[0]?.message).toMatch(/unknown downstream node: "nope".*to-a, to-b/);
    expect(driver.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);
  });

  it('gives access only to connected stores; puts are visible to the next record and in the store', () => {
    let denied = '';
    const built = app(() => {
      let store: KeyValueStore<string, number>;
      return {
        init(c) {
          store = c.getStateStore('seen');
          try {
            c.getStateStore('other');
          } catch (error) {
            denied = (error as Error).message;
          }
        },
        process(r) {
          const n = (store.get(r.key) ?? 0) + 1;
          store.put(r.key, n);
        },
      };
    });
    const driver = createTestDriver(built);
    for (const k of ['x', 'y', 'x']) driver.pipeInput('in', k, '', 1);
    expect(denied).toMatch(
      /^Processor .+ has no access to StateStore other as the store is not connected to the processor\./,
    );
    expect(driver.getKeyValueStore('seen').get('x')).toBe(2);
    expect(driver.getKeyValueStore('seen').get('y')).toBe(1);
  });

  it("logs a store's deletes with the current record's timestamp, or the punctuation's in a punctuator (Kafka's record context)", () => {
    const built = app(() => {
      let store: KeyValueStore<string, number>;
      return {
        init(c) {
          store = c.getStateStore('seen');
          c.schedule(100, 'WALL_CLOCK_TIME', () => {
            for (const { key } of store.all()) store.delete(key);
          });
        },
        process(r) {
          if (r.value === 'delete') store.delete(r.key);
          else if (r.value === 'null') store.put(r.key, null);
          else store.put(r.key, 1);
        },
      };
    });
    const driver = createTestDriver(built, { now: () => 0 });
    driver.pipeInput('in', 'x', '', 5);
    driver.pipeInput('in', 'y', '', 6);
    driver.pipeInput('in', 'x', 'delete', 3);
    driver.pipeInput('in', 'y', 'null', 4);
    driver.pipeInput('in', 'z', '', 7);
    driver.advanceWallClockTime(250);
    const changelog = driver
      .readRawOutput('papi-seen-changelog')
      .map((r) => [Buffer.from(r.key!).toString(), r.value === null ? null : 1, r.timestamp]);
    expect(changelog).toEqual([
      ['x', 1, 5],
      ['y', 1, 6],
      ['x', null, 3],
      ['y', null, 4],
      ['z', 1, 7],
      // A wall-clock punctuation's timestamp is the clock when it fires (PunctuationQueue's now).
      ['z', null, 250],
    ]);
  });

  it('STREAM_TIME punctuation is aligned to 0, fires as soon as there is data, advances only with records and skips missed intervals', () => {
    const fired: number[] = [];
    const built = app(() => ({
      init: (c) => void c.schedule(10, 'STREAM_TIME', (ts) => fired.push(ts)),
      process: () => undefined,
    }));
    const driver = createTestDriver(built);
    driver.advanceWallClockTime(1_000_000); // wall-clock time does not move stream time
    expect(fired).toEqual([]);
    for (const ts of [5, 8, 12, 11, 45]) driver.pipeInput('in', 'k', '', ts);
    // due 0 fires at 5 → next 10; 12 fires → next 20; 45 fires once for the gap → next 50.
    expect(fired).toEqual([5, 12, 45]);
  });

  it('WALL_CLOCK_TIME punctuation can be cancelled; forwards from a punctuator carry no input metadata', () => {
    const metadata: unknown[] = [];
    const built = app(() => {
      let ticks = 0;
      return {
        init(c) {
          const schedule = c.schedule(100, 'WALL_CLOCK_TIME', (ts) => {
            metadata.push(c.recordMetadata());
            c.forward({ key: 'tick', value: ++ticks, timestamp: ts, headers: {} }, 'to-a');
            if (ticks === 2) schedule.cancel();
          });
        },
        process: () => undefined,
      };
    });
    const driver = createTestDriver(built, { now: () => 0 });
    for (let i = 0; i < 5; i++) driver.advanceWallClockTime(100);
    expect(driver.readOutput('a').map((r) => [r.value, r.timestamp])).toEqual([
      [1, 100],
      [2, 200],
    ]);
    expect(metadata).toEqual([null, null]);
  });

  it('calls close() when the driver closes; a throwing process() goes to the processing handler', () => {
    let closed = false;
    const built = app(() => ({
      process(r) {
        if (r.value === 'boom') throw new Error('bad record');
      },
      close: () => void (closed = true),
    }));
    const driver = createTestDriver(built);
    expect(() => driver.pipeInput('in', 'k', 'boom', 1)).toThrow(/bad record/);
    expect(driver.errors()[0]).toMatchObject({
      processor: 'custom',
      handling: 'fail',
      message: 'bad record',
    });
    driver.close();
    expect(closed).toBe(true);
  });

  it('processValues keeps the key (FixedKeyProcessor)', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
      .processValues<number>(() => {
        let ctx: FixedKeyProcessorContext<string, number>;
        return {
          init: (c) => void (ctx = c),
          process: (r) => ctx.forward({ ...r, value: r.value.length }),
        };
      })
      .to('lengths', Produced.with(Serdes.String(), Serdes.Integer()));
    const driver = createTestDriver(builder.build({ applicationId: 'pv' }));
    driver.pipeInput('in', 'word', 'hello', 1);
    expect(driver.readOutput('lengths').map((r) => [r.key, r.value])).toEqual([['word', 5]]);
  });
});
