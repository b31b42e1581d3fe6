// The application's loud recoveries (app.status' `recoveries` and `recoveryCounts`): a bounded
// list, most recent first, and a count per kind that the cap does not limit. Each is logged at
// WARN when recorded (a `reconnected` recovery was logged at INFO by its WaitRegistry already).
import type { EngineLogger } from '../api.js';
import type { Recovery, RecoveryKind } from '../backend-spi.js';

/** How many recoveries the status lists (the counts go on beyond it). */
export const MAX_RECOVERIES = 50;

export class RecoveryLog {
  readonly #recent: Recovery[] = [];
  readonly #counts: Partial<Record<RecoveryKind, number>> = {};

  constructor(private readonly logger: EngineLogger) {}

  record(recovery: Recovery, log = true): void {
    this.#recent.unshift(recovery);
    if (this.#recent.length > MAX_RECOVERIES) this.#recent.length = MAX_RECOVERIES;
    this.#counts[recovery.kind] = (this.#counts[recovery.kind] ?? 0) + 1;
    if (log) this.logger.warn({ recovery }, recovery.message);
  }

  /**
   * The status' view: the application's own recoveries merged with the backend's (which happened
   * before the application existed, e.g. at the embedded log's open), most recent first.
   */
  view(fromBackend: readonly Recovery[]): {
    recoveries: Recovery[];
    recoveryCounts: Partial<Record<RecoveryKind, number>>;
  } {
    const counts = { ...this.#counts };
    for (const r of fromBackend) counts[r.kind] = (counts[r.kind] ?? 0) + 1;
    const all = fromBackend.length === 0 ? [...this.#recent] : [...this.#recent, ...fromBackend];
    all.sort((a, b) => b.at - a.at);
    if (all.length > MAX_RECOVERIES) all.length = MAX_RECOVERIES;
    return { recoveries: all, recoveryCounts: counts };
  }
}
