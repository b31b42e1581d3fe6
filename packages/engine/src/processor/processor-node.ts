import type { NodeMetrics } from '../metrics/metric-groups.js';
import type { EngineRecord } from './record.js';

/** Every how many records a node's processing time is measured (see ProcessorContext#process). */
export const BUSY_SAMPLE_EVERY = 64;

/** The logic of one node; `process` is synchronous by contract (see docs/ENGINE.md). */
export interface Processor {
  /** Called once the task's stores are restored, before the first record (as its node). */
  init?(): void;
  process(record: EngineRecord): void;
  close?(): void;
}

/** One node of a task's processor graph: Kafka Streams' ProcessorNode. */
export class ProcessorNode {
  readonly children: ProcessorNode[] = [];
  /** Source and terminal nodes record end-to-end latency, as in Kafka Streams. */
  recordsE2e = false;
  /** Records until this node's next timed one (busy-ratio sampling, ProcessorContext#process). */
  untilTimed = BUSY_SAMPLE_EVERY;

  constructor(
    readonly name: string,
    readonly modelNodeId: string | undefined,
    readonly processor: Processor,
    readonly metrics: NodeMetrics,
  ) {}
}
