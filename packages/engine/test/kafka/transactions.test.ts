// exactly_once_v2's producer on a real broker (kafka-transactional-producer.ts): what a
// read_committed reader sees of committed and aborted transactions, offsets committed with the
// transaction, fencing of an older producer with the same transactional id, KIP-447's fencing of
// a commit with a stale group generation, and a count application under exactly_once_v2 — on the
// shared 3.9.1 broker (the classic protocol, transaction version 1) and on a 4.1.1 broker of its
// own, which advertises transaction version 2 (KIP-890: partitions added by Produce v12, a new
// epoch with every EndTxn v5).
import { startBroker, type RunningBroker } from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Backend, FetchRequest, TransactionalProducer } from '../../src/backend-spi.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { KafkaCluster } from '../../src/backends/kafka/client/cluster.js';
import { ProducerSession } from '../../src/backends/kafka/kafka-producer-session.js';
import type { KafkaTransactionalProducer } from '../../src/backends/kafka/kafka-transactional-producer.js';
import { ProducerFencedError } from '../../src/errors.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { countPipeline } from '../fixtures/topologies.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend as sharedBrokerBackend } from './kafka-fixtures.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

/** Every value of a 1-partition topic at the isolation level. */
async function values(
  backend: Backend,
  topic: string,
  isolationLevel: 'read_committed' | 'read_uncommitted',
): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  let offset = 0;
  for (let round = 0; round < 6; round++) {
    const req: FetchRequest = { topic, partition: 0, offset };
    const [r] = await backend.fetchMany([req], {
      maxRecords: 1000,
      maxWaitMs: 100,
      isolationLevel,
    });
    for (const rec of r!.records) out.push(text(rec.value));
    if (r!.records.length > 0) offset = r!.records[r!.records.length - 1]!.offset + 1;
  }
  return out;
}

async function producer(backend: Backend, id: string): Promise<TransactionalProducer> {
  return backend.transactionalProducer!(id);
}

