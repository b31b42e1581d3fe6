// DSL programs with windows, suppression and joins, each written twice — logic as CEL and as
// TypeScript functions: the CEL build's document runs on Apache Kafka Streams 4.1
// (tools/ks-oracle); both builds run on our test driver. Same records, same describe().
import { runOracle, type OracleResult } from '@streamwright/ks-oracle';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BufferConfig,
  Consumed,
  EmitStrategy,
  Grouped,
  JoinWindows,
  Joined,
  KeyValue,
  Materialized,
  Named,
  Produced,
  Serdes,
  SessionWindows,
  SlidingWindows,
  StreamJoined,
  StreamsBuilder,
  Suppressed,
  TimeWindows,
  type BuiltTopology,
  WindowedSerdes,
  type Windowed,
} from '../src/index.js';
import { createOracleTestDriver as createTestDriver } from './fixtures/oracle-driver.js';

type Click = { t: number };
type Pick = <F>(cel: string, fn: F) => never;
const picker =
  (useCel: boolean): Pick =>
  (cel, fn) =>
    (useCel ? cel : fn) as never;

const windowKey = (p: Pick) =>
  p(
    '{"key": key.key + "@" + string(key.start) + "/" + string(key.end), "value": value}',
    (k: Windowed<string>, v: unknown) => KeyValue.pair(`${k.key}@${k.start}/${k.end}`, v),
  );

function windowsProgram(useCel: boolean): BuiltTopology {
  const p = picker(useCel);
  const builder = new StreamsBuilder();
  const clicks = builder.stream('clicks', Consumed.with(Serdes.String(), Serdes.Json<Click>()));
  const grouped = clicks.groupByKey(Grouped.with(Serdes.String(), Serdes.Json<Click>()));
  grouped
    .windowedBy(TimeWindows.ofSizeAndGrace(5000, 2000).advanceBy(2500))
    .count(Materialized.with(Serdes.String(), Serdes.Long()).withRetention(20000))
    .toStream()
    .map(windowKey(p))
    .to('hopping', Produced.with(Serdes.String(), Serdes.Long()));
  grouped
    .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(5000, 3000))
    .reduce(
      p('{"t": agg.t + value.t}', (a: Click, v: Click) => ({ t: a.t + v.t })),
      Named.as('slide'),
    )
    .toStream()
    .map(windowKey(p))
    .to('sliding', Produced.with(Serdes.String(), Serdes.Json()));
  grouped
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(3000, 2000))
    .aggregate(
      p('0', () => 0),
      p('agg + value.t', (_k: string, v: Click, agg: number) => agg + v.t),
      p('agg + value', (_k: string, a: number, b: number) => a + b),
      Materialized.as('sessions'),
    )
    .toStream()
    .map(windowKey(p))
    .to('sessions', Produced.with(Serdes.String(), Serdes.Json()));
  grouped
    .windowedBy(TimeWindows.ofSizeAndGrace(5000, 1000))
    .count()
    .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName('final'))
    .toStream()
    .map(windowKey(p))
    .to('final', Produced.with(Serdes.String(), Serdes.Long()));
  grouped
    .windowedBy(TimeWindows.ofSizeWithNoGrace(10000))
    .emitStrategy(EmitStrategy.onWindowClose())
    .count()
    .toStream()
    .map(windowKey(p))
    .to('closed', Produced.with(Serdes.String(), Serdes.Long()));
  grouped
    .windowedBy(TimeWindows.ofSizeWithNoGrace(4000))
    .count()
    .suppress(Suppressed.untilTimeLimit(3000, BufferConfig.maxRecords(2).emitEarlyWhenFull()))
    .toStream()
    .map(windowKey(p))
    .to('limited', Produced.with(Serdes.String(), Serdes.Long()));
  // Windowed keys as Kafka writes them (TimeWindowedSerde / SessionWindowedSerde).
  grouped
    .windowedBy(TimeWindows.ofSizeWithNoGrace(5000))
    .count()
    .toStream()
    .to(
      'time-keys',
      Produced.with(WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 5000), Serdes.Long()),
    );
  grouped
    .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(2000))
    .count()
    .toStream()
    .to(
      'session-keys',
      Produced.with(WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String()), Serdes.Long()),
    );
  // Windowed cogroups (CogroupedKStream#windowedBy), time and session windows.
  const views = builder
    .stream('views', Consumed.with(Serdes.String(), Serdes.Json<Click>()))
    .groupByKey();
  type Both = { c: number; v: number };
  const both = p('{"c": 0, "v": 0}', () => ({ c: 0, v: 0 }));
  const addClick = p('{"c": agg.c + 1, "v": agg.v}', (_k: string, _v: Click, a: Both) => ({
    c: a.c + 1,
    v: a.v,
  }));
  const addView = p('{"c": agg.c, "v": agg.v + 1}', (_k: string, _v: Click, a: Both) => ({
    c: a.c,
    v: a.v + 1,
  }));
  grouped
    .cogroup<Both>(addClick)
    .cogroup(views, addView)
    .windowedBy(TimeWindows.ofSizeAndGrace(5000, 1000))
    .aggregate(both, Materialized.with(Serdes.String(), Serdes.Json<Both>()).withRetention(20000))
    .toStream()
    .map(windowKey(p))
    .to('co-time', Produced.with(Serdes.String(), Serdes.Json()));
  grouped
    .cogroup<Both>(addClick)
    .cogroup(views, addView)
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(2000, 500))
    .aggregate(
      both,
      p('{"c": agg.c + value.c, "v": agg.v + value.v}', (_k: string, a: Both, b: Both) => ({
        c: a.c + b.c,
        v: a.v + b.v,
      })),
      Named.as('co-sessions'),
    )
    .toStream()
    .map(windowKey(p))
    .to('co-session', Produced.with(Serdes.String(), Serdes.Json()));
  return builder.build({ applicationId: 'dsl-windows' });
}

