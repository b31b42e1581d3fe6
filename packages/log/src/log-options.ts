// How a Log is opened (Log.open).

export interface LogOptions {
  dataDir: string;
  /** Milliseconds since the epoch; inject one to test retention, segment.ms and timeouts. */
  clock?: () => number;
  /** Log-level topic config defaults, like a broker's `log.*` settings (e.g. `flush.ms`). */
  topicDefaults?: Record<string, string | number>;
  /** Run retention, compaction and checkpoints on timers (default true). Off: call them yourself. */
  background?: boolean;
  /** Kafka's log.retention.check.interval.ms (default 5 minutes). */
  retentionCheckIntervalMs?: number;
  /** How often the cleaner looks for dirty compacted logs (Kafka's log.cleaner.backoff.ms, 15 s). */
  cleanerBackoffMs?: number;
  /**
   * How often recovery points are checkpointed when they moved (default 1 s): bounds the scan after
   * a crash, and how stale the point below which damage is never taken for a torn write can be.
   */
  checkpointIntervalMs?: number;
  /** Partitions of `__consumer_offsets` when it is first created (Kafka: 50; default here 1). */
  offsetsTopicPartitions?: number;
  /** Where warnings go (a session timed out, a listener failed); default: silence. */
  logger?: { warn(obj: object, msg?: string): void };
}
