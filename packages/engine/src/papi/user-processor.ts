// Runs a user's Processor (or FixedKeyProcessor) as a node of the task's graph: the node's
// internal processor delegates to it, and the context it gets is a thin view of the task's
// ProcessorContext, bound to this node.
import type { ProcessorContext as EngineContext } from '../processor/processor-context.js';
import type { Processor as NodeProcessor } from '../processor/processor-node.js';
import type { EngineRecord } from '../processor/record.js';
import { keyValueStoreFacade } from '../state/key-value-facade.js';
import { SegmentedSessionStore } from '../state/session-store.js';
import { SegmentedWindowStore } from '../state/window-store.js';
import { sessionStoreFacade, windowStoreFacade } from '../state/window-facades.js';
import { versionedStoreFacade } from '../state/versioned-facade.js';
import { isVersionedStore } from '../state/versioned-store.js';
import type {
  FixedKeyProcessor,
  FixedKeyProcessorContext,
  FixedKeyRecord,
  Processor,
  ProcessorContext,
  StreamRecord,
} from './types.js';

export interface UserProcessorOptions {
  nodeName: string;
  /** Stores connected to this node (Kafka Streams: connectProcessorAndStateStores). */
  stores: readonly string[];
}

export function userProcessorNode(
  ctx: EngineContext,
  processor: Processor | FixedKeyProcessor,
  options: UserProcessorOptions,
): NodeProcessor {
  // A FixedKeyRecord can only be derived from an input record (its type says so), so the key of a
  // forwarded record is passed on as is for both kinds of processor.
  const forward = (record: StreamRecord<unknown, unknown>, childName?: string): void => {
    const out: EngineRecord = {
      key: record.key,
      value: record.value,
      timestamp: record.timestamp,
      headers: record.headers,
    };
    if (childName === undefined) ctx.forward(out);
    else ctx.forwardTo(out, childName);
  };
  const context: ProcessorContext & FixedKeyProcessorContext = {
    ...processorBaseContext(ctx, options),
    forward: forward as ProcessorContext['forward'] & FixedKeyProcessorContext['forward'],
  };
  return {
    init: () => processor.init?.(context),
    process(record) {
      (processor as Processor).process(
        record as StreamRecord<unknown, unknown> & FixedKeyRecord<unknown, unknown>,
      );
    },
    close: () => processor.close?.(),
  };
}

/**
 * What every user-code context shares (processors, value transformers): task identity, time,
 * punctuators, the stores connected to `options.nodeName`, commit requests.
 */
export function processorBaseContext(
  ctx: EngineContext,
  options: UserProcessorOptions,
): Omit<ProcessorContext, 'forward'> {
  const facades = new Map<string, unknown>();
  return {
    applicationId: ctx.applicationId,
    taskId: ctx.taskId,
    recordMetadata: () => (ctx.recordMetadata === null ? null : { ...ctx.recordMetadata }),
    currentStreamTimeMs: () => (ctx.streamTime === -Infinity ? -1 : ctx.streamTime),
    currentSystemTimeMs: () => ctx.wallClockMs(),
    schedule(intervalMs, type, punctuator) {
      if (!Number.isInteger(intervalMs) || intervalMs < 1) {
        throw new RangeError(`the punctuation interval must be at least 1 ms, got ${intervalMs}`);
      }
      if (type === 'STREAM_TIME') {
        // Aligned to 0: fires as soon as there is data (StreamTask#schedule).
        return ctx.streamTimePunctuation.schedule(options.nodeName, 0, intervalMs, punctuator);
      }
      if (type === 'WALL_CLOCK_TIME') {
        return ctx.wallClockPunctuation.schedule(
          options.nodeName,
          ctx.wallClockMs() + intervalMs,
          intervalMs,
          punctuator,
        );
      }
      throw new RangeError(`unknown punctuation type ${String(type)}`);
    },
    // Global stores (globalTable) are readable from every processor, as in Kafka Streams.
    getStateStore<S>(name: string): S {
      if (!options.stores.includes(name) && !ctx.globalStores.has(name)) {
        // ProcessorContextImpl#getStateStore's message, word for word.
        throw new Error(
          `Processor ${options.nodeName} has no access to StateStore ${name} as the store is not connected to the processor. ` +
            `If you add stores manually via '.addStateStore()' make sure to connect the added store to the processor by providing the processor name to '.addStateStore()' or connect them via '.connectProcessorAndStateStores()'. ` +
            `DSL users need to provide the store name to '.process()', '.processValues()', or '.transformValues()' to connect the store to the corresponding operator, or they can provide a StoreBuilder by implementing the stores() method on the Supplier itself. ` +
            `If you do not add stores manually, please file a bug report at https://issues.apache.org/jira/projects/KAFKA.`,
        );
      }
      let facade = facades.get(name);
      if (facade === undefined) {
        const now = (): number => ctx.currentTimestamp;
        const own = ctx.stateStores.get(name);
        if (own instanceof SegmentedWindowStore)
          facade = windowStoreFacade(own, own.windowSizeMs, now);
        else if (own instanceof SegmentedSessionStore) facade = sessionStoreFacade(own, now);
        else if (isVersionedStore(own)) facade = versionedStoreFacade(own);
        else {
          const store = ctx.store(name);
          facade = keyValueStoreFacade(store, (k) => store.serializeKey(k), now);
        }
        facades.set(name, facade);
      }
      return facade as S;
    },
    commit() {
      ctx.commitRequested = true;
    },
  };
}