function joinsProgram(useCel: boolean): BuiltTopology {
  const p = picker(useCel);
  const pair = p('{"l": left, "r": right}', (l: unknown, r: unknown) => ({ l, r }));
  const builder = new StreamsBuilder();
  const json = Consumed.with(Serdes.String(), Serdes.Json());
  const orders = builder.stream('orders', json);
  const payments = builder.stream('payments', json);
  const users = builder.table('users', json);
  const items = builder.globalTable('items', json);
  const a = builder.table('a', json);
  const b = builder.table('b', json);
  const out = Produced.with(Serdes.String(), Serdes.Json());
  orders
    .join(users, pair, Joined.with(Serdes.String(), Serdes.Json(), Serdes.Json()))
    .to('o-users', out);
  orders.leftJoin(users, pair, Joined.as('orders-users-left')).to('o-users-left', out);
  orders
    .leftJoin(
      payments,
      pair,
      JoinWindows.ofTimeDifferenceAndGrace(1000, 500).after(2000),
      StreamJoined.with(Serdes.String(), Serdes.Json(), Serdes.Json()),
    )
    .to('o-payments', out);
  orders
    .outerJoin(
      payments,
      pair,
      JoinWindows.ofTimeDifferenceWithNoGrace(1000).before(0),
      StreamJoined.as('opo'),
    )
    .to('o-payments-outer', out);
  orders
    .join(payments, pair, JoinWindows.ofTimeDifferenceAndGrace(1500, 0))
    .to('o-payments-inner', out);
  orders
    .join(
      items,
      p('value.item', (_k: string, v: { item: string }) => v.item),
      pair,
    )
    .to('o-items', out);
  orders
    .leftJoin(
      items,
      p('value.item', (_k: string, v: { item: string }) => v.item),
      pair,
      Named.as('gl'),
    )
    .to('o-items-left', out);
  orders
    .join(
      payments,
      p('{"k": key, "l": left, "r": right}', (k: string, l: unknown, r: unknown) => ({ k, l, r })),
      JoinWindows.ofTimeDifferenceWithNoGrace(5000),
    )
    .to('o-payments-with-key', out);
  a.join(b, pair).toStream().to('ab-inner', out);
  a.leftJoin(b, pair, Materialized.as('ab-left')).toStream().to('ab-left', out);
  a.outerJoin(b, pair, Named.as('ab-outer')).toStream().to('ab-outer', out);
  return builder.build({ applicationId: 'dsl-joins' });
}

