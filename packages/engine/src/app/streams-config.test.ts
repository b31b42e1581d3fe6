// The application config as Kafka Streams reads it, on the embedded backend: the `topic.`
// defaults reach the internal topics with InternalTopicConfig's precedence (library defaults <
// `topic.*` < the store's own; a windowed changelog's computed retention wins), what no one
// applies is reported (configNotes, WARN at start), and the main consumer's settings the engine
// implements (auto.offset.reset, max.poll.records) are used.
import {
  planTopology,
  resolveStreamsConfig,
  validateTopology,
  type Topology,
} from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from '../backends/embedded/index.js';
import { withTempDir } from '../test-helpers.js';
import { configNotes, configNotesFor } from './config-report.js';
import { engineConfig } from './config.js';
import { createStreamsApp } from './streams-app.js';
import { ensureTopics } from './topics.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** clicks → groupByKey → count (store counts), and → windowedBy(1 min) → count (store windowed). */
function countsDoc(config: Record<string, unknown>): Topology {
  const result = validateTopology({
    schemaVersion: 1,
    application: { id: 'cfg', config },
    topics: [{ name: 'clicks', partitions: 2 }],
    nodes: [
      { id: 'src', kind: 'source', config: { topic: 'clicks' } },
      { id: 'sel', kind: 'selectKey', config: { expression: 'value' } },
      { id: 'g', kind: 'groupByKey', config: {} },
      { id: 'n', kind: 'count', config: { store: 'counts' } },
      { id: 'g2', kind: 'groupByKey', config: {} },
      { id: 'w', kind: 'windowedBy', config: { window: { type: 'tumbling', sizeMs: 60_000 } } },
      { id: 'wn', kind: 'windowedCount', config: { store: 'windowed' } },
    ],
    edges: [
      { from: 'src', to: 'sel' },
      { from: 'sel', to: 'g' },
      { from: 'g', to: 'n' },
      { from: 'src', to: 'g2' },
      { from: 'g2', to: 'w' },
      { from: 'w', to: 'wn' },
    ],
  });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.topology;
}

