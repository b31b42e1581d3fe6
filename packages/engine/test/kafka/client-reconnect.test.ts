// The Kafka backend through a broker outage, on a broker of its own (Apache Kafka 4.1.1 from
// tools/kafka, SIGKILLed and started again on the same ports and data dir): what is asked during
// the outage waits — the client reconnects with Kafka's backoff (50 ms doubling to 1 s, jitter)
// for as long as it takes, no attempt limit — and completes once the broker is back; meanwhile
// the backend reports the broker unreachable since it went away, and stops once it is reachable.
// (With kafkajs a ~21 s outage ended the application with KafkaJSNumberOfRetriesExceeded.)
import { startBroker } from '@streamwright/kafka-broker';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { BackendHealth } from '../../src/backend-spi.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { waitFor } from '../fixtures/wait.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe('the Kafka backend through a broker outage (4.1.1)', () => {
  it('waits out a killed broker and resumes produce, fetch and commits when it is back', async () => {
    const broker = await startBroker({ version: '4.1.1', startTimeoutMs: 180_000 });
    onTestFinished(() => broker.stop());
    const warnings: string[] = [];
    const backend = await createKafkaBackend({
      bootstrapServers: [broker.bootstrapServers],
      logger: { warn: (_o, msg) => warnings.push(String(msg)) },
    });
    onTestFinished(() => backend.close());
    const topic = 'outage';
    await backend.createTopics([{ name: topic, partitions: 2 }]);
    const send = (from: number, n: number) =>
      backend.produce(
        Array.from({ length: n }, (_, i) => ({
          topic,
          key: bytes(`k${from + i}`),
          value: bytes(`v${from + i}`),
        })),
      );
    await send(0, 20);
    const changes: BackendHealth[] = [];
    backend.onHealthChange!((h) => changes.push(h));

    await broker.kill();
    const killedAt = Date.now();
    // Asked while the broker is down: a produce, a fetch past what is there, a commit.
    const produced = send(20, 20);
    const fetched = backend.fetchMany(
      [0, 1].map((partition) => ({ topic, partition, offset: 0 })),
      { maxRecords: 1000, maxWaitMs: 500 },
    );
    const committed = backend.commitOffsets('outage-group', [{ topic, partition: 0, offset: 1 }]);
    let settled = false;
    void Promise.allSettled([produced, fetched, committed]).then(() => (settled = true));
    await waitFor(() => backend.health!().unreachable.length > 0, 20_000);
    const [down] = backend.health!().unreachable;
    expect(down!.broker).toBe(broker.bootstrapServers);
    expect(down!.since).toBeGreaterThanOrEqual(killedAt - 1_000);
    // Still waiting well past kafkajs' give-up point of the first attempt (~1 s), with no error.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(settled).toBe(false);

    await broker.start();
    const acks = await produced;
    expect(acks).toHaveLength(20);
    const responses = await fetched;
    expect(responses.every((r) => r.error === undefined)).toBe(true);
    await committed;
    expect([
      ...(await backend.committedOffsets('outage-group', [{ topic, partition: 0 }])),
    ]).toEqual([[`${topic}:0`, 1]]);
    expect(backend.health!().unreachable).toEqual([]);
    expect(changes.at(-1)).toEqual({ unreachable: [] });
    expect(warnings.some((w) => /failed; retrying/.test(w))).toBe(true);

    // Every record, each once (nothing was lost; the produce issued during the outage was only
    // sent once the broker was back, so nothing was written twice either).
    const values: string[] = [];
    for (const partition of [0, 1]) {
      let offset = 0;
      for (;;) {
        const got = await backend.fetch({ topic, partition }, offset, 1000, 200);
        if (got.length === 0) break;
        values.push(...got.map((r) => text(r.value)!));
        offset = got[got.length - 1]!.offset + 1;
      }
    }
    expect(values.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `v${i}`).sort());
  });
});
