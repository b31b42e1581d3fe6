// One process at a time owns a data dir: a running runtime, or a CLI command working on it
// directly (`--data-dir`). Two owners would append to the same partition files and overwrite each
// other's committed offsets. Node has no flock, so the lock is a file created exclusively that
// names its owner; a lock whose process is gone (same host, pid no longer alive) is taken over.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { mkdir, open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { RuntimeError } from '../errors.js';

export const LOCK_FILE = 'streamwright.lock';

export interface LockOwner {
  pid: number;
  hostname: string;
  /** `runtime` for `streamwright serve`, else the CLI command that holds it. */
  owner: string;
  /** The runtime's URL once it listens, so a refused command can say where to go instead. */
  url: string | null;
  since: number;
}

export interface DataDirLock {
  readonly path: string;
  /** Records the URL of the runtime holding the lock (written atomically). */
  setUrl(url: string): Promise<void>;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): Promise<void>;
}

/** Takes the lock of `dataDir` (created if missing), or throws DATA_DIR_LOCKED naming the owner. */
export async function lockDataDir(dataDir: string, owner: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const mine: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    owner,
    url: null,
    since: Date.now(),
  };
  // Two attempts: the second after removing a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(mine)}\n`, 'utf8');
      } finally {
        await handle.close();
      }
      return lockHandle(path, mine);
    } catch (error) {
      if (!hasCode(error, 'EEXIST')) throw error;
    }
    const holder = await readOwner(path);
    if (holder && isAlive(holder)) throw lockedError(dataDir, holder);
    // Stale (its process is gone) or unreadable (a crash between create and write): take over.
    await unlink(path).catch((error: unknown) => {
      if (!hasCode(error, 'ENOENT')) throw error;
    });
  }
  const holder = await readOwner(path);
  throw holder
    ? lockedError(dataDir, holder)
    : new RuntimeError('DATA_DIR_LOCKED', `could not take the lock of ${dataDir}`);
}

/** Who holds the data dir now, or null when nobody (alive) does. */
export async function lockHolder(dataDir: string): Promise<LockOwner | null> {
  const holder = await readOwner(join(dataDir, LOCK_FILE));
  return holder && isAlive(holder) ? holder : null;
}

function lockHandle(path: string, mine: LockOwner): DataDirLock {
  let released = false;
  const stillOurs = async (): Promise<boolean> => {
    const holder = await readOwner(path);
    return holder !== null && holder.pid === mine.pid && holder.since === mine.since;
  };
  return {
    path,
    async setUrl(url) {
      if (released) return;
      mine.url = url;
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, `${JSON.stringify(mine)}\n`, 'utf8');
      await rename(tmp, path);
    },
    async release() {
      if (released) return;
      released = true;
      // Already gone (removed by hand, or the data dir with it): nothing left to release.
      if (await stillOurs()) await unlink(path).catch(() => undefined);
    },
  };
}

async function readOwner(path: string): Promise<LockOwner | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.hostname !== 'string') return null;
    return {
      pid: parsed.pid,
      hostname: parsed.hostname,
      owner: typeof parsed.owner === 'string' ? parsed.owner : 'unknown',
      url: typeof parsed.url === 'string' ? parsed.url : null,
      since: typeof parsed.since === 'number' ? parsed.since : 0,
    };
  } catch {
    return null;
  }
}

function isAlive(holder: LockOwner): boolean {
  // A lock from another host (a data dir on a shared disk) cannot be checked: assume it is held.
  if (holder.hostname !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return hasCode(error, 'EPERM'); // alive, owned by another user
  }
}

function lockedError(dataDir: string, holder: LockOwner): RuntimeError {
  const who =
    holder.owner === 'runtime'
      ? `a running runtime (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''})`
      : `another streamwright command (${holder.owner}, pid ${holder.pid})`;
  const hint =
    holder.owner === 'runtime' && holder.url
      ? ` Work through it instead: --url ${holder.url}`
      : holder.owner === 'runtime'
        ? ' Work through it with --url <its URL>, or stop it first.'
        : ' Wait for it to finish.';
  return new RuntimeError('DATA_DIR_LOCKED', `the data dir ${dataDir} is in use by ${who}.${hint}`);
}

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === code;
}
