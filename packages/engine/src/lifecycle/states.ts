// The lifecycles of Kafka Streams, transition for transition (KafkaStreams.State,
// StreamThread.State, Task.State). The one addition is the task state FAILED: where Kafka Streams
// closes a task "dirty" after a fatal processing error, we keep it visible as FAILED.
import type { AppState, TaskState } from '../api.js';

export const APP_TRANSITIONS: Record<AppState, readonly AppState[]> = {
  CREATED: ['REBALANCING', 'PENDING_SHUTDOWN'],
  REBALANCING: ['RUNNING', 'PENDING_SHUTDOWN', 'PENDING_ERROR'],
  RUNNING: ['REBALANCING', 'RUNNING', 'PENDING_SHUTDOWN', 'PENDING_ERROR'],
  PENDING_SHUTDOWN: ['NOT_RUNNING'],
  NOT_RUNNING: [],
  PENDING_ERROR: ['ERROR'],
  ERROR: [],
};

export type ThreadState =
  | 'CREATED'
  | 'STARTING'
  | 'PARTITIONS_REVOKED'
  | 'PARTITIONS_ASSIGNED'
  | 'RUNNING'
  | 'PENDING_SHUTDOWN'
  | 'DEAD';

export const THREAD_TRANSITIONS: Record<ThreadState, readonly ThreadState[]> = {
  CREATED: ['STARTING', 'PENDING_SHUTDOWN'],
  STARTING: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'PENDING_SHUTDOWN'],
  PARTITIONS_REVOKED: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'PENDING_SHUTDOWN'],
  PARTITIONS_ASSIGNED: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'RUNNING', 'PENDING_SHUTDOWN'],
  RUNNING: ['PARTITIONS_REVOKED', 'PARTITIONS_ASSIGNED', 'RUNNING', 'PENDING_SHUTDOWN'],
  PENDING_SHUTDOWN: ['DEAD'],
  DEAD: [],
};

export const TASK_TRANSITIONS: Record<TaskState, readonly TaskState[]> = {
  CREATED: ['RESTORING', 'SUSPENDED', 'FAILED'],
  RESTORING: ['RUNNING', 'SUSPENDED', 'FAILED'],
  RUNNING: ['SUSPENDED', 'FAILED'],
  SUSPENDED: ['RESTORING', 'CLOSED'],
  CLOSED: ['CREATED'],
  FAILED: [],
};
