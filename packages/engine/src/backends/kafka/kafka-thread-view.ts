// The Kafka backend as one stream thread in a worker sees it (num.stream.threads > 1): its own
// producer (`<thread>-producer`) and its own fetch connections (`<thread>-consumer`), as each Kafka
// Streams StreamThread has its own producer and consumer. A broker answers one connection's
// requests in order, so threads sharing one connection would wait behind each other's long-polled
// fetches. Group membership, commits and admin calls go to the backend itself (each joinGroup is a
// member with connections of its own already, and commits go out with the owning member's
// generation). The clients connect on first use; the backend closes the views still open.
import type { Backend } from '../../api.js';
import { KafkaFetcher, type OffsetRange } from './kafka-fetch.js';
import { KafkaProducer } from './kafka-produce.js';
import { createCluster } from './kafkajs-internals.js';
import type kafkajs from 'kafkajs';

export interface ThreadViewDeps {
  /** A kafkajs client with the backend's settings under this client id. */
  client: (clientId: string) => InstanceType<typeof kafkajs.Kafka>;
  partitionsOf: (topic: string) => Promise<number>;
  range: OffsetRange;
  /** Throws once the backend is closed. */
  open: () => void;
  /** Registers the view's fetcher (a topic delete drops what it kept); returns its removal. */
  fetcher: (fetcher: KafkaFetcher) => () => void;
  /** Called when the view closes. */
  closed: () => void;
}

export function threadView(backend: Backend, threadName: string, deps: ThreadViewDeps): Backend {
  const producerCluster = createCluster(deps.client(`${threadName}-producer`));
  // Its own sticky partition for null keys, as each Java producer has.
  const producer = new KafkaProducer(producerCluster, deps.partitionsOf);
  const cluster = createCluster(deps.client(`${threadName}-consumer`));
  const fetcher = new KafkaFetcher(cluster, deps.range);
  const unregister = deps.fetcher(fetcher);
  let connected: Promise<void> | null = null;
  const ready = (): Promise<void> =>
    (connected ??= Promise.all([producerCluster.connect(), cluster.connect()]).then(
      () => undefined,
      (error: unknown) => {
        connected = null; // the next call tries again
        throw error;
      },
    ));
  let closed: Promise<void> | null = null;
  const view: Backend = {
    kind: 'kafka',
    createTopics: (topics) => backend.createTopics(topics),
    deleteTopics: (names) => backend.deleteTopics(names),
    listTopics: () => backend.listTopics(),
    describeTopic: (name) => backend.describeTopic(name),
    offsetForTimestamp: (tp, timestamp) => backend.offsetForTimestamp!(tp, timestamp),
    produce: async (records, options) => {
      deps.open();
      if (records.length === 0) return [];
      await ready();
      return producer.produce(records, options);
    },
    fetch: async (tp, offset, maxRecords, maxWaitMs, options) => {
      const [response] = await view.fetchMany([{ ...tp, offset }], {
        maxRecords,
        maxWaitMs,
        ...options,
      });
      return response?.records ?? [];
    },
    fetchMany: async (requests, options) => {
      deps.open();
      await ready();
      return fetcher.fetchMany(requests, options);
    },
    joinGroup: (groupId, topics, options) => backend.joinGroup(groupId, topics, options),
    commitOffsets: (groupId, offsets) => backend.commitOffsets(groupId, offsets),
    committedOffsets: (groupId, tps) => backend.committedOffsets(groupId, tps),
    close: () =>
      (closed ??= (async () => {
        deps.closed();
        unregister();
        await producerCluster.disconnect().catch(() => {});
        await cluster.disconnect().catch(() => {});
      })()),
  };
  return view;
}
