// The DSL's foreign-key joins (KTable#join / leftJoin(other, foreignKeyExtractor, joiner,
// TableJoined, Materialized)), written twice — logic as CEL and as TypeScript functions: the CEL
// build's document runs on Apache Kafka Streams 4.1 (tools/ks-oracle); both builds run on our
// test driver. Same records, same describe().
import { runOracle, type OracleResult } from '@streamwright/ks-oracle';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  Consumed,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  TableJoined,
  type BuiltTopology,
} from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

type Order = { product?: string; qty: number };
type Product = { name: string };
type Pick = <F>(cel: string, fn: F) => never;
const picker =
  (useCel: boolean): Pick =>
  (cel, fn) =>
    (useCel ? cel : fn) as never;

function program(useCel: boolean): BuiltTopology {
  const p = picker(useCel);
  const builder = new StreamsBuilder();
  const orders = builder.table('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()));
  const products = builder.table(
    'products',
    Consumed.with(Serdes.String(), Serdes.Json<Product>()),
  );
  const out = Produced.with(Serdes.String(), Serdes.Json());
  orders
    .join(
      products,
      p('"product" in value ? value.product : null', (o: Order) => o.product ?? null),
      p('{"qty": left.qty, "name": right.name}', (o: Order, pr: Product) => ({
        qty: o.qty,
        name: pr.name,
      })),
    )
    .toStream()
    .to('inner', out);
  orders
    .leftJoin(
      products,
      p('"product" in value ? value.product : null', (_k: string, o: Order) => o.product ?? null),
      p(
        '{"qty": left.qty, "name": right == null ? null : right.name}',
        (o: Order, pr: Product | null) => ({
          qty: o.qty,
          name: pr === null ? null : pr.name,
        }),
      ),
      TableJoined.as('enrich'),
      Materialized.as('enriched'),
    )
    .toStream()
    .to('left', out);
  return builder.build({ applicationId: 'dsl-fk' });
}

const inputs = (
  [
    ['products', 'p1', { name: 'apple' }, 1000],
    ['orders', 'o1', { product: 'p1', qty: 1 }, 2000],
    ['orders', 'o2', { product: 'p1', qty: 2 }, 2100],
    ['orders', 'o3', { qty: 3 }, 2200],
    ['products', 'p1', { name: 'green apple' }, 3000],
    ['orders', 'o1', { product: 'p2', qty: 1 }, 3100],
    ['products', 'p2', { name: 'pear' }, 3200],
    ['products', 'p1', null, 3300],
    ['orders', 'o1', null, 3400],
  ] as const
).map(([topic, key, value, timestamp]) => ({ topic, key, value, timestamp }));
const outputs = ['inner', 'left'];

type Input = { topic: string; key: string; value: unknown; timestamp: number };

function ours(built: BuiltTopology, records: readonly Input[] = inputs, topics = outputs) {
  const driver = createTestDriver(built);
  for (const r of records) driver.pipeInput(r.topic, r.key, r.value, r.timestamp);
  const out = Object.fromEntries(
    topics.map((t) => [
      t,
      driver.readOutput(t).map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp })),
    ]),
  );
  driver.close();
  return out;
}

describe('DSL foreign-key joins, with CEL or TypeScript, against Kafka Streams', () => {
  let reference: OracleResult;
  beforeAll(async () => {
    [reference] = (await runOracle([
      { name: 'fk', topology: program(true).document, inputs, outputs },
    ])) as [OracleResult];
  }, 300_000);

  it("describe() and records equal Kafka Streams' either way", () => {
    expect(reference.error).toBeUndefined();
    for (const [topic, records] of Object.entries(reference.outputs ?? {}))
      expect(records.length, `${topic} has records`).toBeGreaterThan(0);
    expect(program(true).describe()).toBe(reference.describe);
    expect(program(false).describe()).toBe(reference.describe);
    expect(ours(program(true))).toEqual(reference.outputs);
    expect(ours(program(false))).toEqual(reference.outputs);
  });

  it('writes a foreignKeyJoin node', () => {
    const doc = program(true).document as {
      nodes: { kind: string; name?: string; config: object }[];
    };
    const fk = doc.nodes.filter((n) => n.kind === 'foreignKeyJoin');
    expect(fk.map((n) => [n.name, n.config])).toEqual([
      [
        undefined,
        {
          type: 'inner',
          foreignKeyExtractor: '"product" in value ? value.product : null',
          joiner: '{"qty": left.qty, "name": right.name}',
        },
      ],
      [
        'enrich',
        {
          type: 'left',
          store: 'enriched',
          foreignKeyExtractor: '"product" in value ? value.product : null',
          joiner: '{"qty": left.qty, "name": right == null ? null : right.name}',
        },
      ],
    ]);
  });
});

