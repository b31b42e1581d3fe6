// A DSL program written twice — logic as CEL and logic as TypeScript functions — must behave
// like Kafka Streams: the CEL build runs on Apache Kafka Streams 4.1 (tools/ks-oracle); both builds
// run on our test driver; all three must emit the same records, and describe() must match.
import { runOracle } from '@streamwright/ks-oracle';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Branched,
  Consumed,
  Grouped,
  KeyValue,
  Materialized,
  Named,
  Produced,
  Serdes,
  StreamsBuilder,
  type BuiltTopology,
} from '../src/index.js';
import { createOracleTestDriver as createTestDriver } from './fixtures/oracle-driver.js';

interface Order {
  user: string;
  amount: number;
}

/** `cel` picks the CEL text or the equivalent TypeScript function for every logic parameter. */
function program(useCel: boolean): BuiltTopology {
  const pick = <F>(cel: string, fn: F): string | F => (useCel ? cel : fn);
  const builder = new StreamsBuilder();
  const orders = builder.stream('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()));
  const branches = orders
    .filter(pick('value != null', (_k: string | null, o: Order | null) => o !== null) as never)
    .split(Named.as('by-size-'))
    .branch(
      pick('value.amount >= 100', (_k: string, o: Order) => o.amount >= 100) as never,
      Branched.as('big'),
    )
    .defaultBranch(Branched.as('small'));
  branches
    .get('by-size-big')!
    .map(
      pick('{"key": value.user, "value": value.amount}', (_k: string, o: Order) =>
        KeyValue.pair(o.user, o.amount),
      ) as never,
    )
    .groupByKey(Grouped.with(Serdes.Json(), Serdes.Json()))
    .reduce(
      pick('agg + value', (agg: number, v: number) => agg + v) as never,
      Materialized.as('big-totals'),
    )
    .toStream()
    .to('big-totals', Produced.with(Serdes.Json(), Serdes.Json()));
  branches
    .get('by-size-small')!
    .groupBy(
      pick('value.user', (_k: string, o: Order) => o.user) as never,
      Grouped.as('small-by-user'),
    )
    .aggregate(
      pick('0', () => 0) as never,
      pick('agg + 1', (_k: unknown, _o: Order, n: number) => n + 1) as never,
      Materialized.as('small-counts'),
    )
    .filter(pick('value % 2 == 1', (_k: unknown, n: number) => n % 2 === 1) as never)
    .toStream()
    .to('odd-small-counts', Produced.with(Serdes.Json(), Serdes.Json()));
  return builder.build({ applicationId: 'dsl-vs-kafka' });
}

const inputs = [
  ['o1', { user: 'ann', amount: 120 }, 5],
  ['o2', { user: 'bob', amount: 20 }, 3],
  ['o3', null, 4],
  ['o4', { user: 'bob', amount: 30 }, 9],
  [null, { user: 'ann', amount: 300 }, 8],
  ['o6', { user: 'bob', amount: 40 }, 7],
  ['o7', { user: 'ann', amount: 150 }, 12],
].map(([key, value, timestamp]) => ({
  topic: 'orders',
  key,
  value,
  timestamp: timestamp as number,
}));
const outputs = ['big-totals', 'odd-small-counts'];

function ours(built: BuiltTopology) {
  const driver = createTestDriver(built);
  for (const r of inputs) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  return Object.fromEntries(
    outputs.map((t) => [
      t,
      driver.readOutput(t).map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ]),
  );
}

describe('a DSL program, with CEL or with TypeScript functions, against Kafka Streams', () => {
  let reference: Awaited<ReturnType<typeof runOracle>>[number] | undefined;
  beforeAll(async () => {
    [reference] = await runOracle([
      { name: 'dsl', topology: program(true).document, inputs, outputs },
    ]);
  }, 300_000);

  it('the CEL build has no function references; the TypeScript build has nothing but', () => {
    expect(Object.keys(program(true).functions)).toEqual([]);
    expect(JSON.stringify(program(false).document)).toContain('"function"');
  });

  it('emits exactly Kafka Streams’ records either way', () => {
    expect(reference!.error).toBeUndefined();
    expect(Object.values(reference!.outputs ?? {}).every((r) => r.length > 0)).toBe(true);
    expect(ours(program(true))).toEqual(reference!.outputs);
    expect(ours(program(false))).toEqual(reference!.outputs);
  });

  it('describes like Kafka Streams', () => {
    expect(program(true).describe()).toBe(reference!.describe);
  });
});
