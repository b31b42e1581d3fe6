// Kafka Streams' `.checkpoint` file: per changelog partition, the offset up to which a persistent
// store's local contents are known to match the changelog. Written at a clean close, after the
// final commit; read and deleted when the task restores, so after a crash there is no checkpoint
// and the store is wiped and rebuilt from the changelog (what Kafka Streams does under EOS, and
// safe under at-least-once too). `<state.dir>/<application.id>/<task id>/.checkpoint`.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const taskDirOf = (stateDir: string, applicationId: string, taskId: string): string =>
  join(stateDir, applicationId, taskId);

const fileOf = (taskDir: string): string => join(taskDir, '.checkpoint');
const tpKey = (topic: string, partition: number): string => `${topic}:${partition}`;

/** Reads the checkpoint and removes it (it is rewritten at the next clean close). */
export function takeCheckpoint(taskDir: string): Map<string, number> {
  const file = fileOf(taskDir);
  if (!existsSync(file)) return new Map();
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    return new Map(Object.entries(parsed).filter(([, v]) => Number.isSafeInteger(v) && v >= 0));
  } catch {
    return new Map(); // unreadable: as if absent (the stores are rebuilt)
  } finally {
    rmSync(file, { force: true });
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