const clickInputs = [1000, 3000, 4000, 6000, 2000, 8000, 2500, 12000, 7000, 30000].flatMap(
  (t, i) => [
    { topic: 'clicks', key: i % 3 === 0 ? 'b' : 'a', value: { t }, timestamp: t },
    ...(i % 2 === 0
      ? [{ topic: 'views', key: i % 4 === 0 ? 'a' : 'b', value: { t }, timestamp: t + 700 }]
      : []),
  ],
);
const joinInputs = (
  [
    ['users', 'k', { name: 'ann' }, 0],
    ['items', 'i1', { origin: 'SH' }, 0],
    ['a', 'k', 1, 0],
    ['orders', 'k', { item: 'i1' }, 1000],
    ['payments', 'k', { paid: 1 }, 1500],
    ['orders', 'x', { item: 'i9' }, 2000],
    ['b', 'k', 2, 2100],
    ['users', 'k', null, 2200],
    ['orders', 'k', { item: 'i1' }, 2300],
    ['payments', 'x', { paid: 2 }, 5000],
    ['a', 'k', null, 5100],
    ['orders', 'y', { item: 'i1' }, 9000],
    ['payments', 'z', { paid: 3 }, 20000],
  ] as const
).map(([topic, key, value, timestamp]) => ({ topic, key, value, timestamp }));

const programs = [
  {
    name: 'windows',
    build: windowsProgram,
    inputs: clickInputs,
    outputs: [
      'hopping',
      'sliding',
      'sessions',
      'final',
      'closed',
      'limited',
      'time-keys',
      'session-keys',
      'co-time',
      'co-session',
    ],
  },
  {
    name: 'joins',
    build: joinsProgram,
    inputs: joinInputs,
    outputs: [
      'o-users',
      'o-users-left',
      'o-payments',
      'o-payments-outer',
      'o-payments-inner',
      'o-payments-with-key',
      'o-items',
      'o-items-left',
      'ab-inner',
      'ab-left',
      'ab-outer',
    ],
  },
];

