// The Kafka backend as one stream thread in a worker sees it (num.stream.threads > 1): its own
// producer (`<thread>-producer`) and its own fetch connections (`<thread>-consumer`), as each Kafka
// Streams StreamThread has its own producer and consumer. A broker answers one connection's
// requests in order, so threads sharing one connection would wait behind each other's long-polled
// fetches. Group membership, commits and admin calls go to the backend itself (each joinGroup is a
// member with connections of its own already, and commits go out with the owning member's
// generation). The clients connect on first use; the backend closes the views still open.
// (The clients depend on nothing of the main thread: a worker could own them — issue 20.)
import type { Backend } from '../../backend-spi.js';
import type { KafkaCluster } from './client/cluster.js';
import { KafkaFetcher, type OffsetRange } from './kafka-fetch.js';
import { idempotentProducer } from './kafka-produce.js';

export interface ThreadViewDeps {
  /** A client of the cluster with the backend's settings under this client id. */
  client: (clientId: string) => KafkaCluster;
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
  const producerCluster = deps.client(`${threadName}-producer`);
  // Its own sticky partition for null keys, as each Java producer has.
  const producer = idempotentProducer(producerCluster, deps.partitionsOf);
  const cluster = deps.client(`${threadName}-consumer`);
  const fetcher = new KafkaFetcher(cluster, deps.range);
  const unregister = deps.fetcher(fetcher);
  let closed: Promise<void> | null = null;
  const view: Backend = {
    kind: 'kafka',
    groupUserData: true,
    createTopics: (topics) => backend.createTopics(topics),
    deleteTopics: (names) => backend.deleteTopics(names),
    listTopics: () => backend.listTopics(),
    describeTopic: (name) => backend.describeTopic(name),
    offsetForTimestamp: (tp, timestamp) => backend.offsetForTimestamp!(tp, timestamp),
    produce: async (records, options) => {
      deps.open();
      if (records.length === 0) return [];
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
      return fetcher.fetchMany(requests, options);
    },
    joinGroup: (groupId, topics, options) => backend.joinGroup(groupId, topics, options),
    commitOffsets: (groupId, offsets) => backend.commitOffsets(groupId, offsets),
    committedOffsets: (groupId, tps) => backend.committedOffsets(groupId, tps),
    // exactly_once_v2: the thread's transactional producer is the backend's (its own connections).
    transactionalProducer: (transactionalId, options) =>
      backend.transactionalProducer!(transactionalId, options),
    close: () =>
      (closed ??= (async () => {
        deps.closed();
        unregister();
        producerCluster.close();
        cluster.close();
      })()),
  };
  return view;
}
