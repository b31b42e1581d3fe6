// "Current rate": records per second over the last 5 s, from the growth of each node's total
// between metrics snapshots. Kafka's process-rate is a windowed average over ~30 s (two 30-s
// samples), so after the input stops it keeps showing a rate for half a minute; what a user
// watching a running topology asks is "is it moving now".

export const RATE_WINDOW_MS = 5_000;

export interface TotalsSample {
  at: number;
  totals: Readonly<Record<string, number>>;
}

/**
 * Appends a snapshot and forgets what is no longer needed: the samples inside the window and
 * the newest one before it (the baseline the window's growth is measured from).
 */
export function pushTotals(history: readonly TotalsSample[], sample: TotalsSample): TotalsSample[] {
  const next = [...history.filter((s) => s.at < sample.at), sample];
  const edge = sample.at - RATE_WINDOW_MS;
  let firstKept = 0;
  for (let i = 0; i < next.length; i++) if (next[i]!.at <= edge) firstKept = i;
  return next.slice(firstKept);
}

/**
 * Records/s per node over the window: growth since the baseline sample divided by the time
 * between them. A node absent from the baseline, or whose total fell (the app restarted), has no
 * recent rate; so has everything until two samples at least 1 s apart exist.
 */
export function recentRates(history: readonly TotalsSample[]): Record<string, number> {
  const last = history.at(-1);
  const base = history[0];
  if (!last || !base || last.at - base.at < 1_000) return {};
  const seconds = (last.at - base.at) / 1000;
  const rates: Record<string, number> = {};
  for (const [id, total] of Object.entries(last.totals)) {
    const before = base.totals[id];
    if (before === undefined || total < before) continue;
    rates[id] = (total - before) / seconds;
  }
  return rates;
}
