// The DSL writes a topology document: CEL stays text (editable in the designer), TypeScript
// functions become named references into the in-process registry, options map to the node
// configs, and the result runs unchanged on the test driver and exports as canonical JSON.
import { exportTopology, importTopology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import {
  Branched,
  Consumed,
  Grouped,
  KeyValue,
  Materialized,
  Named,
  Printed,
  Produced,
  Repartitioned,
  Serdes,
  Stores,
  StreamsBuilder,
  TimeWindows,
  type KStream,
} from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

interface Order {
  user: string;
  amount: number;
}

const nodeOf = (built: { document: { nodes?: unknown[] } }, kind: string) =>
  (
    built.document.nodes as {
      id: string;
      kind: string;
      name?: string;
      config: Record<string, unknown>;
    }[]
  ).find((n) => n.kind === kind)!;

describe('StreamsBuilder → topology document', () => {
  it('keeps CEL as text and names TypeScript functions (own name, else <node id>.<field>)', () => {
    const builder = new StreamsBuilder();
    function isLarge(_key: string, order: Order): boolean {
      return order.amount > 100;
    }
    builder
      .stream('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()))
      .filter(isLarge)
      .filterNot('value.user == "u3"')
      .mapValues((order) => ({ user: order.user, total: order.amount * 2 }), Named.as('shape'))
      .to('big', Produced.with(Serdes.String(), Serdes.Json()));
    const built = builder.build({
      applicationId: 'orders',
      topics: [{ name: 'orders', partitions: 3 }],
    });
    expect(nodeOf(built, 'filter').config['expression']).toEqual({ function: 'isLarge' });
    expect(nodeOf(built, 'filterNot').config['expression']).toBe('value.user == "u3"');
    const map = nodeOf(built, 'mapValues');
    expect(map.name).toBe('shape');
    expect(map.config['expression']).toEqual({ function: `${map.id}.expression` });
    expect(Object.keys(built.functions).sort()).toEqual([`${map.id}.expression`, 'isLarge'].sort());
    expect(built.document.topics).toEqual([
      { name: 'orders', partitions: 3, config: {} },
      { name: 'big', partitions: 1, config: {} },
    ]);

    // Runs as written, and the exported JSON round-trips (functions stay references).
    const driver = createTestDriver(built);
    driver.pipeInput('orders', 'o1', { user: 'u1', amount: 150 }, 1);
    driver.pipeInput('orders', 'o2', { user: 'u3', amount: 500 }, 2);
    driver.pipeInput('orders', 'o3', { user: 'u2', amount: 50 }, 3);
    expect(driver.readOutput('big').map((r) => [r.key, r.value])).toEqual([
      ['o1', { user: 'u1', total: 300 }],
    ]);
    const json = exportTopology(built.topology);
    const back = importTopology(json);
    expect(back.ok && exportTopology(back.topology)).toBe(json);
    expect(built.describe()).toContain('Processor: shape (stores: [])');
  });

  it('split returns branches by name (split name + branch name or position; default "0"), with Branched functions', () => {
    const builder = new StreamsBuilder();
    const branches = builder
      .stream('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()))
      .split(Named.as('route-'))
      .branch((_k, o) => o.amount > 100, Branched.as('big'))
      .branch(
        'value.amount > 10',
        Branched.withFunction((s: KStream<string, Order>) =>
          s.filter((_k, o) => o.user !== 'skip'),
        ),
      )
      .defaultBranch();
    expect([...branches.keys()]).toEqual(['route-big', 'route-2', 'route-0']);
    branches.get('route-big')!.to('big');
    branches
      .get('route-2')!
      .mapValues((o) => o.amount)
      .to('mid', Produced.with(Serdes.String(), Serdes.Long()));
    branches.get('route-0')!.to('small');
    const driver = createTestDriver(builder.build({ applicationId: 'split' }));
    for (const [k, amount] of [
      ['a', 500],
      ['b', 50],
      ['c', 5],
    ] as const)
      driver.pipeInput('orders', k, { user: 'u', amount }, 1);
    expect(driver.readOutput('big').map((r) => r.key)).toEqual(['a']);
    expect(driver.readOutput('mid').map((r) => [r.key, r.value])).toEqual([['b', 50]]);
    expect(driver.readOutput('small').map((r) => r.key)).toEqual(['c']);
    expect(driver.plan.subtopologies[0]!.nodes.map((n) => n.name)).toContain('route-big');
  });

  it('groupBy with Grouped, aggregate with Materialized, repartition, merge, flatMapValues, print and peek', () => {
    const printed: string[] = [];
    const peeked: string[] = [];
    const builder = new StreamsBuilder();
    const orders = builder.stream('orders', Consumed.with(Serdes.String(), Serdes.Json<Order>()));
    const refunds = builder.stream('refunds', Consumed.with(Serdes.String(), Serdes.Json<Order>()));
    const all = orders.merge(refunds.mapValues((o) => ({ ...o, amount: -o.amount })));
    all.print(
      Printed.toSysOut<string, Order>()
        .withLabel('all')
        .withKeyValueMapper((k, o) => `${k}:${o.amount}`),
    );
    all
      .peek((k) => peeked.push(k))
      .groupBy(
        (_k, o) => o.user,
        Grouped.with(Serdes.String(), Serdes.Json<Order>()).withName('by-user'),
      )
      .aggregate(
        () => 0,
        (_user, o, total: number) => total + o.amount,
        Materialized.as<string, number>('totals').withValueSerde(Serdes.Long()),
      )
      .toStream()
      .to('totals', Produced.with(Serdes.String(), Serdes.Long()));
    all
      .repartition(Repartitioned.as<string, Order>('spread').withNumberOfPartitions(4))
      .flatMapValues((o) => [o.user, o.user])
      .to('users');
    const built = builder.build({ applicationId: 'agg' });
    expect(built.topology.nodes.find((n) => n.kind === 'groupBy')?.name).toBe('by-user');
    expect(built.topology.nodes.find((n) => n.kind === 'repartition')?.config).toMatchObject({
      partitions: 4,
    });
    const driver = createTestDriver(built, { printLine: (l) => printed.push(l) });
    driver.pipeInput('orders', 'o1', { user: 'ann', amount: 10 }, 1);
    driver.pipeInput('refunds', 'r1', { user: 'ann', amount: 3 }, 2);
    driver.pipeInput('orders', 'o2', { user: 'bob', amount: 5 }, 3);
    expect(driver.readOutput('totals').map((r) => [r.key, r.value])).toEqual([
      ['ann', 10],
      ['ann', 7],
      ['bob', 5],
    ]);
    expect(driver.readOutput('users').map((r) => r.value)).toEqual([
      'ann',
      'ann',
      'ann',
      'ann',
      'bob',
      'bob',
    ]);
    expect(printed).toEqual(['[all]: o1:10', '[all]: r1:-3', '[all]: o2:5']);
    expect(peeked).toEqual(['o1', 'r1', 'o2']);
    expect(driver.getKeyValueStore('totals').get('ann')).toBe(7);
  });

  it('cogroup, KTable filter / mapValues / groupBy / count, globalTable, toTable', () => {
    const builder = new StreamsBuilder();
    const clicks = builder
      .stream('clicks', Consumed.with(Serdes.String(), Serdes.Long()))
      .groupByKey();
    const buys = builder.stream('buys', Consumed.with(Serdes.String(), Serdes.Long())).groupByKey();
    clicks
      .cogroup<{ clicks: number; buys: number }>((_k, v, agg) => ({
        ...agg,
        clicks: agg.clicks + v,
      }))
      .cogroup(buys, (_k, v, agg) => ({ ...agg, buys: agg.buys + v }))
      .aggregate(() => ({ clicks: 0, buys: 0 }), Materialized.as('activity'))
      .toStream()
      .to('activity');
    const users = builder.table(
      'users',
      Consumed.with(Serdes.String(), Serdes.Json<{ city: string; age: number }>()),
    );
    users
      .filter((_k, u) => u.age >= 18)
      .mapValues((u) => u.city)
      .groupBy((_k, city) => KeyValue.pair(city, 1), Grouped.with(Serdes.String(), Serdes.Long()))
      .count(Materialized.as('adults-per-city'))
      .toStream()
      .to('per-city', Produced.with(Serdes.String(), Serdes.Long()));
    const countries = builder.globalTable(
      'countries',
      Consumed.with(Serdes.String(), Serdes.String()),
      Materialized.as('countries'),
    );
    expect(countries.queryableStoreName()).toBe('countries');
    builder
      .stream('latest-in', Consumed.with(Serdes.String(), Serdes.String()))
      .toTable(Materialized.as('latest'));
    const driver = createTestDriver(builder.build({ applicationId: 'tables' }));
    driver.pipeInput('clicks', 'ann', 2, 1);
    driver.pipeInput('buys', 'ann', 1, 2);
    expect(driver.readOutput('activity').map((r) => r.value)).toEqual([
      { clicks: 2, buys: 0 },
      { clicks: 2, buys: 1 },
    ]);
    driver.pipeInput('users', 'u1', { city: 'oslo', age: 30 }, 1);
    driver.pipeInput('users', 'u2', { city: 'oslo', age: 12 }, 2);
    driver.pipeInput('users', 'u1', { city: 'rome', age: 31 }, 3);
    expect(driver.readOutput('per-city').map((r) => [r.key, r.value])).toEqual([
      ['oslo', 1],
      ['oslo', 0],
      ['rome', 1],
    ]);
    driver.pipeInput('countries', 'no', 'Norway', 1);
    expect(driver.getKeyValueStore('countries').get('no')).toBe('Norway');
    driver.pipeInput('latest-in', 'k', 'v1', 1);
    driver.pipeInput('latest-in', 'k', 'v2', 2);
    expect(driver.getKeyValueStore('latest').get('k')).toBe('v2');
  });

  it('reports every validation error of an invalid program', () => {
    const builder = new StreamsBuilder();
    builder.stream('in').process(() => ({ process: () => undefined }), 'no-such-store');
    expect(() => builder.build({ applicationId: 'bad' })).toThrow(
      /does not make a valid topology[\s\S]*no-such-store/,
    );
  });

  it('takes Materialized.as(a versioned store) wherever the result is a key-value table, as Kafka Streams 4.1 does', () => {
    const v = (name: string) =>
      Materialized.as<string, never>(Stores.persistentVersionedKeyValueStore(name, 1000));
    const builder = new StreamsBuilder();
    const t = builder.table('t', Consumed.with(Serdes.String(), Serdes.Long()));
    const f = t.filter('value > 1', v('f'));
    f.join(t, 'left + right', v('j')).groupBy('{"key": "all", "value": value}').count(v('c'));
    builder.stream('s').groupByKey().count(v('sc'));
    const nodes = builder.build({ applicationId: 'v' }).topology.nodes;
    expect(
      nodes
        .filter((n) => (n.config as { versioned?: unknown }).versioned !== undefined)
        .map((n) => [n.kind, (n.config as { store?: string }).store]),
    ).toEqual([
      ['tableFilter', 'f'],
      ['tableTableJoin', 'j'],
      ['tableCount', 'c'],
      ['count', 'sc'],
    ]);
    // Materialized#withStoreType refuses a pre-configured supplier; windowed stores are not
    // key-value stores.
    expect(() => v('x').withStoreType('inMemory')).toThrow(
      'Cannot set store type when store supplier is pre-configured.',
    );
    expect(() =>
      new StreamsBuilder()
        .stream('s')
        .groupByKey()
        .windowedBy(TimeWindows.ofSizeWithNoGrace(10))
        .count(v('w')),
    ).toThrow(/windowed aggregations need a window or session store/);
    expect(() => new StreamsBuilder().globalTable('g', undefined, v('g'))).toThrow(
      'Invalid topology: GlobalTables cannot be versioned.',
    );
  });
});
