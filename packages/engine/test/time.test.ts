// Timestamp extractors, stream time and record-lateness, with the semantics of Kafka Streams'
// FailOnInvalidTimestamp (default), LogAndSkipOnInvalidTimestamp, UsePartitionTimeOnInvalidTimestamp
// and WallclockTimestampExtractor, plus a CEL expression extracting the time from the value.
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '@streamwright/topology-model';
import { Consumed, Produced, Serdes, StreamsBuilder, type BuiltTopology } from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

function passThrough(config: AppConfig): BuiltTopology {
  const builder = new StreamsBuilder();
  builder
    .stream('events', Consumed.with(Serdes.String(), Serdes.Json<{ at?: unknown }>()))
    .to('out', Produced.with(Serdes.String(), Serdes.Json()));
  return builder.build({ applicationId: 'time', config });
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const key = (k: string) => Buffer.from(k);

describe('timestamp extractors (default.timestamp.extractor)', () => {
  it('FailOnInvalidTimestamp (default): a negative timestamp fails the task, whatever the processing handler', () => {
    const driver = createTestDriver(
      passThrough({ 'processing.exception.handler': 'log-and-continue' }),
    );
    driver.pipeRawInput('events', key('a'), json({}), 5);
    expect(() => driver.pipeRawInput('events', key('b'), json({ n: 1 }), -1)).toThrow(
      /invalid \(negative\) timestamp -1/,
    );
    // the report shows the record that arrived (its key and value as text), not nulls
    expect(driver.errors()[0]).toMatchObject({
      handling: 'fail',
      record: { topic: 'events', offset: 1, timestamp: -1, key: 'b', value: '{"n":1}' },
    });
    expect(driver.readOutput('out').map((r) => r.key)).toEqual(['a']);
  });

  it('LogAndSkipOnInvalidTimestamp: the record is skipped and counted in dropped-records', () => {
    const driver = createTestDriver(
      passThrough({ 'default.timestamp.extractor': 'LogAndSkipOnInvalidTimestamp' }),
    );
    driver.pipeRawInput('events', key('a'), json({}), 5);
    driver.pipeRawInput('events', key('b'), json({}), -1);
    driver.pipeRawInput('events', key('c'), json({}), 7);
    expect(driver.readOutput('out').map((r) => [r.key, r.timestamp])).toEqual([
      ['a', 5],
      ['c', 7],
    ]);
    expect(driver.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);
  });

  it('UsePartitionTimeOnInvalidTimestamp: the partition time (largest valid timestamp so far) replaces it', () => {
    const driver = createTestDriver(
      passThrough({
        'default.timestamp.extractor':
          'org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp',
      }),
    );
    driver.pipeRawInput('events', key('a'), json({}), 9);
    driver.pipeRawInput('events', key('b'), json({}), 4);
    driver.pipeRawInput('events', key('c'), json({}), -1);
    expect(driver.readOutput('out').map((r) => [r.key, r.timestamp])).toEqual([
      ['a', 9],
      ['b', 4],
      ['c', 9],
    ]);
  });

  it('UsePartitionTimeOnInvalidTimestamp without a partition time yet fails, as Kafka Streams throws', () => {
    const driver = createTestDriver(
      passThrough({ 'default.timestamp.extractor': 'UsePartitionTimeOnInvalidTimestamp' }),
    );
    expect(() => driver.pipeRawInput('events', key('a'), json({}), -3)).toThrow(
      /invalid \(negative\) timestamp/,
    );
  });

  it('WallclockTimestampExtractor: the wall-clock time when the record is read', () => {
    let now = 1_000;
    const driver = createTestDriver(
      passThrough({ 'default.timestamp.extractor': 'WallclockTimestampExtractor' }),
      { now: () => now },
    );
    driver.pipeRawInput('events', key('a'), json({}), 5);
    now = 2_500;
    driver.pipeRawInput('events', key('b'), json({}), -1);
    expect(driver.readOutput('out').map((r) => [r.key, r.timestamp])).toEqual([
      ['a', 1_000],
      ['b', 2_500],
    ]);
  });

  it('a CEL expression takes the time from the value (int ms or RFC 3339); invalid results follow the extractor', () => {
    const driver = createTestDriver(
      passThrough({
        'default.timestamp.extractor': 'LogAndSkipOnInvalidTimestamp',
        'default.timestamp.extractor.expression': 'value.at',
      }),
    );
    driver.pipeInput('events', 'a', { at: 1_700_000_000_000 }, 1);
    driver.pipeInput('events', 'b', { at: '2024-01-02T03:04:05.678Z' }, 2);
    driver.pipeInput('events', 'c', {}, 3); // no such key: invalid → skipped
    driver.pipeInput('events', 'd', { at: -5 }, 4); // negative → skipped
    expect(driver.readOutput('out').map((r) => [r.key, r.timestamp])).toEqual([
      ['a', 1_700_000_000_000],
      ['b', Date.parse('2024-01-02T03:04:05.678Z')],
    ]);
    expect(driver.metrics().tasks['0_0']!['dropped-records-total']).toBe(2);
  });

  it('refuses unknown extractors and a syntax error in the expression at creation', () => {
    expect(() =>
      createTestDriver(passThrough({ 'default.timestamp.extractor': 'MyExtractor' })),
    ).toThrow(/not supported/);
    expect(() =>
      createTestDriver(passThrough({ 'default.timestamp.extractor.expression': 'value.(' })),
    ).toThrow();
  });
});

describe('stream time and record-lateness (PartitionGroup#nextRecord)', () => {
  it('stream time is the largest timestamp processed; lateness is how far behind it a record is (0 when it advances)', () => {
    const driver = createTestDriver(passThrough({}));
    for (const ts of [10, 5, 20, 12]) driver.pipeInput('events', 'k', {}, ts);
    const task = driver.metrics().tasks['0_0']!;
    expect(task['record-lateness-max']).toBe(8);
    expect(task['record-lateness-avg']).toBe((0 + 5 + 0 + 8) / 4);
  });
});
