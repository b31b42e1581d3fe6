// The engine's Kafka client on the real broker (the shared one of the global setup): the API
// versions it negotiates, requests pipelined on one connection and matched to their answers, a
// request that outlives its timeout, SASL SCRAM straight on a connection, metadata that follows
// a topic made again with more partitions, and the health report of a broker that cannot be
// reached. The reconnect through a broker killed and restarted is in client-reconnect.test.ts.
import { apis } from '@streamwright/kafka-protocol';
import { describe, expect, inject, it } from 'vitest';
import { KafkaCluster } from '../../src/backends/kafka/client/cluster.js';
import { BrokerConnection } from '../../src/backends/kafka/client/connection.js';
import {
  KafkaConnectionError,
  KafkaRequestTimeoutError,
  KafkaSaslAuthenticationError,
} from '../../src/backends/kafka/client/errors.js';
import { CLIENT_VERSIONS } from '../../src/backends/kafka/client/versions.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { waitFor } from '../fixtures/wait.js';
import { SASL_USERS } from './broker-setup.js';

const address = (servers: string) => {
  const [host, port] = servers.split(':') as [string, string];
  return { host, port: Number(port) };
};
const plain = () => address(inject('kafkaBootstrapServers'));

describe('the Kafka client: one connection', () => {
  it('speaks, per API, the highest version both it and the broker know', async () => {
    const connection = await BrokerConnection.open({ ...plain(), clientId: 'client-versions' });
    try {
      const answer = await connection.send(
        'ApiVersions',
        { clientSoftwareName: 'streamwright-test', clientSoftwareVersion: '1' },
        { version: 3 },
      );
      expect(answer.errorCode).toBe(0);
      const broker = new Map(answer.apiKeys.map((k) => [k.apiKey, k]));
      // Every API the client implements is negotiated; none above the broker's or its own.
      for (const [api, [min, max]] of Object.entries(CLIENT_VERSIONS)) {
        if (api === 'ApiVersions') continue;
        const v = connection.version(api as keyof typeof CLIENT_VERSIONS);
        expect(v).toBeGreaterThanOrEqual(min);
        expect(v).toBeLessThanOrEqual(max);
        const key = apis[api as keyof typeof CLIENT_VERSIONS].apiKey;
        expect(v).toBe(Math.min(max, broker.get(key)!.maxVersion));
      }
      // Fetch and Produce stop at 12 here (13+ name topics by id), which every broker tested has.
      expect(connection.version('Fetch')).toBe(12);
    } finally {
      connection.close();
    }
  });

  it('pipelines requests on one connection and hands each answer to its request', async () => {
    const connection = await BrokerConnection.open({ ...plain(), clientId: 'client-pipeline' });
    try {
      const names = Array.from({ length: 40 }, (_, i) => `client-pipeline-not-there-${i}`);
      const answers = names.map((name) =>
        connection.send('Metadata', { topics: [{ name }], allowAutoTopicCreation: false }),
      );
      // All 40 written before the first answer came back.
      expect(connection.inFlight).toBe(40);
      const got = await Promise.all(answers);
      expect(got.map((a) => a.topics[0]!.name)).toEqual(names);
      expect(got.every((a) => a.topics[0]!.errorCode === 3)).toBe(true); // UNKNOWN_TOPIC_OR_PARTITION
      expect(connection.inFlight).toBe(0);
    } finally {
      connection.close();
    }
  });

  it('closes the connection when a request outlives its timeout, failing what waited on it', async () => {
    const backend = await createKafkaBackend({
      bootstrapServers: [inject('kafkaBootstrapServers')],
    });
    await backend.createTopics([{ name: 'client-timeout', partitions: 1 }]);
    await backend.close();
    const connection = await BrokerConnection.open({ ...plain(), clientId: 'client-timeout' });
    // A long poll on an empty partition: the broker holds it 5 s, the request allows 300 ms.
    const poll = connection.send(
      'Fetch',
      {
        maxWaitMs: 5_000,
        minBytes: 1,
        topics: [
          {
            topic: 'client-timeout',
            partitions: [{ partition: 0, fetchOffset: 0n, partitionMaxBytes: 1024 }],
          },
        ],
      },
      { timeoutMs: 300 },
    );
    const behind = connection.send('Metadata', { topics: [], allowAutoTopicCreation: false });
    const started = performance.now();
    await expect(poll).rejects.toBeInstanceOf(KafkaRequestTimeoutError);
    await expect(behind).rejects.toBeInstanceOf(KafkaRequestTimeoutError);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(connection.closed).toBe(true);
  });

  it('logs in with SCRAM-SHA-512 over SaslHandshake + SaslAuthenticate, and names a refused login', async () => {
    const [[user, password]] = Object.entries(SASL_USERS) as [[string, string]];
    const sasl = address(inject('kafkaSaslBootstrapServers'));
    const connection = await BrokerConnection.open({
      ...sasl,
      clientId: 'client-scram',
      sasl: { mechanism: 'scram-sha-512', username: user, password },
    });
    const answer = await connection.send('Metadata', { topics: [], allowAutoTopicCreation: false });
    expect(answer.brokers.length).toBe(1);
    connection.close();
    const refused = await BrokerConnection.open({
      ...sasl,
      clientId: 'client-scram',
      sasl: { mechanism: 'scram-sha-512', username: user, password: 'wrong' },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KafkaSaslAuthenticationError);
    expect((refused as Error).message).toContain(
      `SASL SCRAM-SHA-512 authentication as "${user}" failed`,
    );
    expect((refused as Error).message).not.toContain('wrong');
  });
});

describe('the Kafka client: the cluster', () => {
  it('refreshes a topic’s metadata when told it is stale (a topic made again with more partitions)', async () => {
    const backend = await createKafkaBackend({
      bootstrapServers: [inject('kafkaBootstrapServers')],
    });
    const cluster = new KafkaCluster({
      bootstrapServers: [inject('kafkaBootstrapServers')],
      clientId: 'client-metadata',
    });
    try {
      await backend.deleteTopics(['client-metadata']);
      expect(await cluster.topic('client-metadata')).toBeUndefined();
      await backend.createTopics([{ name: 'client-metadata', partitions: 2 }]);
      cluster.invalidate();
      expect((await cluster.topic('client-metadata'))?.partitions.length).toBe(2);
      expect(await cluster.leader('client-metadata', 1)).toBeGreaterThanOrEqual(0);
      // Made again with 5 partitions (KRaft deletes asynchronously: wait until it is gone).
      await backend.deleteTopics(['client-metadata']);
      await waitFor(
        async () =>
          (await backend.describeTopic('client-metadata').catch(() => undefined)) === null,
        30_000,
        'the topic deleted',
      );
      await backend.createTopics([{ name: 'client-metadata', partitions: 5 }]);
      // Cached until stale:
      expect(cluster.knownTopic('client-metadata')?.partitions.length).toBe(2);
      await waitFor(
        async () => {
          cluster.invalidate();
          return (await cluster.topic('client-metadata'))?.partitions.length === 5;
        },
        30_000,
        'the new partition count in the metadata',
      );
    } finally {
      cluster.close();
      await backend.close();
    }
  });

  it('reports a broker it cannot reach, and since when, while it keeps trying', async () => {
    // A port nothing listens on.
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const cluster = new KafkaCluster({
      bootstrapServers: [`127.0.0.1:${port}`],
      clientId: 'client-down',
    });
    const changes: number[] = [];
    cluster.health.onChange((h) => changes.push(h.unreachable.length));
    const before = Date.now();
    const attempts: number[] = [];
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 2_500);
    const error = await cluster
      .retrying('a metadata request', () => (attempts.push(Date.now()), cluster.metadata([])), {
        signal: stop.signal,
      })
      .catch((e: unknown) => e);
    cluster.close();
    expect(error).toBeInstanceOf(KafkaConnectionError);
    const [down] = cluster.health.health().unreachable;
    expect(down?.broker).toBe(`127.0.0.1:${port}`);
    expect(down!.since).toBeGreaterThanOrEqual(before);
    expect(down!.error).toMatch(/ECONNREFUSED/);
    expect(changes).toEqual([1]);
    // Reconnects backed off exponentially from 50 ms towards 1 s (±20 %): 2.5 s hold ~7 attempts,
    // not hundreds, and the later gaps are the longer ones.
    expect(attempts.length).toBeGreaterThanOrEqual(4);
    expect(attempts.length).toBeLessThanOrEqual(12);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(gaps[gaps.length - 1]!).toBeGreaterThan(gaps[0]!);
  });

  it("merges what stream threads' own clients in workers report into the backend's health", async () => {
    const backend = await createKafkaBackend({
      bootstrapServers: [inject('kafkaBootstrapServers')],
    });
    try {
      const heard: number[] = [];
      backend.onHealthChange!((h) => heard.push(h.unreachable.length));
      const down = (since: number) => ({ broker: '127.0.0.1:1', since, error: 'ECONNREFUSED' });
      backend.reportHealth!('app-StreamThread-1', { unreachable: [down(2000)] });
      backend.reportHealth!('app-StreamThread-2', { unreachable: [down(1000)] });
      expect(backend.health!()).toEqual({ unreachable: [down(1000)] });
      backend.reportHealth!('app-StreamThread-2', { unreachable: [] });
      expect(backend.health!()).toEqual({ unreachable: [down(2000)] });
      backend.reportHealth!('app-StreamThread-1', { unreachable: [] });
      expect(backend.health!()).toEqual({ unreachable: [] });
      expect(heard).toEqual([1, 1, 1, 0]);
    } finally {
      await backend.close();
    }
  });
});
