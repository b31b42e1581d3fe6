// tools/kafka's broker tools on a broker of this file's own (the shared one must stay up for the
// other files), started with SASL users and KRaft's StandardAuthorizer:
// - ACLs: a SASL user without ACLs is refused (Kafka's Java Admin client meets
//   TopicAuthorizationException), one with ACLs is allowed (the Java client, and the Kafka backend
//   produces), and refused again once they are removed;
// - restarts (kill, stop({ keepDir }), start, restart): the node comes back as the same node —
//   same ports, same data, same ACLs — so clients see an outage and a recovery, not a new
//   cluster; the final stop removes its temp dir.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import {
  runAdmin,
  startBroker,
  type KafkaAcl,
  type RunningBroker,
} from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { getSerde } from '../../src/serdes/index.js';
import { encode } from '../fixtures/records.js';

const TOPIC = 'restartable';

/** Whether something accepts TCP connections at host:port. */
function accepts(hostPort: string): Promise<boolean> {
  const [host, port] = hostPort.split(':');
  return new Promise((resolve) => {
    const socket = connect(Number(port), host!);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function produce(servers: string, value: string) {
  const backend = await createKafkaBackend({ bootstrapServers: [servers] });
  try {
    await backend.createTopics([{ name: TOPIC, partitions: 1 }]);
    await backend.produce([{ topic: TOPIC, key: null, value: encode('string', value) }]);
  } finally {
    await backend.close();
  }
}

async function values(servers: string): Promise<string[]> {
  const backend = await createKafkaBackend({ bootstrapServers: [servers] });
  try {
    const records = await backend.fetch({ topic: TOPIC, partition: 0 }, 0, 100, 1000);
    return records.map((r) => getSerde('string').deserialize(r.value) as string);
  } finally {
    await backend.close();
  }
}

const USERS = { admin: 'admin-secret', alice: 'alice-secret' };
const ALICE = { mechanism: 'plain', username: 'alice', password: USERS.alice } as const;
const ALICE_TOPIC = 'alice-topic';
// What the Kafka backend's produce needs, as Java's producer: WRITE on the topic (which implies
// DESCRIBE, and lets an idempotent producer get its id; authorization.test.ts has the details).
const aliceMayWrite: KafkaAcl[] = ['WRITE'].map((operation) => ({
  principal: 'User:alice',
  operation,
  resourceType: 'TOPIC',
  resourceName: ALICE_TOPIC,
}));

let broker: RunningBroker;
beforeAll(async () => {
  broker = await startBroker({
    startTimeoutMs: 180_000,
    sasl: { users: USERS },
    authorizer: { superUsers: ['admin'] },
  });
});
afterAll(async () => {
  await broker?.stop();
});

/** Kafka's Java Admin client as alice (SASL PLAIN) describing her topic. */
const describeAsAlice = () =>
  runAdmin(
    broker.version,
    broker.saslBootstrapServers!,
    'describe-topic',
    { topic: ALICE_TOPIC },
    {
      'security.protocol': 'SASL_PLAINTEXT',
      'sasl.mechanism': 'PLAIN',
      'sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="${USERS.alice}";`,
    },
  );

/** The Kafka backend as alice producing one record to her topic. */
async function produceAsAlice() {
  const backend = await createKafkaBackend({
    bootstrapServers: [broker.saslBootstrapServers!],
    sasl: ALICE,
  });
  try {
    await backend.produce([{ topic: ALICE_TOPIC, key: null, value: encode('string', 'hi') }]);
  } finally {
    await backend.close();
  }
}

describe("tools/kafka's broker with KRaft's StandardAuthorizer", () => {
  it('a user without ACLs is refused; with ACLs allowed; refused again once they are removed', async () => {
    // The topic made by the super user on the node's own listener.
    const admin = await createKafkaBackend({ bootstrapServers: [broker.bootstrapServers] });
    await admin.createTopics([{ name: ALICE_TOPIC, partitions: 1 }]);
    await admin.close();

    await expect(describeAsAlice()).rejects.toThrow(/TopicAuthorizationException/);

    await broker.createAcls(aliceMayWrite);
    expect(await broker.describeAcls()).toEqual(
      expect.arrayContaining(aliceMayWrite.map((a) => expect.objectContaining(a))),
    );
    expect(await describeAsAlice()).toMatchObject({ partitions: [{ partition: 0, leader: 1 }] });
    await produceAsAlice();

    expect(await broker.deleteAcls(aliceMayWrite)).toBe(1);
    await expect(describeAsAlice()).rejects.toThrow(/TopicAuthorizationException/);
  });
});

describe("tools/kafka's broker: kill, stop and start again as the same node", () => {
  it('kill(): the JVM is gone and the port refuses; start(): same port, same data', async () => {
    await produce(broker.bootstrapServers, 'before the kill');
    const { bootstrapServers, pid } = broker;
    await broker.kill();
    expect(broker.running).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await accepts(bootstrapServers)).toBe(false);

    await broker.start();
    expect(broker.running).toBe(true);
    expect(broker.pid).not.toBe(pid);
    expect(broker.bootstrapServers).toBe(bootstrapServers);
    await produce(bootstrapServers, 'after the restart');
    expect(await values(bootstrapServers)).toEqual(['before the kill', 'after the restart']);
  });

  it('restart() and stop({ keepDir: true }) keep the data; the final stop removes the dir', async () => {
    const { pid } = broker;
    await broker.restart();
    expect(broker.pid).not.toBe(pid);
    expect(await values(broker.bootstrapServers)).toEqual(['before the kill', 'after the restart']);
    await broker.stop({ keepDir: true });
    expect(broker.running).toBe(false);
    expect(existsSync(broker.dir)).toBe(true);
    await broker.stop();
    expect(existsSync(broker.dir)).toBe(false);
    await expect(broker.start()).rejects.toThrow(/cannot start again/);
  });
});
