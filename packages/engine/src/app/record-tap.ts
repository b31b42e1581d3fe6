// Opt-in observation of the records flowing through the processor graph, for the designer's
// data preview (the test driver) and live sampling (a running app): every record a node is given,
// with the node that forwarded it (processor/observe-processors.ts does the wrapping).
import type { PlannedNode } from '@streamwright/topology-model';
import type { RecordTap } from '../api.js';
import type { CompiledSubtopology } from '../processor/compile.js';
import { observeSubtopologies, type ProcessorObserver } from '../processor/observe-processors.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { EngineRecord } from '../processor/record.js';

/** The sub-topologies with every node's processor reporting to `tap`. */
export function tapSubtopologies(
  compiled: CompiledSubtopology[],
  tap: RecordTap,
): CompiledSubtopology[] {
  const observer: ProcessorObserver = {
    get active() {
      return tap.active;
    },
    onArrival(
      ctx: ProcessorContext,
      planned: PlannedNode,
      from: string | null,
      record: EngineRecord,
    ) {
      tap.onRecord({ taskId: ctx.taskId, node: planned.name, from, record });
    },
  };
  return observeSubtopologies(compiled, observer);
}
