// Breakpoints on the nodes of a running application (the designer's debugger).
//
// A breakpoint names a model node and, optionally, a CEL condition over the record the node is
// given (`key`, `value`, `timestamp`, `headers`, as a filter sees them). When a matching record
// arrives, the debugger notes it with the node's state (its stores' entry for the record's key and
// their first few entries) and closes the app's PauseGate: the stream thread stops after that
// record, before it punctuates, flushes output or commits.
//
// The record path is synchronous and shares the event loop with the runtime's HTTP server, so a
// thread cannot be suspended inside a record. Instead the debugger keeps recording, for that one
// input record, every node it reaches next — each with its state as it was on arrival — until the
// thread stops. Step walks that trace node by node (what a debugger's step shows: the record at
// the next node and the state there), and past its end lets the app run until the next record
// reaches any node. Resume opens the gate. The output of the paused record is written only once
// the app resumes, since the thread flushes after the gate.
import type { Plan, PlannedNode } from '@streamwright/topology-model';
import { compileExpression } from '@streamwright/topology-model/expressions';
import { EngineError, errorMessage } from '../errors.js';
import { Change, type EngineRecord } from '../processor/record.js';
import { PauseGate } from './pause-gate.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import type { DebugContext, RecordDebugger } from './record-debugger.js';

/** Entries of each connected store shown besides the record's key. */
export const STATE_ENTRIES = 5;
/** Nodes recorded after a hit (a record fanning out very widely is cut there). */
export const TRACE_LIMIT = 200;

export interface BreakpointSpec {
  /** The designer's node id (a model node). */
  nodeId: string;
  /** CEL over `key`, `value`, `timestamp`, `headers`; empty or absent: every record. */
  condition?: string;
}

export interface Breakpoint extends BreakpointSpec {
  id: string;
  /** Records that matched (each paused the app). */
  hits: number;
}

export interface StoreState {
  store: string;
  /** What kind of store: a window or session store's keys are windowed ({key, start, end}). */
  type?: 'keyValue' | 'window' | 'session';
  /**
   * The store's value for the record's key, or null when it has none; in a window or session
   * store, the key's latest window (`window` says which).
   */
  current: { value: unknown; timestamp: number; window?: { start: number; end: number } } | null;
  /** The store's first STATE_ENTRIES entries, in its key order. */
  entries: { key: unknown; value: unknown; timestamp: number }[];
  size: number;
}

/** A record arriving at a node, with the node's state at that moment. */
export interface DebugStop {
  /** The designer's node id; null for a node the DSL added (a repartition topic's source). */
  nodeId: string | null;
  /** Kafka Streams node name. */
  node: string;
  taskId: string;
  /** The node that forwarded the record; null: read from a topic. */
  from: string | null;
  record: {
    key: unknown;
    value: unknown;
    /** A table's previous value, when the node receives old values. */
    oldValue?: unknown;
    timestamp: number;
    headers: EngineRecord['headers'];
    /** The input record being processed (null inside a punctuation). */
    topic: string | null;
    partition: number | null;
    offset: number | null;
  };
  state: StoreState[];
  at: number;
}

export interface DebugPause {
  /** Increases with every pause, so a client can tell a new pause from the one it shows. */
  pauseId: number;
  /** The breakpoint that matched; null when a step ran into the next record. */
  breakpointId: string | null;
  /** The stop shown now: stops[position]. */
  position: number;
  /** The matched record at the breakpoint's node, then every node it reached next, in order. */
  stops: DebugStop[];
  /** TRACE_LIMIT was reached: the record went on to more nodes than were recorded. */
  truncated: boolean;
  since: number;
}

interface CompiledBreakpoint extends Breakpoint {
  matches: ((record: EngineRecord) => boolean) | null;
}

type Phase =
  | { kind: 'running' }
  /** The next record to reach any node pauses the app (Step past the end of a trace). */
  | { kind: 'stepping' }
  /** A hit happened; the thread is finishing its record and nodes are being recorded. */
  | { kind: 'recording'; pause: DebugPause }
  | { kind: 'paused'; pause: DebugPause };

export class AppDebugger implements RecordDebugger {
  /** The stream threads' gate (StreamsAppOptions.debugger hands it to them). */
  readonly gate = new PauseGate();
  /** Read per record and node: false while no breakpoint is set and nothing is paused. */
  active = false;
  readonly #breakpoints = new Map<string, CompiledBreakpoint>();
  /** Model node id → its first Kafka Streams node (a record pauses once per model node). */
  readonly #entryNode = new Map<string, string>();
  readonly #byKsNode = new Map<string, CompiledBreakpoint[]>();
  #phase: Phase = { kind: 'running' };
  #nextId = 1;
  #pauses = 0;
  readonly #now: () => number;

  #unavailable: string | null = null;

