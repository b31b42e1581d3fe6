// Kafka Streams' rules for records it cannot use: aggregations skip null keys or values
// (KStreamAggregate / KStreamReduce), tables skip null keys (KTableSource), both counting them
// in dropped-records; undecodable bytes go to default.deserialization.exception.handler.
import { describe, expect, it } from 'vitest';
import { Consumed, Produced, Serdes, StreamsBuilder } from '../src/index.js';
import { createTestDriver } from '../src/test-driver/test-driver.js';

const dropped = (driver: ReturnType<typeof createTestDriver>, task = '0_0') =>
  driver.metrics().tasks[task]!['dropped-records-total'];

describe('null keys and values', () => {
  it('groupByKey().reduce and count skip a null key or value and count it as dropped', () => {
    const builder = new StreamsBuilder();
    const grouped = builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.Long()))
      .groupByKey();
    grouped
      .reduce((a, b) => a + b)
      .toStream()
      .to('sums', Produced.with(Serdes.String(), Serdes.Long()));
    const driver = createTestDriver(builder.build({ applicationId: 'nulls' }));
    driver.pipeInput('in', 'a', 1, 1);
    driver.pipeInput('in', null, 2, 2);
    driver.pipeInput('in', 'a', null, 3);
    driver.pipeInput('in', 'a', 4, 4);
    expect(driver.readOutput('sums').map((r) => [r.key, r.value])).toEqual([
      ['a', 1],
      ['a', 5],
    ]);
    expect(dropped(driver)).toBe(2);
  });

  it('a table skips a null key (dropped) and turns a null value into a delete', () => {
    const builder = new StreamsBuilder();
    builder
      .table('t', Consumed.with(Serdes.String(), Serdes.String()))
      .toStream()
      .to('changes', Produced.with(Serdes.String(), Serdes.String()));
    const driver = createTestDriver(builder.build({ applicationId: 'table-nulls' }));
    driver.pipeInput('t', null, 'x', 1);
    driver.pipeInput('t', 'k', 'v', 2);
    driver.pipeInput('t', 'k', null, 3);
    expect(driver.readOutput('changes').map((r) => [r.key, r.value])).toEqual([
      ['k', 'v'],
      ['k', null],
    ]);
    expect(dropped(driver)).toBe(1);
  });
});

describe('deserialization errors', () => {
  const build = (handler: 'log-and-fail' | 'log-and-continue') => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.Integer()))
      .to('out', Produced.with(Serdes.String(), Serdes.Integer()));
    return createTestDriver(
      builder.build({
        applicationId: 'bad-bytes',
        config: { 'default.deserialization.exception.handler': handler },
      }),
    );
  };

  it('log-and-continue skips a record the integer serde cannot read and counts it', () => {
    const driver = build('log-and-continue');
    driver.pipeRawInput('in', Buffer.from('k'), new Uint8Array([0, 0, 1]), 1);
    driver.pipeInput('in', 'k', 7, 2);
    expect(driver.readOutput('out').map((r) => r.value)).toEqual([7]);
    expect(dropped(driver)).toBe(1);
    expect(driver.errors()[0]).toMatchObject({
      handling: 'continue',
      message: expect.stringMatching(/IntegerDeserializer is not 4/),
    });
  });

  it('log-and-fail stops at that record', () => {
    const driver = build('log-and-fail');
    expect(() => driver.pipeRawInput('in', Buffer.from('k'), new Uint8Array(8), 1)).toThrow(
      /not 4/,
    );
  });
});