describe("Kafka Streams' application config on the embedded backend", () => {
  it('internal topics get the topic. configs over the library defaults, under their own', async () => {
    const topology = countsDoc({
      'topic.segment.bytes': 10_485_760,
      'topic.retention.ms': 3_600_000,
      'topic.min.insync.replicas': 2,
      // Kafka 4.1 knows it; the embedded log does not implement it: left out and reported.
      'topic.compression.zstd.level': 3,
      'replication.factor': 3,
    });
    const plan = planTopology(topology);
    const streams = resolveStreamsConfig(topology.application.config);
    const backend = await createEmbeddedBackend();
    try {
      await ensureTopics(backend, topology, plan, silent, streams);
      const config = async (name: string) => (await backend.describeTopic(name))?.config;
      // RepartitionTopicConfig: cleanup.policy delete, segment.bytes 50 MB, retention.ms -1,
      // then topic.* (segment.bytes and retention.ms win).
      expect(await config('cfg-counts-repartition')).toEqual({
        'cleanup.policy': 'delete',
        'message.timestamp.type': 'CreateTime',
        'min.insync.replicas': '2',
        'retention.ms': '3600000',
        'segment.bytes': '10485760',
      });
      // UnwindowedUnversionedChangelogTopicConfig: cleanup.policy compact, then topic.*.
      expect(await config('cfg-counts-changelog')).toEqual({
        'cleanup.policy': 'compact',
        'message.timestamp.type': 'CreateTime',
        'min.insync.replicas': '2',
        'retention.ms': '3600000',
        'segment.bytes': '10485760',
      });
      // WindowedChangelogTopicConfig: retention.ms is the store's retention (size + grace, 1
      // minute here) plus windowstore.changelog.additional.retention.ms (1 day), whatever
      // topic.retention.ms says.
      expect(await config('cfg-windowed-changelog')).toEqual({
        'cleanup.policy': 'compact,delete',
        'message.timestamp.type': 'CreateTime',
        'min.insync.replicas': '2',
        'retention.ms': String(60_000 + 86_400_000),
        'segment.bytes': '10485760',
      });
      expect(configNotes(streams, backend).map((n) => [n.key, n.message])).toEqual([
        [
          'topic.compression.zstd.level',
          'the embedded backend does not implement the topic config compression.zstd.level: internal topics are created without it',
        ],
      ]);
    } finally {
      await backend.close();
    }
  });

  it('reports each client setting no one applies, once, naming the clients; the Kafka backend applies the group timings', () => {
    const streams = resolveStreamsConfig({
      'consumer.session.timeout.ms': 6000,
      'main.consumer.max.poll.records': 500,
      'producer.linger.ms': 5,
      'fetch.min.bytes': 1,
      'main.consumer.auto.offset.reset': 'none',
      'producer.acks': 'all',
      'no.such.key': 1,
    });
    const messages = (kind: 'embedded' | 'kafka') =>
      configNotesFor(kind, streams).map((n) => `${n.key}: ${n.message}`);
    expect(messages('embedded')).toEqual([
      expect.stringMatching(/^no\.such\.key: 'no\.such\.key' is not a Kafka Streams config/),
      'fetch.min.bytes: fetch.min.bytes of the main consumer, restore consumer and global consumer is not implemented by the embedded backend: fetch.min.bytes is ignored',
      'consumer.session.timeout.ms: session.timeout.ms of the main consumer is not implemented by the embedded backend: consumer.session.timeout.ms is ignored',
      'producer.linger.ms: linger.ms of the producer is not implemented by the embedded backend: producer.linger.ms is ignored',
      'producer.acks: acks of the producer is not implemented by the embedded backend: producer.acks is ignored',
    ]);
    expect(messages('kafka')).toEqual([
      expect.stringMatching(/^no\.such\.key: /),
      'fetch.min.bytes: fetch.min.bytes of the main consumer, restore consumer and global consumer is not implemented by the kafka backend: fetch.min.bytes is ignored',
      'producer.linger.ms: linger.ms of the producer is not implemented by the kafka backend: producer.linger.ms is ignored',
    ]);
  });

  it("reads the main consumer's max.poll.records, auto.offset.reset and isolation.level with Kafka Streams' precedence", () => {
    const config = engineConfig('a', {
      'max.poll.records': 10,
      'consumer.max.poll.records': 20,
      'main.consumer.max.poll.records': 30,
      'consumer.auto.offset.reset': 'latest',
      'restore.consumer.isolation.level': 'read_committed',
    });
    expect(config.maxPollRecords).toBe(30);
    expect(config.autoOffsetReset).toBe('latest');
    expect(engineConfig('a', { 'auto.offset.reset': 'none' }).autoOffsetReset).toBe('none');
    expect(config.isolationLevel).toBe('read_uncommitted');
    expect(config.restoreIsolationLevel).toBe('read_committed');
    expect(() => engineConfig('a', { 'producer.linger.ms': 'soon' })).toThrow(
      'application.config["producer.linger.ms"]: Invalid value soon for configuration producer.linger.ms: Not a number of type LONG',
    );
  });

  it('reads upgrade.from as the rebalance protocol and application.server as host:port', () => {
    expect(engineConfig('a', {}).rebalanceProtocol).toBe('cooperative');
    expect(engineConfig('a', { 'upgrade.from': '2.3' }).rebalanceProtocol).toBe('eager');
    expect(engineConfig('a', { 'upgrade.from': '2.4' }).rebalanceProtocol).toBe('cooperative');
    expect(engineConfig('a', {}).applicationServer).toBeNull();
    expect(engineConfig('a', { 'application.server': 'host-1:7070' }).applicationServer).toBe(
      'host-1:7070',
    );
    expect(() => engineConfig('a', { 'application.server': 'host-1' })).toThrow(
      'Invalid value host-1 for configuration application.server: it must be host:port',
    );
  });

  it('start() logs every note at WARN, naming the key and its path', async () => {
    await withTempDir(async (dir) => {
      const backend = await createEmbeddedBackend({ dataDir: `${dir}/log` });
      const warnings: { fields: object; message: string | undefined }[] = [];
      const app = createStreamsApp({
        topology: countsDoc({ 'consumer.fetch.max.wait.ms': 100, 'my.setting': 'x' }),
        backend,
        stateDir: `${dir}/state`,
        logger: { ...silent, warn: (fields, message) => void warnings.push({ fields, message }) },
      });
      try {
        expect(app.configNotes().map((n) => n.key)).toEqual([
          'my.setting',
          'consumer.fetch.max.wait.ms',
        ]);
        await app.start();
        expect(warnings.slice(0, 2)).toEqual([
          {
            fields: {
              config: 'my.setting',
              path: 'application.config["my.setting"]',
              kind: 'unknown',
            },
            message: expect.stringContaining(
              `"The configuration 'my.setting' was supplied but isn't a known config."`,
            ),
          },
          {
            fields: {
              config: 'consumer.fetch.max.wait.ms',
              path: 'application.config["consumer.fetch.max.wait.ms"]',
              kind: 'unsupported',
            },
            message:
              'fetch.max.wait.ms of the main consumer, restore consumer and global consumer is not implemented by the embedded backend: consumer.fetch.max.wait.ms is ignored',
          },
        ]);
      } finally {
        await app.close();
        await backend.close();
      }
    });
  });
});
