// Opt-in observation of the records flowing through the processor graph, for the designer's
// data preview (the test driver) and live sampling (a running app): every record a node is given,
// with the node that forwarded it. Each node's processor is wrapped; while the tap is inactive a
// wrapper costs one property read per record and node.
import type { PlannedNode } from '@streamwright/topology-model';
import type { RecordTap } from '../api.js';
import type { CompiledNode, CompiledSubtopology } from '../processor/compile.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';

/** The sub-topologies with every node's processor reporting to `tap`. */
export function tapSubtopologies(
  compiled: CompiledSubtopology[],
  tap: RecordTap,
): CompiledSubtopology[] {
  // Records go through the graph depth-first and synchronously, one at a time per thread, so the
  // node whose process() is running is the one that forwarded what the next wrapper sees.
  const running: string[] = [];
  return compiled.map((sub) => ({
    ...sub,
    nodes: sub.nodes.map((c): CompiledNode => ({
      planned: c.planned,
      create: (ctx) => tapped(c.create(ctx), ctx, c.planned, tap, running),
    })),
  }));
}

function tapped(
  inner: Processor,
  ctx: ProcessorContext,
  planned: PlannedNode,
  tap: RecordTap,
  running: string[],
): Processor {
  const node = planned.name;
  const isSource = planned.role === 'source';
  // A punctuation forwards outside any process() call: its node is then the only predecessor.
  const onlyParent = planned.predecessors.length === 1 ? planned.predecessors[0]! : null;
  const wrapper: Processor = {
    process(record) {
      if (!tap.active) {
        inner.process(record);
        return;
      }
      const from = isSource ? null : (running[running.length - 1] ?? onlyParent);
      tap.onRecord({ taskId: ctx.taskId, node, from, record });
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