function scenarios(bootstrap: () => string, transactionVersion: 1 | 2): void {
  const kafkaBackend = () => sharedBrokerBackend({ bootstrapServers: [bootstrap()] });
  it('commits and aborts: read_committed sees committed records and offsets only', async () => {
    const backend = await kafkaBackend();
    const topic = `txn-basic-${Date.now()}`;
    try {
      await backend.createTopics([{ name: topic, partitions: 1 }]);
      const p = await producer(backend, `txn-basic-${Date.now()}`);
      expect((p as unknown as { transactionVersion: number }).transactionVersion).toBe(
        transactionVersion,
      );
      const write = async (vs: string[], commit: boolean, offset: number) => {
        p.beginTransaction();
        await p.send(vs.map((v) => ({ topic, key: bytes('k'), value: bytes(v) })));
        await p.sendOffsetsToTransaction([{ topic, partition: 0, offset }], `${topic}-group`);
        if (commit) await p.commitTransaction();
        else await p.abortTransaction();
      };
      await write(['c0', 'c1'], true, 10);
      await write(['a0'], false, 20);
      await write(['c2'], true, 30);
      // An aborted transaction's records are in the log, with markers; read_committed skips them.
      expect(await values(backend, topic, 'read_uncommitted')).toEqual(['c0', 'c1', 'a0', 'c2']);
      expect(await values(backend, topic, 'read_committed')).toEqual(['c0', 'c1', 'c2']);
      const committed = await backend.committedOffsets(`${topic}-group`, [{ topic, partition: 0 }]);
      expect(committed.get(`${topic}:0`)).toBe(30);
    } finally {
      await backend.close();
    }
  });

  it('fences the older producer of a transactional id; its open transaction is aborted', async () => {
    const backend = await kafkaBackend();
    const topic = `txn-fence-${Date.now()}`;
    const id = `txn-fence-${Date.now()}`;
    try {
      await backend.createTopics([{ name: topic, partitions: 1 }]);
      const zombie = await producer(backend, id);
      zombie.beginTransaction();
      await zombie.send([{ topic, key: bytes('k'), value: bytes('zombie') }]);
      // A restarted instance: same transactional id, a new InitProducerId.
      const other = await kafkaBackend();
      try {
        const successor = await producer(other, id);
        await expect(
          zombie.send([{ topic, key: bytes('k'), value: bytes('late') }]),
        ).rejects.toBeInstanceOf(ProducerFencedError);
        await expect(zombie.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
        successor.beginTransaction();
        await successor.send([{ topic, key: bytes('k'), value: bytes('successor') }]);
        await successor.commitTransaction();
        expect(await values(other, topic, 'read_committed')).toEqual(['successor']);
      } finally {
        await other.close();
      }
    } finally {
      await backend.close();
    }
  });

  it('a failed batch aborts the transaction only: the same producer id goes on at a bumped epoch (KIP-360)', async () => {
    const backend = await kafkaBackend();
    const topic = `txn-bump-${Date.now()}`;
    try {
      // Batches above 1000 bytes are refused by the partition leader (MESSAGE_TOO_LARGE).
      await backend.createTopics([
        { name: topic, partitions: 1, config: { 'max.message.bytes': '1000' } },
      ]);
      const p = (await producer(backend, topic)) as KafkaTransactionalProducer;
      p.beginTransaction();
      await p.send([{ topic, key: bytes('k'), value: bytes('before') }]);
      const { producerId, epoch } = p;
      await expect(
        p.send([{ topic, key: bytes('k'), value: bytes('x'.repeat(4000)) }]),
      ).rejects.toBeInstanceOf(ProducerFencedError);
      expect(p.state).toBe('ABORTABLE');
      await p.abortTransaction();
      expect(p.state).toBe('READY');
      expect(p.producerId).toBe(producerId);
      // Version 1: InitProducerId with the current id and epoch; version 2: EndTxn's new epoch.
      expect(p.epoch).toBe(epoch + 1);
      p.beginTransaction();
      await p.send([{ topic, key: bytes('k'), value: bytes('after') }]);
      await p.commitTransaction();
      expect(await values(backend, topic, 'read_committed')).toEqual(['after']);
    } finally {
      await backend.close();
    }
  });

  it('an epoch bump names the current producer id and epoch: a stale producer is fenced by it', async () => {
    const backend = await kafkaBackend();
    const id = `txn-bump-zombie-${Date.now()}`;
    const cluster = new KafkaCluster({ bootstrapServers: [bootstrap()], clientId: id });
    try {
      const session = (transactionalId: string) =>
        new ProducerSession(cluster, { transactionalId, transactionTimeoutMs: 10_000 });
      const zombie = session(id);
      await zombie.ensure();
      const current = session(id);
      await current.ensure(); // fences the zombie's epoch
      expect(current.producerId).toBe(zombie.producerId);
      const epoch = current.epoch;
      await current.bumpAtCoordinator();
      expect([current.producerId, current.epoch]).toEqual([zombie.producerId, epoch + 1]);
      // The zombie's bump names a stale epoch: refused, the current producer untouched.
      await expect(zombie.bumpAtCoordinator()).rejects.toMatchObject({
        type: 'PRODUCER_FENCED',
      });
      await current.bumpAtCoordinator();
      expect(current.epoch).toBe(epoch + 2);
    } finally {
      cluster.close();
      await backend.close();
    }
  });

  it("transaction.timeout.ms comes from the application's producer config", async () => {
    const backend = await kafkaBackend();
    try {
      const timeout = (ms: number) => ({
        clientConfig: {
          'transaction.timeout.ms': { value: ms, source: 'producer.transaction.timeout.ms' },
        },
      });
      // Above the broker's transaction.max.timeout.ms (15 minutes): its coordinator refuses it.
      await expect(
        backend.transactionalProducer!(`txn-timeout-${Date.now()}`, timeout(900_001)),
      ).rejects.toMatchObject({ type: 'INVALID_TRANSACTION_TIMEOUT' });
      const p = await backend.transactionalProducer!(`txn-timeout-${Date.now()}`, timeout(5_000));
      expect((p as KafkaTransactionalProducer).state).toBe('READY');
      // Applied by this backend: not reported as a setting no one applies.
      const app = createStreamsApp({
        topology: countPipeline(
          { 'processing.guarantee': 'exactly_once_v2', 'producer.transaction.timeout.ms': 5_000 },
          1,
        ),
        backend,
        stateDir: tempStateDir(),
      });
      expect(app.configNotes()).toEqual([]);
    } finally {
      await backend.close();
    }
  });

  it('refuses offsets sent with a stale group generation (KIP-447) as a fenced producer', async () => {
    const backend = await kafkaBackend();
    const topic = `txn-gen-${Date.now()}`;
    const group = `${topic}-group`;
    try {
      await backend.createTopics([{ name: topic, partitions: 1 }]);
      const member = await backend.joinGroup(group, [topic], { clientId: `${group}-consumer` });
      try {
        const p = await producer(backend, `${topic}-txn`);
        p.beginTransaction();
        await p.send([{ topic, key: bytes('k'), value: bytes('v') }]);
        await expect(
          p.sendOffsetsToTransaction([{ topic, partition: 0, offset: 1 }], group, {
            memberId: member.memberId,
            generation: member.generation() + 5,
          }),
        ).rejects.toBeInstanceOf(ProducerFencedError);
        // A new producer for the id (what the stream thread does on TaskMigrated) goes on.
        const again = await producer(backend, `${topic}-txn`);
        again.beginTransaction();
        await again.send([{ topic, key: bytes('k'), value: bytes('w') }]);
        await again.sendOffsetsToTransaction([{ topic, partition: 0, offset: 1 }], group, {
          memberId: member.memberId,
          generation: member.generation(),
        });
        await again.commitTransaction();
        expect(await values(backend, topic, 'read_committed')).toEqual(['w']);
      } finally {
        await member.leave();
      }
    } finally {
      await backend.close();
    }
  });

  it('runs a count application under exactly_once_v2', async () => {
    const backend = await kafkaBackend();
    try {
      // Its own application id and topics (the shared broker's other tests use count-app's).
      const id = `txn-count-${Date.now()}`;
      const [wordsTopic, countsTopic] = [`${id}-words`, `${id}-counts`];
      const topology = JSON.parse(
        JSON.stringify(countPipeline({ 'processing.guarantee': 'exactly_once_v2' }, 2))
          .replaceAll('"count-app"', JSON.stringify(id))
          .replaceAll('"words"', JSON.stringify(wordsTopic))
          .replaceAll('"counts"', JSON.stringify(countsTopic)),
      ) as ReturnType<typeof countPipeline>;
      const app = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
      await app.start();
      try {
        const words = ['a', 'b', 'a', 'c', 'a', 'b'];
        await backend.produce(
          words.map((w) => ({ topic: wordsTopic, key: encode('string', w), value: bytes(w) })),
        );
        const counts = await waitFor(
          async () => {
            const [r] = await backend.fetchMany([{ topic: countsTopic, partition: 0, offset: 0 }], {
              maxRecords: 100,
              maxWaitMs: 200,
              isolationLevel: 'read_committed',
            });
            return r!.records.length >= words.length ? r!.records : undefined;
          },
          60_000,
          'the counts',
        );
        const last = new Map<string, number>();
        for (const r of counts)
          last.set(
            getSerde('string').deserialize(r.key) as string,
            Number(getSerde('long').deserialize(r.value)),
          );
        expect(Object.fromEntries(last)).toEqual({ a: 3, b: 2, c: 1 });
      } finally {
        await app.close();
        await backend.deleteTopics([wordsTopic, countsTopic]);
      }
    } finally {
      await backend.close();
    }
  });
}

// The shared test broker (tools/kafka's default) is Kafka 4.1.1, which speaks transaction
// version 2; the classic protocol needs a 3.9.1 broker of its own.
describe('the Kafka transactional producer on Kafka 3.9.1 (transaction version 1)', () => {
  let broker: RunningBroker;
  beforeAll(async () => {
    broker = await startBroker({ version: '3.9.1', startTimeoutMs: 180_000 });
  });
  afterAll(async () => {
    await broker?.stop();
  });
  scenarios(() => broker.bootstrapServers, 1);
});

describe('the Kafka transactional producer on Kafka 4.1.1 (transaction version 2)', () => {
  scenarios(() => inject('kafkaBootstrapServers'), 2);
});
