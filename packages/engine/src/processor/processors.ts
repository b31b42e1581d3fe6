// Pass-through processors: sources (decoding happens before, in the task), split branches, merge,
// and the filter Kafka Streams keeps in front of a repartition sink.
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';

export function sourceProcessor(ctx: ProcessorContext): Processor {
  return { process: (record) => ctx.forward(record) };
}
