// Lookups over the generated tables.
import type { AnyApi } from './api.js';
import { apis } from './generated/apis.js';

/** Every API by its key (Produce = 0, Fetch = 1, …). */
export const apisByKey: ReadonlyMap<number, AnyApi> = new Map(
  Object.values(apis).map((api) => [api.apiKey, api as AnyApi]),
);
