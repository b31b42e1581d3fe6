// Dead-letter topics (Kafka Streams' KIP-1034, `errors.dead.letter.queue.topic.name`) and the
// production exception handler. Kafka Streams 4.1.1 (the oracle's version) predates KIP-1034, so
// the expected records follow apache/kafka's ExceptionHandlerUtils#buildDeadLetterQueueRecord and
// its ExceptionHandlerUtilsTest#checkDealLetterQueueRecords: the record's timestamp, its headers
// copied, plus __streams.errors.{exception,message,stacktrace,topic,partition,offset}; the
// deserialization handler copies the raw source bytes (context.sourceRawKey/Value).
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { createStreamsApp } from '../src/app/streams-app.js';
import { createEmbeddedBackend } from '../src/backends/embedded/index.js';
import { Consumed, Produced, Serdes, StreamsBuilder } from '../src/index.js';
import { createTestDriver, type TestDriver } from '../src/test-driver/test-driver.js';
import { encode } from './fixtures/records.js';
import { waitFor } from './fixtures/wait.js';
import { tempStateDir } from './fixtures/state-dir.js';

const text = (b: unknown): string | null =>
  b === null ? null : Buffer.from(b as Uint8Array).toString('utf8');
const dropped = (driver: TestDriver) => driver.metrics().tasks['0_0']!['dropped-records-total'];

function errorHeaders(headers: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([k]) => k.startsWith('__streams.errors.') && k !== '__streams.errors.stacktrace',
    ),
  );
}

describe('dead-letter topic', () => {
  it('a record the value serde cannot read is copied raw, with the error headers', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.Integer()))
      .to('out', Produced.with(Serdes.String(), Serdes.Integer()));
    const driver = createTestDriver(
      builder.build({
        applicationId: 'dlq-deser',
        config: {
          'default.deserialization.exception.handler': 'log-and-continue',
          'errors.dead.letter.queue.topic.name': 'dead',
        },
      }),
    );
    driver.pipeInput('in', 'a', 1, 10);
    driver.pipeRawInput('in', Buffer.from('k'), new Uint8Array([0, 0, 1]), 20, { trace: 't-1' });
    driver.pipeInput('in', 'b', 2, 30);
    expect(driver.readOutput('out').map((r) => r.value)).toEqual([1, 2]);
    const [dlq, ...more] = driver.readOutput('dead');
    expect(more).toEqual([]);
    expect(text(dlq!.key)).toBe('k');
    expect([...(dlq!.value as Uint8Array)]).toEqual([0, 0, 1]);
    expect(dlq!.timestamp).toBe(20);
    expect(dlq!.headers.trace).toBe('t-1');
    expect(errorHeaders(dlq!.headers)).toEqual({
      '__streams.errors.exception': 'DeserializationError',
      '__streams.errors.message': expect.stringMatching(/IntegerDeserializer is not 4/),
      '__streams.errors.topic': 'in',
      '__streams.errors.partition': '0',
      '__streams.errors.offset': '1',
    });
    expect(dlq!.headers['__streams.errors.stacktrace']).toMatch(/DeserializationError/);
    expect(dropped(driver)).toBe(1);
    expect(driver.errors()[0]).toMatchObject({
      handler: 'deserialization',
      handling: 'continue',
      deadLetter: { topic: 'dead' },
    });
  });

  it('a processing error copies the source record; log-and-fail copies it too, then fails', () => {
    const build = (handler: 'log-and-fail' | 'log-and-continue') => {
      const builder = new StreamsBuilder();
      builder
        .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
        .mapValues((v: string) => {
          if (v === 'boom') throw new RangeError('no boom allowed');
          return v.toUpperCase();
        })
        .to('out', Produced.with(Serdes.String(), Serdes.String()));
      return createTestDriver(
        builder.build({
          applicationId: 'dlq-processing',
          config: {
            'processing.exception.handler': handler,
            'errors.dead.letter.queue.topic.name': 'dead',
          },
        }),
      );
    };
    const driver = build('log-and-continue');
    driver.pipeInput('in', 'a', 'x', 1);
    driver.pipeInput('in', 'b', 'boom', 2);
    expect(driver.readOutput('out').map((r) => r.value)).toEqual(['X']);
    const dead = driver.readOutput('dead');
    expect(dead.map((r) => [text(r.key), text(r.value), r.timestamp])).toEqual([['b', 'boom', 2]]);
    expect(errorHeaders(dead[0]!.headers)).toMatchObject({
      '__streams.errors.exception': 'RangeError',
      '__streams.errors.message': 'no boom allowed',
      '__streams.errors.offset': '1',
    });
    expect(dropped(driver)).toBe(1);

    const failing = build('log-and-fail');
    expect(() => failing.pipeInput('in', 'b', 'boom', 2)).toThrow(/no boom allowed/);
    expect(failing.errors()[0]).toMatchObject({ handling: 'fail', deadLetter: { topic: 'dead' } });
  });

  it('without the config nothing is copied', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.Integer()))
      .to('out', Produced.with(Serdes.String(), Serdes.Integer()));
    const driver = createTestDriver(
      builder.build({
        applicationId: 'no-dlq',
        config: { 'default.deserialization.exception.handler': 'log-and-continue' },
      }),
    );
    driver.pipeRawInput('in', Buffer.from('k'), new Uint8Array([1]), 20);
    expect(driver.readOutput('dead')).toEqual([]);
    expect(driver.errors()[0]!.deadLetter).toBeUndefined();
  });
});

