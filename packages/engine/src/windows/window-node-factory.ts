// Processor factories for the windowing ops (windowedCount / windowedReduce / windowedAggregate,
// suppress), called from the processor factory switch (processor/node-factories.ts).
import type { PlannedNode, SuppressConfig } from '@streamwright/topology-model';
import { EngineError } from '../errors.js';
import type { CompiledLogic } from '../processor/logic.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { suppressProcessor } from '../suppress/suppress-processor.js';
import { slidingWindowAggregateProcessor } from './sliding-aggregate.js';
import { sessionWindowAggregateProcessor, type SessionAggregation } from './session-aggregate.js';
import { timeWindowAggregateProcessor, type WindowAggregation } from './window-aggregate.js';

type Factory = (ctx: ProcessorContext) => Processor;

export interface WindowFactoryContext {
  node: PlannedNode;
  config: Record<string, unknown>;
  logic(field: string, context: 'initializer' | 'aggregator' | 'reducer'): CompiledLogic;
  storeName(): string;
  retentionMs(store: string): number;
  /** onWindowClose's wall-clock interval between looks for closed windows. */
  emitIntervalMs: number;
  /** The aggregation, when the op does not imply it (a windowed cogroup's aggregator). */
  aggregation?: SessionAggregation;
}

const isNull = (v: unknown): boolean => v === null || v === undefined;

function aggregationOf(c: WindowFactoryContext): SessionAggregation {
  switch (c.node.op) {
    case 'windowedCount':
      return {
        initial: () => 0,
        add: (_k, _v, agg) => (agg as number) + 1,
        merge: (_k, a, b) => (a as number) + (b as number),
      };
    case 'windowedReduce': {
      // Kafka Streams reduces with initializer null and aggregator `agg == null ? value : reduce`.
      const reducer = c.logic('expression', 'reducer');
      const add = (key: unknown, value: unknown, agg: unknown): unknown =>
        isNull(agg) ? value : reducer({ key, value, agg });
      return { initial: () => null, add, merge: (key, a, b) => add(key, b, a) };
    }
    case 'windowedAggregate': {
      const initializer = c.logic('initializer', 'initializer');
      const aggregator = c.logic('aggregator', 'aggregator');
      const merger = c.config['merger'] === undefined ? null : c.logic('merger', 'aggregator');
      return {
        initial: () => initializer({}),
        add: (key, value, agg) => aggregator({ key, value, agg }),
        merge: (key, a, b) => {
          if (merger === null)
            throw new EngineError(
              'INVALID_PLAN',
              `${c.node.name}: a session-windowed aggregate needs a merger`,
            );
          return merger({ key, value: b, agg: a });
        },
      };
    }
    default:
      throw new EngineError('INVALID_PLAN', `${c.node.name}: not a windowed aggregation`);
  }
}

export function windowNodeFactory(c: WindowFactoryContext): Factory {
  const windowing = c.node.windowing;
  if (c.node.op === 'suppress') {
    const config = c.config as SuppressConfig;
    // KTableImpl#suppress waits for the windows' grace; for session windows
    // (SessionWindowedKStreamImpl's aggregate) that is the inactivity gap plus the grace, as a
    // session ending at `end` can still be extended by a record up to `end + gap`.
    const window = windowing?.window;
    const graceMs =
      window === undefined ? 0 : window.graceMs + (window.type === 'session' ? window.gapMs : 0);
    const storeName = c.storeName();
    return (ctx) => suppressProcessor(ctx, { nodeName: c.node.name, config, graceMs, storeName });
  }
  if (!windowing)
    throw new EngineError('INVALID_PLAN', `${c.node.name}: a windowed aggregation without windows`);
  const aggregation = c.aggregation ?? aggregationOf(c);
  const storeName = c.storeName();
  const retentionMs = c.retentionMs(storeName);
  const window = windowing.window;
  switch (window.type) {
    case 'tumbling':
    case 'hopping':
      return (ctx) =>
        timeWindowAggregateProcessor(ctx, aggregation as WindowAggregation, {
          storeName,
          window,
          emitStrategy: windowing.emitStrategy,
          retentionMs,
          sendOldValues: true,
          emitIntervalMs: c.emitIntervalMs,
        });
    case 'session':
      return (ctx) =>
        sessionWindowAggregateProcessor(ctx, aggregation, {
          storeName,
          gapMs: window.gapMs,
          graceMs: window.graceMs,
          retentionMs,
          sendOldValues: true,
          emitStrategy: windowing.emitStrategy,
          emitIntervalMs: c.emitIntervalMs,
        });
    case 'sliding':
      return (ctx) =>
        slidingWindowAggregateProcessor(ctx, aggregation, {
          storeName,
          window,
          emitStrategy: windowing.emitStrategy,
          retentionMs,
          sendOldValues: true,
          emitIntervalMs: c.emitIntervalMs,
        });
  }
}
