// Kafka Streams' `.checkpoint` file: per changelog partition, the offset up to which a persistent
// store's local contents are known to match the changelog. `<state.dir>/<application.id>/<task
// id>/.checkpoint`. Written at a clean close after the final commit and, under at_least_once,
// after a commit once the task's changelogs moved by more than OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT
// records since the last one (Kafka's StateManagerUtil#checkpointNeeded). Under exactly_once_v2 it
// is deleted when read, so after a crash there is none and the stores are rebuilt.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const taskDirOf = (stateDir: string, applicationId: string, taskId: string): string =>
  join(stateDir, applicationId, taskId);

const fileOf = (taskDir: string): string => join(taskDir, '.checkpoint');
const tpKey = (topic: string, partition: number): string => `${topic}:${partition}`;

/** Kafka Streams' StateManagerUtil.OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT. */
export const OFFSET_DELTA_THRESHOLD_FOR_CHECKPOINT = 10_000;

/** Reads the checkpoint; `remove` deletes it (exactly_once_v2: rewritten only at a clean close). */
export function readCheckpoint(taskDir: string, options: { remove: boolean }): Map<string, number> {
  const file = fileOf(taskDir);
  if (!existsSync(file)) return new Map();
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    return new Map(Object.entries(parsed).filter(([, v]) => Number.isSafeInteger(v) && v >= 0));
  } catch {
    return new Map(); // unreadable: as if absent (the stores are rebuilt)
  } finally {
    if (options.remove) rmSync(file, { force: true });
  }
}

export function writeCheckpoint(
  taskDir: string,
  offsets: { topic: string; partition: number; offset: number }[],
): void {
  mkdirSync(taskDir, { recursive: true });
  const file = fileOf(taskDir);
  writeFileSync(
    `${file}.tmp`,
    JSON.stringify(Object.fromEntries(offsets.map((o) => [tpKey(o.topic, o.partition), o.offset]))),
  );
  renameSync(`${file}.tmp`, file);
}

export const checkpointKey = tpKey;