function ours(built: BuiltTopology, program: (typeof programs)[number]) {
  const driver = createTestDriver(built);
  for (const r of program.inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  const out = Object.fromEntries(
    program.outputs.map((t) => [
      t,
      driver.readOutput(t).map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ]),
  );
  driver.close();
  return out;
}

describe('DSL windows, suppression and joins, with CEL or TypeScript, against Kafka Streams', () => {
  let references: OracleResult[];
  beforeAll(async () => {
    references = await runOracle(
      programs.map((p) => ({
        name: p.name,
        topology: p.build(true).document,
        inputs: p.inputs,
        outputs: p.outputs,
      })),
    );
  }, 300_000);

  for (const [i, program] of programs.entries()) {
    it(`${program.name}: describe() and records equal Kafka Streams' either way`, () => {
      const reference = references[i]!;
      expect(reference.error).toBeUndefined();
      for (const [topic, records] of Object.entries(reference.outputs ?? {}))
        expect(records.length, `${topic} has records`).toBeGreaterThan(0);
      expect(program.build(true).describe()).toBe(reference.describe);
      expect(program.build(false).describe()).toBe(reference.describe);
      expect(ours(program.build(true), program)).toEqual(reference.outputs);
      expect(ours(program.build(false), program)).toEqual(reference.outputs);
    });
  }

  it('writes the documented topology kinds and configs', () => {
    const doc = windowsProgram(true).document as { nodes: { kind: string; config: object }[] };
    const configs = (kind: string) => doc.nodes.filter((n) => n.kind === kind).map((n) => n.config);
    expect(configs('windowedBy')).toEqual([
      { window: { type: 'hopping', sizeMs: 5000, advanceMs: 2500, graceMs: 2000 } },
      { window: { type: 'sliding', timeDifferenceMs: 5000, graceMs: 3000 } },
      { window: { type: 'session', gapMs: 3000, graceMs: 2000 } },
      { window: { type: 'tumbling', sizeMs: 5000, graceMs: 1000 } },
      { window: { type: 'tumbling', sizeMs: 10000, graceMs: 0 }, emitStrategy: 'onWindowClose' },
      { window: { type: 'tumbling', sizeMs: 4000, graceMs: 0 } },
      { window: { type: 'tumbling', sizeMs: 5000, graceMs: 0 } },
      { window: { type: 'session', gapMs: 2000, graceMs: 0 } },
    ]);
    expect(
      doc.nodes
        .filter((n) => n.kind === 'sink')
        .map((n) => n.config)
        .slice(-4, -2),
    ).toEqual([
      {
        topic: 'time-keys',
        keySerde: 'string',
        valueSerde: 'long',
        windowedKey: 'time',
        windowSizeMs: 5000,
      },
      {
        topic: 'session-keys',
        keySerde: 'string',
        valueSerde: 'long',
        windowedKey: 'session',
      },
    ]);
    expect(configs('windowedCount')[0]).toEqual({ keySerde: 'string', retentionMs: 20000 });
    expect(configs('suppress')).toEqual([
      { until: 'windowCloses', whenFull: 'shutDown' },
      { until: 'timeLimit', timeLimitMs: 3000, whenFull: 'emitEarly', maxRecords: 2 },
    ]);
    expect(
      configs('cogroup').map((c) => {
        const { inputs: _inputs, initializer: _init, ...rest } = c as Record<string, unknown>;
        return rest;
      }),
    ).toEqual([
      {
        window: { type: 'tumbling', sizeMs: 5000, graceMs: 1000 },
        keySerde: 'string',
        valueSerde: 'json',
        retentionMs: 20000,
      },
      {
        window: { type: 'session', gapMs: 2000, graceMs: 500 },
        merger: '{"c": agg.c + value.c, "v": agg.v + value.v}',
      },
    ]);
    const joins = joinsProgram(true).document as { nodes: { kind: string; config: object }[] };
    const streamJoins = joins.nodes.filter((n) => n.kind === 'streamStreamJoin');
    expect(streamJoins[0]?.config).toEqual({
      type: 'left',
      window: { beforeMs: 1000, afterMs: 2000, graceMs: 500 },
      keySerde: 'string',
      valueSerde: 'json',
      otherValueSerde: 'json',
      joiner: '{"l": left, "r": right}',
    });
    // StreamJoined.as(storeName) names the stores (Kafka's withStoreName), not the processors.
    expect(streamJoins[1]?.config).toMatchObject({ type: 'outer', storeName: 'opo' });
  });

  it('refuses what Kafka Streams refuses', () => {
    expect(() => TimeWindows.ofSizeAndGrace(1000, 0).advanceBy(2000)).toThrow(
      /Window advancement interval should be more than zero and less than window duration/,
    );
    expect(() => Suppressed.untilWindowCloses(BufferConfig.maxRecords(3))).toThrow(/strict buffer/);
    const builder = new StreamsBuilder();
    builder
      .stream('s')
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeAndGrace(5000, 2000))
      .count(Materialized.as<string, number>('w').withRetention(6000));
    expect(() => builder.build({ applicationId: 'r' })).toThrow(
      /The retention period of the window store w must be no smaller than its window size plus the grace period/,
    );
  });
});