type Stocked = { name: string; stock: number };

/**
 * The tables pass through unmaterialized filter / filterNot / mapValues before the joins: Kafka
 * reads both sides through those getters (the TypeScript build's getters are functions).
 */
function filteredProgram(useCel: boolean): BuiltTopology {
  const p = picker(useCel);
  const builder = new StreamsBuilder();
  const orders = builder.table('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()));
  const products = builder.table(
    'products',
    Consumed.with(Serdes.String(), Serdes.Json<Stocked>()),
  );
  const out = Produced.with(Serdes.String(), Serdes.Json());
  const cheap = orders.filter(p('value.qty < 10', (_k: string, o: Order) => o.qty < 10));
  const labelled = products
    .filterNot(p('value.stock == 0', (_k: string, pr: Stocked) => pr.stock === 0))
    .mapValues(p('{"label": value.name}', (pr: Stocked) => ({ label: pr.name })));
  cheap
    .join(
      labelled,
      p('"product" in value ? value.product : null', (o: Order) => o.product ?? null),
      p('{"qty": left.qty, "label": right.label}', (o: Order, pr: { label: string }) => ({
        qty: o.qty,
        label: pr.label,
      })),
    )
    .toStream()
    .to('inner', out);
  cheap
    .mapValues(
      p('{"item": value.product, "n": value.qty}', (o: Order) => ({
        item: o.product,
        n: o.qty,
      })),
    )
    .leftJoin(
      labelled,
      p('value.item', (o: { item: string }) => o.item),
      p(
        '{"n": left.n, "label": right == null ? null : right.label}',
        (o: { n: number }, pr: { label: string } | null) => ({
          n: o.n,
          label: pr === null ? null : pr.label,
        }),
      ),
    )
    .toStream()
    .to('left', out);
  return builder.build({ applicationId: 'dsl-fk-filtered' });
}

const filteredInputs = (
  [
    ['products', 'p1', { name: 'apple', stock: 5 }, 1000],
    ['products', 'p2', { name: 'pear', stock: 0 }, 1100],
    ['orders', 'o1', { product: 'p1', qty: 1 }, 2000],
    ['orders', 'o2', { product: 'p2', qty: 2 }, 2100],
    ['orders', 'o3', { product: 'p1', qty: 30 }, 2200],
    // o1 leaves the filter (a delete), p2 comes into stock, p1 runs out.
    ['orders', 'o1', { product: 'p1', qty: 12 }, 2300],
    ['products', 'p2', { name: 'pear', stock: 3 }, 2400],
    ['products', 'p1', { name: 'apple', stock: 0 }, 2500],
    ['orders', 'o3', { product: 'p2', qty: 3 }, 2600],
    ['products', 'p2', null, 2700],
    ['orders', 'o2', null, 2800],
  ] as const
).map(([topic, key, value, timestamp]) => ({ topic, key, value, timestamp }));

describe('DSL foreign-key joins through filter / mapValues tables, against Kafka Streams', () => {
  let reference: OracleResult;
  beforeAll(async () => {
    [reference] = (await runOracle([
      {
        name: 'fk-filtered',
        topology: filteredProgram(true).document,
        inputs: filteredInputs,
        outputs,
      },
    ])) as [OracleResult];
  }, 300_000);

  it("describe() and records equal Kafka Streams' with CEL or TypeScript getters", () => {
    expect(reference.error).toBeUndefined();
    for (const [topic, records] of Object.entries(reference.outputs ?? {}))
      expect(records.length, `${topic} has records`).toBeGreaterThan(0);
    expect(filteredProgram(true).describe()).toBe(reference.describe);
    expect(filteredProgram(false).describe()).toBe(reference.describe);
    expect(ours(filteredProgram(true), filteredInputs)).toEqual(reference.outputs);
    expect(ours(filteredProgram(false), filteredInputs)).toEqual(reference.outputs);
  });
});
