// What a persistent store says when lmdb cannot write: the store, its directory and, for a full
// disk, what to do. lmdb's own message ("No space left on device: Attempting to write page at
// position 12288, …") names neither the store nor the state dir.
import { statfsSync } from 'node:fs';
import { errorMessage } from '../errors.js';

/** A full disk or quota as lmdb (or node) reports it. */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return /no space left on device|ENOSPC|EDQUOT|disk quota exceeded|MDB_MAP_FULL/i.test(
    errorMessage(error),
  );
}

/** Bytes free for this user on the file system holding `path`, or null when unknown. */
function freeBytes(path: string): number | null {
  try {
    const s = statfsSync(path);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** Below this much free space a failed write is put down to a full disk. */
const NEARLY_FULL_BYTES = 1 << 20;

/** A failed write of persistent store `store` in `path`, named and explained. */
export function storeWriteError(store: string, path: string, error: unknown): Error {
  // lmdb does not always say ENOSPC for a full disk (on a full tmpfs it also answers "Input/output
  // error"): the file system's free space decides.
  const free = freeBytes(path);
  const full = isOutOfSpace(error) || (free !== null && free < NEARLY_FULL_BYTES);
  const message = full
    ? `persistent store '${store}' cannot write its lmdb files in ${path}: no space left on ` +
      `device (ENOSPC; the state dir is full). Free space there, then start the application ` +
      `again: the store is restored from its changelog. (${errorMessage(error)}; ` +
      `${free ?? '?'} bytes free)`
    : `persistent store '${store}' failed writing its lmdb files in ${path}: ${errorMessage(error)}`;
  const wrapped = new Error(message, { cause: error });
  return full ? Object.assign(wrapped, { code: 'ENOSPC' }) : wrapped;
}
