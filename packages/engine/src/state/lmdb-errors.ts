// What a persistent store says when lmdb cannot write: the store, its directory and, for a full
// disk, what to do. lmdb's own message ("No space left on device: Attempting to write page at
// position 12288, …") names neither the store nor the state dir.
import { errorMessage } from '../errors.js';

/** A full disk or quota as lmdb (or node) reports it. */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return true;
  return /no space left on device|ENOSPC|EDQUOT|disk quota exceeded|MDB_MAP_FULL/i.test(
    errorMessage(error),
  );
}

/** A failed write of persistent store `store` in `path`, named and explained. */
export function storeWriteError(store: string, path: string, error: unknown): Error {
  const message = isOutOfSpace(error)
    ? `persistent store '${store}' cannot write its lmdb files in ${path}: no space left on ` +
      `device (ENOSPC; the state dir is full). Free space there, then start the application ` +
      `again: the store is restored from its changelog. (${errorMessage(error)})`
    : `persistent store '${store}' failed writing its lmdb files in ${path}: ${errorMessage(error)}`;
  const wrapped = new Error(message, { cause: error });
  return isOutOfSpace(error) ? Object.assign(wrapped, { code: 'ENOSPC' }) : wrapped;
}
