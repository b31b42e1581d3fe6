// debug.breakpoints / setBreakpoint / removeBreakpoint / step / resume: the running app's
// debugger (the engine's AppDebugger) with its records and states made JSON-safe.
import { EngineError, type AppDebugger, type DebugPause } from '@streamwright/engine';
import { RuntimeError } from '../errors.js';
import { jsonSafe } from './json-safe.js';
import type { DeployedApp } from './node-sampler.js';

export interface DebugView {
  appState: string;
  breakpoints: ReturnType<AppDebugger['breakpoints']>;
  /** What the app is paused at, or null while it runs. */
  pause: JsonPause | null;
}

export type JsonPause = ReturnType<typeof jsonPause>;

function jsonPause(pause: DebugPause) {
  return {
    pauseId: pause.pauseId,
    breakpointId: pause.breakpointId,
    position: pause.position,
    truncated: pause.truncated,
    since: pause.since,
    stops: pause.stops.map((s) => ({
      nodeId: s.nodeId,
      node: s.node,
      taskId: s.taskId,
      from: s.from,
      at: s.at,
      record: {
        key: jsonSafe(s.record.key),
        value: jsonSafe(s.record.value),
        ...('oldValue' in s.record ? { oldValue: jsonSafe(s.record.oldValue) } : {}),
        timestamp: s.record.timestamp,
        headers: { ...s.record.headers },
        topic: s.record.topic,
        partition: s.record.partition,
        offset: s.record.offset,
      },
      state: s.state.map((st) => ({
        store: st.store,
        type: st.type ?? 'keyValue',
        current: st.current
          ? {
              value: jsonSafe(st.current.value),
              timestamp: st.current.timestamp,
              ...(st.current.window ? { window: { ...st.current.window } } : {}),
            }
          : null,
        entries: st.entries.map((e) => ({
          key: jsonSafe(e.key),
          value: jsonSafe(e.value),
          timestamp: e.timestamp,
        })),
        size: st.size,
      })),
    })),
  };
}

function debuggerOf(deployed: DeployedApp | null): { debug: AppDebugger; appState: string } {
  if (!deployed)
    throw new RuntimeError('NOT_DEPLOYED', 'nothing is deployed: deploy a topology first');
  const threads = Number(deployed.topology.application.config['num.stream.threads'] ?? 1);
  if (threads > 1) {
    throw new RuntimeError(
      'INSPECTION_UNAVAILABLE',
      `breakpoints pause stream threads on the runtime's event loop only; with num.stream.threads=${threads} they run in worker threads`,
    );
  }
  return { debug: deployed.debugger, appState: deployed.app.state() };
}

export function debugView(deployed: DeployedApp | null): DebugView {
  const { debug, appState } = debuggerOf(deployed);
  const pause = debug.paused();
  return {
    appState,
    breakpoints: debug.breakpoints(),
    pause: pause ? jsonPause(pause) : null,
  };
}

export function setBreakpoint(
  deployed: DeployedApp | null,
  spec: { nodeId: string; condition?: string | undefined },
): DebugView {
  const { debug } = debuggerOf(deployed);
  const state = deployed!.app.state();
  if (state !== 'RUNNING' && state !== 'REBALANCING' && state !== 'CREATED') {
    throw new RuntimeError('NOT_RUNNING', `the application is ${state}: start it to debug it`);
  }
  try {
    debug.setBreakpoint({
      nodeId: spec.nodeId,
      ...(spec.condition !== undefined ? { condition: spec.condition } : {}),
    });
  } catch (error) {
    if (error instanceof EngineError && error.code === 'INVALID_BREAKPOINT')
      throw new RuntimeError('INVALID_BREAKPOINT', error.message, { cause: error });
    throw error;
  }
  return debugView(deployed);
}

export function removeBreakpoint(deployed: DeployedApp | null, id: string): DebugView {
  const { debug } = debuggerOf(deployed);
  if (!debug.removeBreakpoint(id))
    throw new RuntimeError('BREAKPOINT_NOT_FOUND', `id: there is no breakpoint "${id}"`);
  return debugView(deployed);
}

export function step(deployed: DeployedApp | null): DebugView {
  debuggerOf(deployed).debug.step();
  return debugView(deployed);
}

export function resume(deployed: DeployedApp | null): DebugView {
  debuggerOf(deployed).debug.resume();
  return debugView(deployed);
}
