// What the task table shows for one task: an active's state and the lag of its input partitions;
// a standby replica (num.standby.replicas, or a warm-up of the high-availability assignor on
// Kafka) as STANDBY with its changelog lag — it reads no input, it follows its stores' changelogs
// (Kafka Streams' KIP-535 offset lag).
import type { TaskStatus } from '../api/types.js';
import { lagOf } from '../live/lag.js';

export interface TaskRowView {
  /** The State cell: the task's state, or STANDBY. */
  state: string;
  /** The Partitions cell: an active's input partitions; a standby has none. */
  partitions: string;
  /** The Lag cell's records (null: not known yet). */
  lag: number | null;
  /** What the lag counts: input records not yet committed, or changelog records not yet applied. */
  lagKind: 'input' | 'changelog';
}

export function taskRowView(
  task: TaskStatus,
  lagByPartition: Readonly<Record<string, number | null>>,
): TaskRowView {
  if (task.standby === true)
    return {
      state: 'STANDBY',
      partitions: '—',
      lag: task.standbyLag ?? null,
      lagKind: 'changelog',
    };
  const keys = new Set(task.partitions.map((p) => `${p.topic}-${p.partition}`));
  return {
    state: task.state,
    partitions: [...keys].join(', '),
    lag: lagOf(lagByPartition, (k) => keys.has(k)),
    lagKind: 'input',
  };
}
