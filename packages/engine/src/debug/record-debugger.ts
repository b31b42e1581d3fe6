// What the application and the processor wrappers need of a debugger (AppDebugger implements it).
// A leaf module: api.ts refers to it, so it must not import anything that imports api.ts.
import type { PlannedNode } from '@streamwright/topology-model';
import type { PauseGate } from './pause-gate.js';

/** What the debugger reads of a processor context when a record arrives at a node. */
export interface DebugContext {
  readonly taskId: string;
  readonly recordMetadata: { topic: string; partition: number; offset: number } | null;
  store(name: string): {
    get(key: unknown): { value: unknown; timestamp: number } | undefined;
    all(): { key: unknown; value: unknown; timestamp: number }[];
    approximateNumEntries(): number;
  };
  /** Every store of the task by name: window and session stores are read from here. */
  readonly stateStores?: ReadonlyMap<string, unknown>;
}

export interface DebugRecord {
  key: unknown;
  value: unknown;
  timestamp: number;
  headers: Record<string, string>;
}

export interface RecordDebugger {
  /** Read per record and node: false while no breakpoint is set and nothing is paused. */
  readonly active: boolean;
  /** Where the app's stream threads stop between records. */
  readonly gate: PauseGate;
  /** A record arrived at a node (called only while active), before the node processes it. */
  onArrival(
    ctx: DebugContext,
    planned: PlannedNode,
    from: string | null,
    record: DebugRecord,
  ): void;
  /** The app cannot be paused (stream threads in workers): refuse breakpoints with `reason`. */
  disable(reason: string): void;
  /** The app is stopping: open the gate, forget breakpoints. */
  release(): void;
}
