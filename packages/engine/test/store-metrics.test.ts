// Store metrics with Kafka Streams' names (stream-state-metrics of MeteredKeyValueStore): recorded
// at metrics.recording.level DEBUG only, as Kafka Streams does; latencies in nanoseconds.
import { describe, expect, it } from 'vitest';
import { Consumed, Materialized, Produced, Serdes, StreamsBuilder } from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

const build = (level?: string) => {
  const builder = new StreamsBuilder();
  builder
    .stream('words', Consumed.with(Serdes.String(), Serdes.String()))
    .groupByKey()
    .count(Materialized.as('counts-store'))
    .toStream()
    .to('counts', Produced.with(Serdes.String(), Serdes.Long()));
  return createTestDriver(
    builder.build({
      applicationId: 'store-metrics',
      config: level === undefined ? {} : { 'metrics.recording.level': level },
    }),
  );
};

describe('store metrics', () => {
  it('DEBUG records get, put and flush per store with latency avg/max (ns) and rates', () => {
    const driver = build('DEBUG');
    for (const w of ['a', 'b', 'a']) driver.pipeInput('words', w, w, 1);
    const store = driver.metrics().stores?.['0_0']?.['counts-store'];
    expect(store?.scope).toBe('in-memory');
    const v = store!.values;
    for (const op of ['put', 'get', 'delete', 'range', 'flush', 'restore'])
      for (const suffix of ['latency-avg', 'latency-max', 'rate'])
        expect(v[`${op}-${suffix}`], `${op}-${suffix}`).toBeTypeOf('number');
    expect(v['restore-rate']).toBeTypeOf('number');
    expect(v['put-latency-avg']).toBeGreaterThan(0);
    expect(v['put-latency-max']).toBeGreaterThanOrEqual(v['put-latency-avg']!);
    expect(v['get-latency-max']).toBeGreaterThan(0);
    // The test driver commits (flushes the store into its changelog) after every record.
    expect(v['flush-latency-max']).toBeGreaterThan(0);
    expect(v['delete-latency-max']).toBe(0);
    expect(driver.readOutput('counts').map((r) => r.value)).toEqual([1, 1, 2]);
  });

  it('INFO (the default) records no store metrics', () => {
    const driver = build();
    driver.pipeInput('words', 'a', 'a', 1);
    expect(driver.metrics().stores).toBeUndefined();
  });
});