describe('production exception handler', () => {
  const build = (config: Record<string, string>) => {
    const builder = new StreamsBuilder();
    builder
      .stream('in', Consumed.with(Serdes.String(), Serdes.Json()))
      // A JSON value that is not an integer: the sink's IntegerSerializer throws.
      .to('out', Produced.with(Serdes.String(), Serdes.Integer()));
    return createTestDriver(builder.build({ applicationId: 'production', config }));
  };

  it('log-and-fail (the default) fails on a serialization error at a sink', () => {
    const driver = build({});
    expect(() => driver.pipeInput('in', 'a', 'not a number', 1)).toThrow(/serialize/);
    expect(driver.errors()[0]).toMatchObject({ handler: 'production', handling: 'fail' });
  });

  it('log-and-continue drops the record, counts it and copies it to the dead-letter topic', () => {
    const driver = build({
      'default.production.exception.handler': 'log-and-continue',
      'errors.dead.letter.queue.topic.name': 'dead',
    });
    driver.pipeInput('in', 'a', 'not a number', 1);
    driver.pipeInput('in', 'b', 7, 2);
    expect(driver.readOutput('out').map((r) => [r.key, r.value])).toEqual([['b', 7]]);
    expect(dropped(driver)).toBe(1);
    const dead = driver.readOutput('dead');
    expect(dead.map((r) => [text(r.key), text(r.value)])).toEqual([['a', '"not a number"']]);
    expect(dead[0]!.headers['__streams.errors.exception']).toBe('SerializationError');
  });

  it.each([1, 2])(
    'on the embedded log: a record the log refuses goes to the handler, its dead-letter offset to the errors (num.stream.threads %i)',
    async (threads) => {
      const backend = await createEmbeddedBackend();
      await backend.createTopics([
        { name: 'in', partitions: 1 },
        { name: 'compacted', partitions: 1, config: { 'cleanup.policy': 'compact' } },
      ]);
      const builder = new StreamsBuilder();
      builder
        .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
        .to('compacted', Produced.with(Serdes.String(), Serdes.String()));
      const app = createStreamsApp({
        topology: builder.build({
          applicationId: 'refused',
          config: {
            'default.production.exception.handler': 'log-and-continue',
            'errors.dead.letter.queue.topic.name': 'refused-dlq',
            'commit.interval.ms': 50,
            // 2: the task runs on a worker thread, which checks each record as the main thread does.
            'num.stream.threads': threads,
          },
        }),
        backend,
        stateDir: tempStateDir(),
      });
      await app.start();
      try {
        await backend.produce([
          { topic: 'in', key: encode('string', 'k1'), value: encode('string', 'v1'), timestamp: 1 },
          { topic: 'in', key: null, value: encode('string', 'no key'), timestamp: 2 },
          { topic: 'in', key: encode('string', 'k3'), value: encode('string', 'v3'), timestamp: 3 },
        ]);
        const error = await waitFor(async () => {
          const e = app.status().errors[0];
          return e?.deadLetter?.offset !== undefined ? e : undefined;
        });
        expect(error).toMatchObject({
          handler: 'production',
          handling: 'continue',
          message: expect.stringMatching(
            /compacted topic compacted cannot accept a record without a key/,
          ),
          deadLetter: { topic: 'refused-dlq', partition: 0, offset: 0 },
        });
        const out = await waitFor(async () => {
          const d = await backend.describeTopic('compacted');
          return d && d.offsets[0]!.latest === 2 ? d : undefined;
        });
        expect(out.offsets[0]!.latest).toBe(2);
        const [dlq] = await backend.fetch({ topic: 'refused-dlq', partition: 0 }, 0, 10, 0);
        expect(text(dlq!.value)).toBe('no key');
        expect(dlq!.headers['__streams.errors.topic']).toBe('in');
        expect(dlq!.headers['__streams.errors.offset']).toBe('1');
        expect(app.metrics().tasks['0_0']!['dropped-records-total']).toBe(1);
        expect(app.status().state).toBe('RUNNING');
      } finally {
        await app.close();
        await backend.close();
      }
    },
  );
});

