import { describe, expect, it } from 'vitest';
import { FailedProcessingError } from '../src/processor/processing-failure.js';
import { createTestDriverFromPlan } from '../src/test-driver/test-driver.js';
import { handPlan } from './fixtures/hand-planner.js';
import { countPipeline, ordersPipeline, topology } from './fixtures/topologies.js';

describe('test driver: synchronous processing over the compiled graph', () => {
  it('filter and mapValues give exactly the expected records, in order', () => {
    const t = ordersPipeline();
    const driver = createTestDriverFromPlan(handPlan(t), t.application.config, { now: () => 1000 });
    driver.pipeInput('orders', 'o1', { user: 'ann', amount: 50 }, 1);
    driver.pipeInput('orders', 'o2', { user: 'bob', amount: 150 }, 2);
    driver.pipeInput('orders', 'o3', { user: 'cid', amount: 101.5 }, 3);
    expect(driver.readOutput('big-orders')).toEqual([
      {
        topic: 'big-orders',
        key: 'o2',
        value: { user: 'bob', total: 300 },
        timestamp: 2,
        headers: {},
      },
      {
        topic: 'big-orders',
        key: 'o3',
        value: { user: 'cid', total: 203 },
        timestamp: 3,
        headers: {},
      },
    ]);
    const nodes = driver.metrics().nodes['0_0']!;
    expect(nodes['KSTREAM-SOURCE-0000000000']!['process-total']).toBe(3);
    expect(nodes['KSTREAM-FILTER-0000000001']!['process-total']).toBe(3);
    expect(nodes['KSTREAM-MAPVALUES-0000000002']!['process-total']).toBe(2);
    expect(nodes['KSTREAM-SINK-0000000003']!['records-produced-total']).toBe(2);
    expect(driver.metrics().nodeModelIds['KSTREAM-FILTER-0000000001']).toBe('big');
  });

  // Expectations from Kafka Streams' KGroupedStreamImplTest#shouldCountAndMaterializeResults and
  // #shouldLogAndMeasureSkipsInAggregate: inputs (1,A,5) (2,B,1) (1,C,3) (1,D,10) (3,E,8) (3,F,9)
  // (3,null) give counts 1→3@10, 2→1@1, 3→2@9; the null value is skipped and counted as dropped.
  it('count follows KStreamAggregate: counts, max timestamps, null values dropped', () => {
    const t = countPipeline({}, 1);
    const driver = createTestDriverFromPlan(handPlan(t), t.application.config);
    const input = driver.createInputTopic('words');
    input.pipeInput('1', 'A', 5);
    input.pipeInput('2', 'B', 1);
    input.pipeInput('1', 'C', 3);
    input.pipeInput('1', 'D', 10);
    input.pipeInput('3', 'E', 8);
    input.pipeInput('3', 'F', 9);
    input.pipeInput('3', null, 10);
    const store = driver.getKeyValueStore('counts-store');
    expect(store.getWithTimestamp('1')).toMatchObject({ value: 3, timestamp: 10 });
    expect(store.getWithTimestamp('2')).toMatchObject({ value: 1, timestamp: 1 });
    expect(store.getWithTimestamp('3')).toMatchObject({ value: 2, timestamp: 9 });
    // Without caching every update is forwarded, each with max(record ts, previous ts).
    expect(driver.readOutput('counts').map((r) => [r.key, r.value, r.timestamp])).toEqual([
      ['1', 1, 5],
      ['2', 1, 1],
      ['1', 2, 5],
      ['1', 3, 10],
      ['3', 1, 8],
      ['3', 2, 9],
    ]);
    expect(driver.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);
    // The changelog carries the store's updates with Java LongSerde values.
    expect(
      driver.readOutput('count-app-counts-store-changelog').map((r) => [r.key, r.value]),
    ).toContainEqual(['1', 3]);
  });

  it('log-and-fail throws with the node and record; log-and-continue skips and counts', () => {
    const t = ordersPipeline({}, '{"user": value.user, "twice": value.qty * 2}');
    const failing = createTestDriverFromPlan(handPlan(t), t.application.config);
    expect(() => failing.pipeInput('orders', 'o1', { user: 'ann', amount: 500 }, 7)).toThrow(
      FailedProcessingError,
    );
    const [error] = failing.errors();
    expect(error).toMatchObject({
      taskId: '0_0',
      processor: 'KSTREAM-MAPVALUES-0000000002',
      modelNodeId: 'shape',
      handling: 'fail',
      record: {
        topic: 'orders',
        partition: 0,
        offset: 0,
        key: 'o1',
        value: { user: 'ann', amount: 500 },
        timestamp: 7,
      },
    });
    expect(error!.message).toMatch(/qty/);

    const continuing = createTestDriverFromPlan(handPlan(t), {
      ...t.application.config,
      'processing.exception.handler': 'log-and-continue',
    });
    continuing.pipeInput('orders', 'o1', { user: 'ann', amount: 500 }, 7);
    continuing.pipeInput('orders', 'o2', { user: 'bob', amount: 500, qty: 2 }, 8);
    expect(continuing.readOutput('big-orders').map((r) => r.value)).toEqual([
      { user: 'bob', twice: 4 },
    ]);
    expect(continuing.errors()[0]).toMatchObject({
      handling: 'continue',
      processor: 'KSTREAM-MAPVALUES-0000000002',
    });
    expect(continuing.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);
  });

  it('generate() runs a generator node with a continuing seq and feeds its downstream', () => {
    const t = topology(
      'gen',
      {},
      [
        { name: 'ticks', partitions: 1, config: {} },
        { name: 'even', partitions: 1, config: {} },
      ],
      [
        {
          id: 'g',
          kind: 'generator',
          config: {
            topic: 'ticks',
            ratePerSecond: 1,
            key: 'string(seq)',
            value: '{"n": seq, "at": now}',
            keySerde: 'string',
            valueSerde: 'json',
          },
        },
        { id: 'f', kind: 'filter', config: { expression: 'value.n % 2 == 0' } },
        {
          id: 'o',
          kind: 'sink',
          config: { topic: 'even', keySerde: 'string', valueSerde: 'json' },
        },
      ],
      [
        ['g', 'f'],
        ['f', 'o'],
      ],
    );
    const driver = createTestDriverFromPlan(handPlan(t), t.application.config);
    const generated = [...driver.generate('g', 3, 100), ...driver.generate('g', 2, 200)];
    expect(generated.map((r) => r.key)).toEqual(['0', '1', '2', '3', '4']);
    expect(driver.readOutput('even').map((r) => [r.value, r.timestamp])).toEqual([
      [{ n: 0, at: 100 }, 100],
      [{ n: 2, at: 100 }, 100],
      [{ n: 4, at: 200 }, 200],
    ]);
  });

  it('a record that does not deserialize goes to the deserialization exception handler', () => {
    const bad = new TextEncoder().encode('{"user": "ann", amount');
    const t = ordersPipeline({ 'default.deserialization.exception.handler': 'log-and-continue' });
    const driver = createTestDriverFromPlan(handPlan(t), t.application.config);
    driver.pipeRawInput('orders', null, bad, 1);
    driver.pipeInput('orders', 'o2', { user: 'bob', amount: 200 }, 2);
    expect(driver.readOutput('big-orders').map((r) => r.key)).toEqual(['o2']);
    expect(driver.errors()[0]).toMatchObject({
      processor: 'KSTREAM-SOURCE-0000000000',
      modelNodeId: 'src',
      handling: 'continue',
      record: { value: '{"user": "ann", amount' },
    });
    expect(driver.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);

    const strict = ordersPipeline();
    const failing = createTestDriverFromPlan(handPlan(strict), strict.application.config);
    expect(() => failing.pipeRawInput('orders', null, bad, 1)).toThrow(
      /json serde cannot deserialize/,
    );
  });
});
