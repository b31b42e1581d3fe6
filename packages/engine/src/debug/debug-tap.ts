// Wraps each node's processor so the debugger sees every record before the node processes it.
// While no breakpoint is set (and nothing is paused) a wrapper costs one property read per record
// and node, as the record tap does.
import type { CompiledNode, CompiledSubtopology } from '../processor/compile.js';
import type { Processor } from '../processor/processor-node.js';
import type { RecordDebugger } from './record-debugger.js';

export function debugSubtopologies(
  compiled: CompiledSubtopology[],
  debug: RecordDebugger,
): CompiledSubtopology[] {
  // Depth-first and synchronous, one record at a time per thread: the node whose process() is
  // running is the one that forwarded what the next wrapper sees.
  const running: string[] = [];
  return compiled.map((sub) => ({
    ...sub,
    nodes: sub.nodes.map((c): CompiledNode => ({
      planned: c.planned,
      create: (ctx) => {
        const inner: Processor = c.create(ctx);
        const planned = c.planned;
        const isSource = planned.role === 'source';
        // A punctuation forwards outside any process() call: its node is then the only parent.
        const onlyParent = planned.predecessors.length === 1 ? planned.predecessors[0]! : null;
        const wrapper: Processor = {
          process(record) {
            if (!debug.active) {
              inner.process(record);
              return;
            }
            const from = isSource ? null : (running[running.length - 1] ?? onlyParent);
            debug.onArrival(ctx, planned, from, record);
            running.push(planned.name);
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
      },
    })),
  }));
}
