// Records the dashboard's history on every metrics tick, whichever tab is open, so the charts
// have the last minutes to show when the Dashboard tab is opened. A new deployment starts over.
import { useEffect } from 'react';
import { create } from 'zustand';
import { useLagStore } from '../live/lag.js';
import { useDesignerStore } from '../store/context.js';
import { appendSample, sampleOf, type AppSample } from './app-history.js';

export const useAppHistory = create<{ samples: AppSample[] }>(() => ({ samples: [] }));

export function useAppHistoryRecorder(): void {
  const store = useDesignerStore();
  useEffect(() => {
    let version: string | null = null;
    return store.subscribe((state, before) => {
      const live = state.live;
      if (live.at === null || live.at === before.live.at || live.status === null) return;
      const deployed = live.deployment?.version ?? null;
      const samples = deployed === version ? useAppHistory.getState().samples : [];
      version = deployed;
      const sample = sampleOf({
        at: live.at,
        doc: live.deployedDoc,
        counters: live.counters,
        taskCounters: live.taskCounters,
        lagByPartition: useLagStore.getState().byPartition,
      });
      useAppHistory.setState({ samples: appendSample(samples, sample) });
    });
  }, [store]);
}
