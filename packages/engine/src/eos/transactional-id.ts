// exactly_once_v2's transactional id per stream thread, as Kafka Streams names it:
// `<application.id>-<process id>-<thread index>`. The process id is the instance's own, kept in its
// state dir (`<state.dir>/<application.id>/kafka-streams-process-metadata`, as Kafka Streams keeps
// it), so an instance restarted on its data dir uses the same ids and its InitProducerId fences
// the producers of its crashed predecessor at once (their open transactions are aborted then,
// not after transaction.timeout.ms). Two instances of one application have different ids and
// never fence each other.
import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PROCESS_FILE = 'kafka-streams-process-metadata';

/** This process's id when there is no state dir (stable for the life of the process). */
let ephemeral: string | null = null;

/** The instance's process id: read from, or written once into, its state dir. */
export function processId(stateDir: string | undefined, applicationId: string): string {
  if (stateDir === undefined) return (ephemeral ??= randomUUID());
  const dir = join(stateDir, applicationId);
  const file = join(dir, PROCESS_FILE);
  try {
    return parse(readFileSync(file, 'utf8'), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dir, { recursive: true });
  const id = randomUUID();
  // Written aside and linked into place (atomic): another thread of this instance may be doing
  // the same a moment earlier; theirs then wins, and nobody reads a half-written file.
  const aside = `${file}.${process.pid}.${id}`;
  writeFileSync(aside, JSON.stringify({ processId: id }) + '\n');
  try {
    linkSync(aside, file);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return parse(readFileSync(file, 'utf8'), file);
  } finally {
    rmSync(aside, { force: true });
  }
}

function parse(text: string, file: string): string {
  const id = (JSON.parse(text) as { processId?: unknown }).processId;
  if (typeof id !== 'string' || id.length === 0)
    throw new Error(`${file} holds no processId (delete it to get a new one)`);
  return id;
}

export function transactionalId(
  applicationId: string,
  stateDir: string | undefined,
  threadIndex: number,
): string {
  return `${applicationId}-${processId(stateDir, applicationId)}-${threadIndex}`;
}
