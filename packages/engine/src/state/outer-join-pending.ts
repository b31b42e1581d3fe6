// The records of a stream–stream join's outer store (outer-join-store.ts): what the join sees of
// a record waiting for its window to close, and the store's own bookkeeping of it.
import type { Headers } from '../backend-spi.js';
import type { KeyId } from './key-order.js';

export type JoinSide = 'left' | 'right';

export interface PendingRecord {
  readonly side: JoinSide;
  readonly key: unknown;
  readonly timestamp: number;
  value: unknown;
  headers: Headers;
}

/** A record's identity in store order (a record, or a bound of the part on disk only). */
export interface Ident {
  readonly side: JoinSide;
  readonly key: unknown;
  readonly id: KeyId;
  readonly timestamp: number;
}

/** After every record: the region reaches to the end of the store. */
export const END: Ident = { side: 'left', key: null, id: '', timestamp: Infinity };

export const identity = (r: Ident): string => `${r.timestamp}|${r.side}|${String(r.id)}`;

/** The smallest key after `bytes`. */
export const after = (bytes: Uint8Array): Uint8Array => {
  const next = new Uint8Array(bytes.byteLength + 1);
  next.set(bytes);
  return next;
};

export class Pending implements PendingRecord {
  /** Changed since the last commit (in the store's change list). */
  dirty = false;
  /** Written to the changelog (its deletion needs a tombstone). */
  logged = false;
  removed = false;
  constructor(
    readonly side: JoinSide,
    readonly key: unknown,
    readonly id: KeyId,
    readonly timestamp: number,
    public value: unknown,
    public headers: Headers,
  ) {}
}