describe('production exception handler on worker threads', () => {
  it('a record over max.message.bytes goes to the handler (log-and-fail stops the app; log-and-continue drops only it)', async () => {
    for (const handler of ['log-and-fail', 'log-and-continue'] as const) {
      const backend = await createEmbeddedBackend();
      await backend.createTopics([
        { name: 'in', partitions: 2 },
        { name: 'small', partitions: 1, config: { 'max.message.bytes': 200 } },
      ]);
      const builder = new StreamsBuilder();
      builder
        .stream('in', Consumed.with(Serdes.String(), Serdes.String()))
        .to('small', Produced.with(Serdes.String(), Serdes.String()));
      const app = createStreamsApp({
        topology: builder.build({
          applicationId: `too-large-${handler}`,
          config: {
            'default.production.exception.handler': handler,
            'num.stream.threads': 2,
            'commit.interval.ms': 50,
          },
        }),
        backend,
        stateDir: tempStateDir(),
      });
      await app.start();
      try {
        await backend.produce(
          ['ok', 'x'.repeat(500), 'fine'].map((v, i) => ({
            topic: 'in',
            partition: 0,
            key: encode('string', `k${i}`),
            value: encode('string', v),
            timestamp: i,
          })),
        );
        const error = await waitFor(async () => app.status().errors[0]);
        expect(error).toMatchObject({
          handler: 'production',
          handling: handler === 'log-and-fail' ? 'fail' : 'continue',
          message: expect.stringMatching(/larger than max\.message\.bytes 200 of small/),
        });
        if (handler === 'log-and-fail') {
          await waitFor(async () => (app.status().state === 'ERROR' ? true : undefined));
        } else {
          const out = await waitFor(async () => {
            const d = await backend.describeTopic('small');
            return d && d.offsets[0]!.latest === 2 ? d : undefined;
          });
          expect(out.offsets[0]!.latest).toBe(2);
          expect(app.status().state).toBe('RUNNING');
        }
      } finally {
        await app.close();
        await backend.close();
      }
    }
  }, 60_000);
});
