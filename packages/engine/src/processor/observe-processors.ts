// Wraps each node's processor so an observer sees every record a node is given, with the node that
// forwarded it, before the node processes it. Used by the record tap (the designer's data preview
// and live sampling) and by the debugger. While the observer is inactive a wrapper costs one
// property read per record and node.
import type { PlannedNode } from '@streamwright/topology-model';
import type { CompiledNode, CompiledSubtopology } from './compile.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import type { EngineRecord } from './record.js';

export interface ProcessorObserver {
  /** Read per record and node: while false nothing is reported. */
  readonly active: boolean;
  /** A record arrived at `planned` from `from` (null at a source); called only while active. */
  onArrival(
    ctx: ProcessorContext,
    planned: PlannedNode,
    from: string | null,
    record: EngineRecord,
  ): void;
}

/** The sub-topologies with every node's processor reporting to `observer`. */
export function observeSubtopologies(
  compiled: CompiledSubtopology[],
  observer: ProcessorObserver,
): CompiledSubtopology[] {
  // Records go through the graph depth-first and synchronously, one at a time per thread, so the
  // node whose process() is running is the one that forwarded what the next wrapper sees.
  const running: string[] = [];
  return compiled.map((sub) => ({
    ...sub,
    nodes: sub.nodes.map((c): CompiledNode => ({
      planned: c.planned,
      create: (ctx) => observed(c.create(ctx), ctx, c.planned, observer, running),
    })),
  }));
}

function observed(
  inner: Processor,
  ctx: ProcessorContext,
  planned: PlannedNode,
  observer: ProcessorObserver,
  running: string[],
): Processor {
  const node = planned.name;
  const isSource = planned.role === 'source';
  // A punctuation forwards outside any process() call: its node is then the only predecessor.
  const onlyParent = planned.predecessors.length === 1 ? planned.predecessors[0]! : null;
  const wrapper: Processor = {
    process(record) {
      if (!observer.active) {
        inner.process(record);
        return;
      }
      const from = isSource ? null : (running[running.length - 1] ?? onlyParent);
      observer.onArrival(ctx, planned, from, record);
      running.push(node);
      try {
        inner.process(record);
      } finally {
        running.pop();
      }
    },
  };
  if (inner.init) wrapper.init = () => inner.init!();
  if (inner.close) wrapper.close = () => inner.close!();
  return wrapper;
}
