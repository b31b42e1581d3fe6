// A task's state stores restored from their changelog partitions before it processes (Kafka
// Streams' ProcessorStateManager and StoreChangelogReader), and the checkpoint that lets the next
// start replay only the changelogs' tails.
import type { Backend, IsolationLevel, Recovery } from '../backend-spi.js';
import type { TaskMetrics } from '../metrics/metric-groups.js';
import { checkpointKey, readCheckpoint, writeCheckpoint } from '../state/checkpoint.js';
import type { TaskStateStore } from '../state/task-store.js';

/** What restoring needs of its task. */
export interface StoreRestoreTarget {
  partition: number;
  stores: readonly TaskStateStore[];
  metrics: TaskMetrics;
  /** `<state.dir>/<application.id>/<task id>`, or null without a state dir. */
  taskDir: string | null;
  /** Persistent stores whose directory was missing when the task opened them. */
  missingStoreDirs?: ReadonlySet<string>;
  /** Under exactly_once_v2 a checkpoint is deleted once read. */
  eos: boolean;
  /** Where processing of a source topic's partition resumes (its committed offset), or -1. */
  resumeAt(topic: string): number;
  taskId?: string;
  /** Told when a store's local copy is wiped because it cannot be trusted (a loud recovery). */
  onRecovery?: (recovery: Recovery) => void;
}

/** Replays each store's changelog partition up to its end (or, for a source topic, to `resumeAt`). */
export async function restoreStores(
  backend: Backend,
  task: StoreRestoreTarget,
  isolationLevel: IsolationLevel,
): Promise<void> {
  const { partition, metrics } = task;
  // A persistent store continues from its checkpoint; without one its local contents cannot be
  // trusted and it is rebuilt from the changelog. Under exactly_once_v2 the file is deleted once
  // read (Kafka Streams: no checkpoint while processing, so after a crash there is none and the
  // stores are wiped); under at_least_once it stays, and a crash resumes from the last one
  // written during processing (the local store may be ahead of it: replaying the changelog's
  // tail over it gives the changelog's values, which is what at-least-once promises).
  const checkpoint =
    task.taskDir !== null && task.stores.some((s) => s.persistent)
      ? readCheckpoint(task.taskDir, { remove: task.eos })
      : new Map<string, number>();
  for (const store of task.stores) {
    if (store.changelogTopic === null) continue;
    let checkpointed = store.persistent
      ? checkpoint.get(checkpointKey(store.changelogTopic, partition))
      : undefined;
    const tp = { topic: store.changelogTopic, partition };
    const desc = await backend.describeTopic(tp.topic);
    const found = desc?.offsets.find((o) => o.partition === partition);
    if (!found) {
      if (store.persistent) store.wipe();
      continue;
    }
    const range = { earliest: found.earliest, latest: found.latest };
    // A source topic used as the changelog (reuse.ktable.source.topics) is restored only up to
    // where processing resumes (the committed offset), as Kafka Streams does; the rest is
    // processed normally.
    const resumeAt = task.resumeAt(tp.topic);
    if (resumeAt >= 0) range.latest = Math.min(range.latest, resumeAt);
    // A checkpoint past the changelog's end means the changelog was recreated (Kafka Streams'
    // TaskCorruptedException): the local copy is wiped, as when there is no checkpoint.
    if (checkpointed !== undefined && checkpointed > found.latest) {
      task.onRecovery?.({
        at: Date.now(),
        kind: 'store-rebuilt',
        store: store.name,
        topic: tp.topic,
        partition,
        ...(task.taskId !== undefined ? { taskId: task.taskId } : {}),
        fromOffset: checkpointed,
        toOffset: found.latest,
        message: `the checkpoint of store ${store.name} (task ${task.taskId ?? '?'}) is at offset ${checkpointed}, past the end ${found.latest} of its changelog ${tp.topic}-${partition} (the changelog was recreated): the local copy is wiped and rebuilt from the changelog`,
      });
      checkpointed = undefined;
    }
    // A checkpoint for a store whose files are gone (a deleted directory) describes nothing: the
    // store would serve and update an empty copy as if it were complete. Rebuilt instead.
    if (store.persistent && checkpointed !== undefined && task.missingStoreDirs?.has(store.name)) {
      task.onRecovery?.({
        at: Date.now(),
        kind: 'store-rebuilt',
        store: store.name,
        topic: tp.topic,
        partition,
        ...(task.taskId !== undefined ? { taskId: task.taskId } : {}),
        fromOffset: checkpointed,
        toOffset: found.latest,
        message: `the local files of store ${store.name} (task ${task.taskId ?? '?'}) are missing although its checkpoint is at offset ${checkpointed}: the store is rebuilt from its changelog ${tp.topic}-${partition} (offsets ${found.earliest} to ${found.latest})`,
      });
      checkpointed = undefined;
    }
    // A checkpointed store whose files hold a damaged value (a checksum fails) is not trusted.
    const damage =
      store.persistent && checkpointed !== undefined ? (store.verify?.() ?? null) : null;
    if (damage !== null) {
      task.onRecovery?.({
        at: Date.now(),
        kind: 'store-rebuilt',
        store: store.name,
        topic: tp.topic,
        partition,
        ...(task.taskId !== undefined ? { taskId: task.taskId } : {}),
        fromOffset: checkpointed!,
        toOffset: found.latest,
        message: `the local files of store ${store.name} (task ${task.taskId ?? '?'}) are damaged: ${damage}; the store is wiped and rebuilt from its changelog ${tp.topic}-${partition} (offsets ${found.earliest} to ${found.latest})`,
      });
      checkpointed = undefined;
    }
    if (store.persistent && checkpointed === undefined) store.wipe();
    let offset =
      checkpointed === undefined
        ? range.earliest
        : Math.max(range.earliest, Math.min(checkpointed, range.latest));
    metrics.restoreRemainingRecordsTotal += Math.max(0, range.latest - offset);
    while (offset < range.latest) {
      // Under exactly_once_v2 only committed changelog records are state (aborted ones never were).
      const batch = await backend.fetch(tp, offset, 10_000, 0, { isolationLevel });
      if (batch.length === 0) break;
      for (const record of batch) {
        if (record.offset >= range.latest) break;
        store.restore(record);
        metrics.restoreTotal++;
        metrics.restoreRemainingRecordsTotal--;
      }
      offset = batch[batch.length - 1]!.offset + 1;
    }
    metrics.restoreRemainingRecordsTotal = 0;
  }
}

/** Records where each persistent store's changelog ends in the task's checkpoint file. */
export async function checkpointStores(
  backend: Backend,
  taskDir: string,
  partition: number,
  stores: readonly TaskStateStore[],
): Promise<void> {
  const offsets: { topic: string; partition: number; offset: number }[] = [];
  for (const store of stores) {
    if (!store.persistent || store.changelogTopic === null) continue;
    const desc = await backend.describeTopic(store.changelogTopic);
    const found = desc?.offsets.find((o) => o.partition === partition);
    if (found) offsets.push({ topic: store.changelogTopic, partition, offset: found.latest });
  }
  if (offsets.length > 0) writeCheckpoint(taskDir, offsets);
}
