// What the topic commands (`topics`, `produce`, `consume`) need, whether they work on a data dir
// directly or through a running runtime: the same operations, the same errors.
import type { CompressionType, TopicDescription } from '@streamwright/engine';
import type {
  BatchRecord,
  CommittedOffset,
  FetchedPartition,
  FetchRequest,
} from '../service/record-service.js';
import type { CreateTopicRequest } from '../service/topic-service.js';

export interface Connection {
  /** For messages: `data dir /x` or `runtime http://…`. */
  readonly describeTarget: string;
  listTopics(): Promise<TopicDescription[]>;
  describeTopic(name: string): Promise<TopicDescription>;
  createTopic(request: CreateTopicRequest): Promise<TopicDescription>;
  deleteTopic(name: string): Promise<void>;
  produceBatch(
    topic: string,
    records: readonly BatchRecord[],
    compression?: CompressionType,
  ): Promise<{ partition: number; offset: number }[]>;
  fetch(request: FetchRequest, signal?: AbortSignal): Promise<FetchedPartition[]>;
  commitOffsets(group: string, topic: string, offsets: CommittedOffset[]): Promise<void>;
  committedOffsets(group: string, topic: string): Promise<CommittedOffset[]>;
  close(): Promise<void>;
}

/** The options every topic command takes to choose where it works. */
export interface TargetOptions {
  url?: string;
  token?: string;
  dataDir?: string;
}
