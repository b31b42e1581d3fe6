// Consumer lag of the deployed app (app.lag, running or stopped), polled every 2 s, and how it is
// shown: per source a back-pressure bar coloured like NiFi's (green below 60 % of the threshold,
// yellow below 85 %, red above), per task the lag of its input partitions.
import { useEffect } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

/** Lag (records) at which a source's bar is full: NiFi's default back-pressure object threshold. */
export const LAG_THRESHOLD = 10_000;

export interface LagState {
  /** `topic-partition` → lag (null before the first commit). */
  byPartition: Readonly<Record<string, number | null>>;
  at: number | null;
}

export const useLagStore = create<LagState>(() => ({ byPartition: {}, at: null }));

export function lagColour(share: number): 'green' | 'yellow' | 'red' {
  return share < 0.6 ? 'green' : share < 0.85 ? 'yellow' : 'red';
}

/** The summed known lag of a topic's partitions (or of the given partitions). */
export function lagOf(
  byPartition: Readonly<Record<string, number | null>>,
  match: (key: string) => boolean,
): number | null {
  let total: number | null = null;
  for (const [key, lag] of Object.entries(byPartition))
    if (match(key) && lag !== null) total = (total ?? 0) + lag;
  return total;
}

/**
 * Polls app.lag while an app is deployed, running or not: a stopped app's backlog (the log end
 * minus its committed offsets) grows as records arrive, and the bars must say so.
 */
export function useLagPolling(api: ApiClient, deployed: boolean): void {
  useEffect(() => {
    if (!deployed) return;
    let stop = false;
    const tick = () =>
      api.app.lag.query().then(
        (r) => {
          if (stop) return;
          const byPartition: Record<string, number | null> = {};
          for (const p of r.partitions)
            if (!p.internal) byPartition[`${p.topic}-${p.partition}`] = p.lag;
          useLagStore.setState({ byPartition, at: r.at });
        },
        () => undefined, // nothing deployed any more, or the runtime is offline: the badge says so
      );
    void tick();
    const timer = setInterval(() => void tick(), 2000);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [api, deployed]);
}
