// Consumer lag of the deployed app (app.lag, running or stopped), polled every 2 s, and how it is
// shown: per source a back-pressure bar coloured like NiFi's (green below 60 % of the threshold,
// yellow below 85 %, red above), per task the lag of its input partitions.
import { useEffect } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';

/** Lag (records) at which a source's bar is full: NiFi's default back-pressure object threshold. */
export const LAG_THRESHOLD = 10_000;

export interface LagState {
  /** Input topics: `topic-partition` → lag (null before the first commit). */
  byPartition: Readonly<Record<string, number | null>>;
  /**
   * Repartition topics: topic → records written by one sub-topology and not yet processed by the
   * next (its lag summed over partitions; null before the first commit).
   */
  repartitionDepth: Readonly<Record<string, number | null>>;
  /** Changelog topic → records it holds (what a restore from scratch reads). */
  changelogRecords: Readonly<Record<string, number>>;
  at: number | null;
}

export const useLagStore = create<LagState>(() => ({
  byPartition: {},
  repartitionDepth: {},
  changelogRecords: {},
  at: null,
}));

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
          const repartitionDepth: Record<string, number | null> = {};
          for (const p of r.partitions) {
            if (!p.internal) byPartition[`${p.topic}-${p.partition}`] = p.lag;
            else if (p.lag === null) repartitionDepth[p.topic] ??= null;
            else repartitionDepth[p.topic] = (repartitionDepth[p.topic] ?? 0) + p.lag;
          }
          const changelogRecords: Record<string, number> = {};
          for (const c of r.changelogs) changelogRecords[c.topic] = c.records;
          useLagStore.setState({ byPartition, repartitionDepth, changelogRecords, at: r.at });
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
