// The running app's breakpoints and what it is paused at (debug.breakpoints), polled twice a
// second while it runs; the commands (set, remove, step, resume) answer with the new view. A new
// pause opens the Debugger tab and selects the node it stopped at.
import { useEffect } from 'react';
import { create } from 'zustand';
import type { ApiClient } from '../api/client.js';
import type { RouterOutputs } from '../api/types.js';
import { messageOf } from '../runtime/runtime-actions.js';
import { useDesignerStore } from '../store/context.js';

export type DebugView = RouterOutputs['debug']['breakpoints'];
export type DebugPause = NonNullable<DebugView['pause']>;
export type DebugStop = DebugPause['stops'][number];
export type Breakpoint = DebugView['breakpoints'][number];

export interface DebugState {
  view: DebugView | null;
  /** Why the debugger is unavailable (nothing deployed, worker threads), or a refused command. */
  error: string | null;
}

export const useDebugStore = create<DebugState>(() => ({ view: null, error: null }));

const POLL_MS = 500;

/** Runs a debugger command and takes the view it answers with; a refusal lands in `error`. */
export async function debugCommand(run: () => Promise<DebugView>): Promise<boolean> {
  try {
    useDebugStore.setState({ view: await run(), error: null });
    return true;
  } catch (error) {
    useDebugStore.setState({ error: messageOf(error) });
    return false;
  }
}

export function useDebugPolling(api: ApiClient, running: boolean): void {
  const designer = useDesignerStore();
  useEffect(() => {
    if (!running) {
      useDebugStore.setState({ view: null });
      return;
    }
    let stop = false;
    let shownPause: number | null = null;
    const tick = () =>
      api.debug.breakpoints.query().then(
        (view) => {
          if (stop) return;
          useDebugStore.setState({ view });
          const pause = view.pause;
          if (pause && pause.pauseId !== shownPause) {
            shownPause = pause.pauseId;
            const { actions } = designer.getState();
            actions.setBottomTab('debugger');
            const at = pause.stops[pause.position]?.nodeId;
            if (at) actions.select(at);
          }
        },
        (error: unknown) => {
          if (stop) return;
          // Refused (stream threads in workers): say why once instead of asking twice a second.
          useDebugStore.setState({ view: null, error: messageOf(error) });
          const code = (error as { data?: { runtimeCode?: string } } | null)?.data?.runtimeCode;
          if (code === 'INSPECTION_UNAVAILABLE') {
            stop = true;
            clearInterval(timer);
          }
        },
      );
    const timer = setInterval(() => void tick(), POLL_MS);
    void tick();
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [api, designer, running]);
}

/** The stop shown now, or null while the app runs. */
export function currentStop(view: DebugView | null): DebugStop | null {
  const pause = view?.pause;
  return pause ? (pause.stops[pause.position] ?? null) : null;
}
