// Bytes that are not a valid request close the connection with a logged reason and never reach
// the log; a well-formed request with bad records is refused per partition, nothing written, and
// the connection stays usable; a newer ApiVersions is answered as Kafka does (KIP-511).
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

const h = new Harness();
beforeAll(async () => {
  await h.start();
  await h.log.createTopic('events', 1);
  await h.log.produce([{ topic: 'events', key: Buffer.from('k'), value: Buffer.from('v') }]);
});
afterAll(async () => {
  await h.dispose();
});

/** A raw client: send frames, read whole response frames, see when the server hangs up. */
class RawClient {
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  closed = false;
  readonly socket: net.Socket;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    this.socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    this.socket.on('error', () => undefined);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  private async until(ready: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!ready()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  send(bytes: Uint8Array): void {
    this.socket.write(bytes);
  }

  async response(): Promise<Buffer> {
    await this.until(() => {
      const size = frameSize(this.buf);
      return (size !== null && this.buf.length >= 4 + size) || this.closed;
    });
    const size = frameSize(this.buf);
    if (size === null || this.buf.length < 4 + size) throw new Error('closed without a response');
    const frame = this.buf.subarray(0, 4 + size);
    this.buf = this.buf.subarray(4 + size);
    return frame;
  }

  async request<A extends AnyApi>(api: A, version: number, body: object) {
    this.send(
      encodeRequestFrame(api, version, { correlationId: 9, clientId: 'raw' }, body as never),
    );
    return decodeResponseFrame(api, version, await this.response()).body;
  }

  async closedByServer(): Promise<void> {
    await this.until(() => this.closed);
  }

  end(): void {
    this.socket.destroy();
  }
}

async function logUnchanged(): Promise<void> {
  expect(h.log.listTopics().map((t) => t.name)).toEqual(['events']);
  expect(h.log.latestOffset('events', 0)).toBe(1);
}

describe('malformed requests', () => {
  it('a truncated request closes the connection with a logged reason; the log is untouched', async () => {
    const c = new RawClient(h.listener.port);
    const good = encodeRequestFrame(
      apis.Produce,
      9,
      { correlationId: 1, clientId: 'raw' },
      { acks: -1, timeoutMs: 1000, topicData: [{ name: 'events', partitionData: [] }] },
    );
    // Announce 6 bytes fewer than the request has: the body is cut off.
    const cut = Buffer.from(good.subarray(0, good.length - 6));
    cut.writeInt32BE(cut.length - 4, 0);
    c.send(cut);
    await c.closedByServer();
    const w = h.warnings.find((x) =>
      /malformed request/.test(String((x.obj as { reason?: string }).reason)),
    );
    expect(w).toBeDefined();
    expect(String((w!.obj as { reason: string }).reason)).toMatch(/Produce/);
    await logUnchanged();
  });

  it('an absurd frame size closes the connection before anything is buffered', async () => {
    const c = new RawClient(h.listener.port);
    const head = Buffer.alloc(8);
    head.writeInt32BE(0x7fffffff, 0);
    c.send(head);
    await c.closedByServer();
    expect(
      h.warnings.some((x) => /the limit is/.test(String((x.obj as { reason?: string }).reason))),
    ).toBe(true);
    await logUnchanged();
  });

  it('an API the listener does not serve closes the connection, naming it', async () => {
    const c = new RawClient(h.listener.port);
    c.send(
      encodeRequestFrame(
        apis.DescribeAcls,
        3,
        { correlationId: 1, clientId: 'raw' },
        {
          resourceTypeFilter: 1,
          resourceNameFilter: null,
          patternTypeFilter: 3,
          principalFilter: null,
          hostFilter: null,
          operation: 1,
          permissionType: 1,
        },
      ),
    );
    await c.closedByServer();
    expect(
      h.warnings.some((x) =>
        /DescribeAcls v3 is not served/.test(String((x.obj as { reason?: string }).reason)),
      ),
    ).toBe(true);
  });

  it('a batch with a bad CRC is refused (CORRUPT_MESSAGE), nothing is written, the connection stays open', async () => {
    const c = new RawClient(h.listener.port);
    const batch = encodeBatch([
      { key: Buffer.from('x'), value: Buffer.from('y'), timestamp: Date.now() },
    ]);
    batch[batch.length - 1] = batch[batch.length - 1]! ^ 0xff; // the last value byte: the CRC no longer matches
    const res = await c.request(apis.Produce, 9, {
      acks: -1,
      timeoutMs: 1000,
      topicData: [{ name: 'events', partitionData: [{ index: 0, records: batch }] }],
    });
    expect(res.responses[0]!.partitionResponses[0]!.errorCode).toBe(2); // CORRUPT_MESSAGE
    await logUnchanged();
    const meta = await c.request(apis.Metadata, 12, { topics: null });
    expect(meta.topics.map((t) => t.name)).toEqual(['events']);
    expect(c.closed).toBe(false);
    c.end();
  });

  it('ApiVersions at a version newer than ours gets v0 UNSUPPORTED_VERSION with our versions', async () => {
    const c = new RawClient(h.listener.port);
    const frame = encodeRequestFrame(
      apis.ApiVersions,
      4,
      { correlationId: 5, clientId: 'raw' },
      {
        clientSoftwareName: 'raw',
        clientSoftwareVersion: '1',
      },
    );
    frame.writeInt16BE(99, 6); // request version 99
    c.send(frame);
    const res = decodeResponseFrame(apis.ApiVersions, 0, await c.response());
    expect(res.correlationId).toBe(5);
    expect(res.body.errorCode).toBe(35);
    expect(res.body.apiKeys.find((k) => k.apiKey === apis.Fetch.apiKey)).toBeDefined();
    c.end();
  });
});
