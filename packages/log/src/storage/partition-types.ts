// The shapes a partition's log takes and gives: its options, its checkpoint, what an append and a
// read return, and the isolation levels a reader asks for (PartitionLog, segment-reads.ts).
import type { TopicConfig } from '../config.js';
import type { BatchHeader } from '../format/record-batch.js';
import type { FlushRounds } from './flush-rounds.js';

export type IsolationLevel = 'read_uncommitted' | 'read_committed';

export interface PartitionCheckpoint {
  recoveryPoint: number;
  logStartOffset: number;
}

export interface AppendInfo {
  baseOffset: number;
  lastOffset: number;
  /** LogAppendTime when the topic uses it, else -1 (as Kafka's produce response). */
  logAppendTime: number;
}

export interface ReadBatch {
  batch: Buffer;
  header: BatchHeader;
}

export interface PartitionOptions {
  dir: string;
  topic: string;
  partition: number;
  config: () => TopicConfig;
  clock: () => number;
  /** The Log's flush rounds (its partitions' timed flushes go out together). */
  flushRounds?: FlushRounds;
}