  constructor(plan: Plan, now: () => number = Date.now) {
    this.#now = now;
    this.gate.onHeld = () => this.onThreadPaused();
    for (const [modelId, names] of Object.entries(plan.nodeNames))
      if (names[0] !== undefined) this.#entryNode.set(modelId, names[0]);
  }

  /** @throws EngineError INVALID_BREAKPOINT: an unknown node, or a condition that does not compile */
  setBreakpoint(spec: BreakpointSpec): Breakpoint {
    if (this.#unavailable !== null) throw new EngineError('INVALID_BREAKPOINT', this.#unavailable);
    const ksNode = this.#entryNode.get(spec.nodeId);
    if (ksNode === undefined) {
      throw new EngineError(
        'INVALID_BREAKPOINT',
        `nodeId: the application has no node "${spec.nodeId}" that processes records`,
      );
    }
    const condition = spec.condition?.trim() ?? '';
    let matches: CompiledBreakpoint['matches'] = null;
    if (condition !== '') {
      let compiled: ReturnType<typeof compileExpression>;
      try {
        compiled = compileExpression(condition, 'filter');
      } catch (error) {
        throw new EngineError(
          'INVALID_BREAKPOINT',
          `condition: ${errorMessage(error)} (a breakpoint condition is CEL over key, value, timestamp and headers returning a bool)`,
        );
      }
      // A condition that fails on a record (a missing field) does not match it.
      matches = (record) => {
        try {
          return compiled.evaluate(record as never) === true;
        } catch {
          return false;
        }
      };
    }
    const breakpoint: CompiledBreakpoint = {
      id: `bp${this.#nextId++}`,
      nodeId: spec.nodeId,
      ...(condition !== '' ? { condition } : {}),
      hits: 0,
      matches,
    };
    this.#breakpoints.set(breakpoint.id, breakpoint);
    const list = this.#byKsNode.get(ksNode) ?? [];
    list.push(breakpoint);
    this.#byKsNode.set(ksNode, list);
    this.#updateActive();
    return publicBreakpoint(breakpoint);
  }

  /** Removes it; when the app is paused and no breakpoint is left, it resumes. */
  removeBreakpoint(id: string): boolean {
    const breakpoint = this.#breakpoints.get(id);
    if (!breakpoint) return false;
    this.#breakpoints.delete(id);
    for (const [ksNode, list] of this.#byKsNode) {
      const rest = list.filter((b) => b !== breakpoint);
      if (rest.length === 0) this.#byKsNode.delete(ksNode);
      else this.#byKsNode.set(ksNode, rest);
    }
    if (this.#breakpoints.size === 0) this.resume();
    this.#updateActive();
    return true;
  }

  breakpoints(): Breakpoint[] {
    return [...this.#breakpoints.values()].map(publicBreakpoint);
  }

  /** What the app is paused at, or null while it runs. */
  paused(): DebugPause | null {
    return this.#phase.kind === 'paused' ? this.#phase.pause : null;
  }

  /**
   * Shows the next node the paused record reached; past the last one, runs until the next record
   * reaches a node (returns null then: poll paused()). A no-op while running.
   */
  step(): DebugPause | null {
    if (this.#phase.kind !== 'paused') return null;
    const pause = this.#phase.pause;
    if (pause.position < pause.stops.length - 1) {
      pause.position++;
      return pause;
    }
    this.#phase = { kind: 'stepping' };
    this.#updateActive();
    this.gate.resume();
    return null;
  }

  resume(): void {
    this.#phase = { kind: 'running' };
    this.#updateActive();
    this.gate.resume();
  }

  /** The app cannot be debugged (its stream threads run where the gate cannot reach). */
  disable(reason: string): void {
    this.#unavailable = reason;
    this.release();
  }

  /** The app is closing: forget everything and open the gate, so nothing waits. */
  release(): void {
    this.#breakpoints.clear();
    this.#byKsNode.clear();
    this.resume();
  }

  /** The stream thread stopped at the gate: the recorded trace is complete. */
  onThreadPaused(): void {
    if (this.#phase.kind === 'recording')
      this.#phase = { kind: 'paused', pause: this.#phase.pause };
  }

  /** Called (while active) for every record a node is given, before the node processes it. */
  onArrival(
    ctx: DebugContext,
    planned: PlannedNode,
    from: string | null,
    record: EngineRecord,
  ): void {
    const phase = this.#phase;
    if (phase.kind === 'recording') {
      const pause = phase.pause;
      if (pause.stops.length < TRACE_LIMIT)
        pause.stops.push(this.#stop(ctx, planned, from, record));
      else pause.truncated = true;
      return;
    }
    if (phase.kind === 'paused') return; // a punctuation of another app phase: not expected
    let matched: CompiledBreakpoint | null = null;
    if (phase.kind === 'running') {
      const candidates = this.#byKsNode.get(planned.name);
      if (!candidates) return;
      const view = conditionView(record);
      for (const b of candidates) {
        if (b.matches === null || b.matches(view)) {
          matched = b;
          break;
        }
      }
      if (!matched) return;
      matched.hits++;
    }
    this.#phase = {
      kind: 'recording',
      pause: {
        pauseId: ++this.#pauses,
        breakpointId: matched?.id ?? null,
        position: 0,
        stops: [this.#stop(ctx, planned, from, record)],
        truncated: false,
        since: this.#now(),
      },
    };
    this.gate.pause();
  }

  #stop(
    ctx: DebugContext,
    planned: PlannedNode,
    from: string | null,
    record: EngineRecord,
  ): DebugStop {
    const value = record.value instanceof Change ? record.value.newValue : record.value;
    const metadata = ctx.recordMetadata;
    return {
      nodeId: planned.modelNodeId ?? null,
      node: planned.name,
      taskId: ctx.taskId,
      from,
      record: {
        key: record.key,
        value,
        ...(record.value instanceof Change && record.value.oldValue !== undefined
          ? { oldValue: record.value.oldValue }
          : {}),
        timestamp: record.timestamp,
        headers: record.headers,
        topic: metadata?.topic ?? null,
        partition: metadata?.partition ?? null,
        offset: metadata?.offset ?? null,
      },
      state: planned.stores.map((name) => storeState(ctx, name, record.key)),
      at: this.#now(),
    };
  }

  #updateActive(): void {
    this.active = this.#breakpoints.size > 0 || this.#phase.kind !== 'running';
  }
}

/** What a condition sees: a table's new value, as a filter on the table would. */
function conditionView(record: EngineRecord): EngineRecord {
  return record.value instanceof Change ? { ...record, value: record.value.newValue } : record;
}

function storeState(ctx: DebugContext, name: string, key: unknown): StoreState {
  try {
    const windowed = ctx.stateStores?.get(name);
    if (windowed instanceof SegmentedWindowStore) return windowStoreState(name, windowed, key);
    if (windowed instanceof SegmentedSessionStore) return sessionStoreState(name, windowed, key);
    const store = ctx.store(name);
    const current = key === null || key === undefined ? undefined : store.get(key);
    return {
      store: name,
      current: current ? { value: current.value, timestamp: current.timestamp } : null,
      entries: store
        .all()
        .slice(0, STATE_ENTRIES)
        .map((e) => ({ key: e.key, value: e.value, timestamp: e.timestamp })),
      size: store.approximateNumEntries(),
    };
  } catch (error) {
    // A store read failing must not fail the record: say so in the snapshot instead.
    return {
      store: `${name} (unreadable: ${errorMessage(error)})`,
      current: null,
      entries: [],
      size: 0,
    };
  }
}

/** A window store at a stop: the key's latest window and the first windows in store order. */
function windowStoreState(name: string, store: SegmentedWindowStore, key: unknown): StoreState {
  const end = (start: number) => start + store.windowSizeMs;
  const mine =
    key === null || key === undefined ? [] : store.fetchRange(key, 0, Number.MAX_SAFE_INTEGER);
  const latest = mine.at(-1);
  return {
    store: name,
    type: 'window',
    current: latest
      ? {
          value: latest.value,
          timestamp: latest.timestamp,
          window: { start: latest.start, end: end(latest.start) },
        }
      : null,
    entries: store
      .all()
      .slice(0, STATE_ENTRIES)
      .map((e) => ({
        key: { key: e.key, start: e.start, end: end(e.start) },
        value: e.value,
        timestamp: e.timestamp,
      })),
    size: store.approximateNumEntries(),
  };
}

/** A session store at a stop: the key's latest session and the first sessions in store order. */
function sessionStoreState(name: string, store: SegmentedSessionStore, key: unknown): StoreState {
  const mine =
    key === null || key === undefined ? [] : store.findSessions(key, 0, Number.MAX_SAFE_INTEGER);
  const latest = mine.reduce<(typeof mine)[number] | undefined>(
    (a, b) => (a === undefined || b.end > a.end ? b : a),
    undefined,
  );
  return {
    store: name,
    type: 'session',
    // a session's timestamp is its end, as Kafka Streams' session stores keep it
    current: latest
      ? {
          value: latest.value,
          timestamp: latest.end,
          window: { start: latest.start, end: latest.end },
        }
      : null,
    entries: store
      .all()
      .slice(0, STATE_ENTRIES)
      .map((e) => ({
        key: { key: e.key, start: e.start, end: e.end },
        value: e.value,
        timestamp: e.end,
      })),
    size: store.approximateNumEntries(),
  };
}

function publicBreakpoint(b: CompiledBreakpoint): Breakpoint {
  return {
    id: b.id,
    nodeId: b.nodeId,
    ...(b.condition !== undefined ? { condition: b.condition } : {}),
    hits: b.hits,
  };
}
