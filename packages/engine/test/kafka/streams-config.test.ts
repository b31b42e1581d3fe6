// The application's Kafka Streams config on real brokers: replication.factor and the `topic.`
// configs reach the internal topics the backend creates (as Kafka Streams' InternalTopicManager
// passes them), read back from the broker; a replication factor the cluster cannot meet fails
// the start naming it; on a 3-node cluster (tools/kafka startCluster) replication.factor is
// what the changelog gets, and -1 leaves it to the broker's default.replication.factor.
import { startCluster, type RunningCluster } from '@streamwright/kafka-broker';
import { planTopology, resolveStreamsConfig } from '@streamwright/topology-model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { ensureTopics } from '../../src/app/topics.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend, readLongs, seedTopology } from './kafka-fixtures.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

describe("the application's Kafka Streams config on the test broker", () => {
  it('replication.factor 1 and topic. configs reach the changelog and repartition topics', async () => {
    const backend = await kafkaBackend();
    try {
      const topology = seedTopology('table-sum.topology.json', 'cfg-rf1', 'cfg-in', 'cfg-out', 1, {
        'replication.factor': 1,
        'topic.segment.bytes': 10_485_760,
        'topic.max.message.bytes': 2_000_000,
        // The group timings of the main consumer, applied by the Kafka backend.
        'consumer.session.timeout.ms': 6000,
        'consumer.heartbeat.interval.ms': 1000,
      });
      const warnings: string[] = [];
      const app = createStreamsApp({
        topology,
        backend,
        stateDir: tempStateDir(),
        logger: { ...silent, warn: (_fields, message) => void warnings.push(String(message)) },
      });
      expect(app.configNotes()).toEqual([]);
      await app.start();
      await backend.produce([
        { topic: 'cfg-in', key: encode('string', 'a'), value: encode('long', 1), timestamp: 1 },
      ]);
      await waitFor(
        async () => ((await readLongs(backend, 'cfg-out')).length > 0 ? true : undefined),
        60_000,
        'output',
      );
      await app.close();
      expect(warnings).toEqual([]);
      const internal = (await backend.listTopics()).filter((t) => t.name.startsWith('cfg-rf1-'));
      const changelog = internal.find((t) => t.name.endsWith('-changelog'));
      const repartition = internal.find((t) => t.name.endsWith('-repartition'));
      // As the broker describes them (the topic's own configs, not its defaults).
      expect(changelog?.config).toEqual({
        'cleanup.policy': 'compact',
        'message.timestamp.type': 'CreateTime',
        'segment.bytes': '10485760',
        'max.message.bytes': '2000000',
      });
      expect(repartition?.config).toEqual({
        'cleanup.policy': 'delete',
        'message.timestamp.type': 'CreateTime',
        'retention.ms': '-1',
        'segment.bytes': '10485760',
        'max.message.bytes': '2000000',
      });
    } finally {
      await backend.close();
    }
  });

  it('replication.factor 2 on one broker fails the start, naming the replication factor', async () => {
    const backend = await kafkaBackend();
    try {
      const topology = seedTopology(
        'stream-sum.topology.json',
        'cfg-rf2',
        'cfg2-in',
        'cfg2-out',
        1,
        {
          'replication.factor': 2,
        },
      );
      const app = createStreamsApp({ topology, backend, stateDir: tempStateDir() });
      const error = await app.start().then(
        () => null,
        (e: unknown) => e as Error,
      );
      await app.close();
      expect(error?.message).toMatch(/cfg-rf2-.*-changelog/);
      expect(error?.message).toMatch(/replication factor of 2/i);
      expect(app.state()).toBe('ERROR');
    } finally {
      await backend.close();
    }
  });
});

describe('replication.factor on a 3-node cluster', () => {
  let cluster: RunningCluster;
  beforeAll(async () => {
    cluster = await startCluster({ brokers: 3 });
  }, 240_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('replication.factor 2 gives the changelog 2 replicas; -1 the broker default (3), with topic.min.insync.replicas', async () => {
    const backend = await createKafkaBackend({
      bootstrapServers: cluster.bootstrapServers.split(','),
    });
    try {
      for (const [appId, rf] of [
        ['rf2', 2],
        ['rfdefault', -1],
      ] as const) {
        const topology = seedTopology(
          'stream-sum.topology.json',
          appId,
          `${appId}-in`,
          `${appId}-out`,
          2,
          {
            'replication.factor': rf,
            'topic.min.insync.replicas': 2,
          },
        );
        await ensureTopics(
          backend,
          topology,
          planTopology(topology),
          silent,
          resolveStreamsConfig(topology.application.config),
        );
        const changelog = `${appId}-stream-sums-changelog`;
        const partitions = await cluster.describeTopic(changelog);
        expect(partitions.map((p) => p.replicas.length)).toEqual(rf === 2 ? [2, 2] : [3, 3]);
        expect((await backend.describeTopic(changelog))?.config['min.insync.replicas']).toBe('2');
      }
    } finally {
      await backend.close();
    }
  });
});
