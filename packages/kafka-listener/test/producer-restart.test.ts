// An idempotent producer's sequence state survives a restart of the log and listener: the
// listener rebuilds it from the partition's tail, so a batch retried across the restart (written,
// but its answer lost to the crash) is answered with the offset it got and not written twice,
// and a gap is still refused. Requests are built with the protocol codecs, so the test chooses
// exactly which batch is retried; the Java producer's own retries are the same requests.
import net from 'node:net';
import {
  apis,
  decodeResponseFrame,
  encodeRequestFrame,
  frameSize,
  type AnyApi,
} from '@streamwright/kafka-protocol';
import { encodeBatch } from '@streamwright/log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from './harness.js';

const OUT_OF_ORDER_SEQUENCE_NUMBER = 45;

const h = new Harness();
beforeAll(async () => {
  await h.start();
  await h.log.createTopic('idem', 1);
});
afterAll(async () => {
  await h.dispose();
});

/** One request on a fresh connection to the listener; its decoded response body. */
async function request<A extends AnyApi>(api: A, version: number, body: object) {
  const socket = net.connect(h.listener.port, '127.0.0.1');
  socket.on('error', () => undefined);
  let buf = Buffer.alloc(0);
  const frame = new Promise<Buffer>((resolve, reject) => {
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const size = frameSize(buf);
      if (size !== null && buf.length >= 4 + size) resolve(buf.subarray(0, 4 + size));
    });
    socket.on('close', () => reject(new Error('closed without a response')));
  });
  socket.write(
    encodeRequestFrame(api, version, { correlationId: 1, clientId: 'idem' }, body as never),
  );
  try {
    return decodeResponseFrame(api, version, await frame).body;
  } finally {
    socket.destroy();
  }
}

describe('idempotent producer state across a restart', () => {
  it('a batch retried after a restart is not written twice; a gap is refused', async () => {
    const init = await request(apis.InitProducerId, 4, {
      transactionalId: null,
      transactionTimeoutMs: 60_000,
      producerId: -1n,
      producerEpoch: -1,
    });
    expect(init.errorCode).toBe(0);
    const producerId = Number(init.producerId);
    const producerEpoch = init.producerEpoch;

    const batch = (baseSequence: number, n: number) =>
      encodeBatch(
        Array.from({ length: n }, (_, i) => ({
          key: Buffer.from(`k${baseSequence + i}`),
          value: Buffer.from(`v${baseSequence + i}`),
          timestamp: Date.now(),
        })),
        { producerId, producerEpoch, baseSequence },
      );
    const produce = async (records: Buffer) => {
      const res = await request(apis.Produce, 9, {
        transactionalId: null,
        acks: -1,
        timeoutMs: 5000,
        topicData: [{ name: 'idem', partitionData: [{ index: 0, records }] }],
      });
      const p = res.responses[0]!.partitionResponses[0]!;
      return { errorCode: p.errorCode, baseOffset: Number(p.baseOffset) };
    };

    expect(await produce(batch(0, 5))).toEqual({ errorCode: 0, baseOffset: 0 });
    expect(await produce(batch(5, 5))).toEqual({ errorCode: 0, baseOffset: 5 });
    // Another writer's record after the producer's batches: the tail holds more than its own.
    await h.log.produce([{ topic: 'idem', partition: 0, key: null, value: Buffer.from('noise') }]);

    await h.restart();
    // The second batch again, as a producer retries a request whose answer it never got.
    expect(await produce(batch(5, 5))).toEqual({ errorCode: 0, baseOffset: 5 });
    expect(await produce(batch(0, 5))).toEqual({ errorCode: 0, baseOffset: 0 });
    expect((await produce(batch(20, 5))).errorCode).toBe(OUT_OF_ORDER_SEQUENCE_NUMBER);
    expect(await produce(batch(10, 5))).toEqual({ errorCode: 0, baseOffset: 11 });

    await h.restart();
    expect(await produce(batch(10, 5))).toEqual({ errorCode: 0, baseOffset: 11 });
    const values = (await h.records('idem')).map((r) => r.value);
    expect(values).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `v${i}`),
      'noise',
      ...Array.from({ length: 5 }, (_, i) => `v${10 + i}`),
    ]);
  });
});
