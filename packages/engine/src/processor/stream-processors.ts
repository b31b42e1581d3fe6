// Stateless KStream processors (Kafka Streams' KStreamFilter, KStreamMap, KStreamMapValues,
// KStreamFlatMap, KStreamFlatMapValues, KStreamPeek, ForeachProcessor, KStreamPrint,
// KStreamBranch). Each forwards records with the input's timestamp and headers, as Kafka
// Streams' record.withKey / withValue do.
import type { ProduceRecord } from '../backend-spi.js';
import type { Serde } from '../serdes/serde.js';
import { topicSerdeContext } from '../serdes/index.js';
import type { CompiledLogic } from './logic.js';
import type { ProcessorContext } from './processor-context.js';
import type { Processor } from './processor-node.js';
import type { EngineRecord } from './record.js';

/** filter / filterNot: forward when the predicate (negated for filterNot) holds. */
export function filterLogicProcessor(
  ctx: ProcessorContext,
  predicate: CompiledLogic,
  not: boolean,
): Processor {
  return {
    process(record) {
      if ((predicate(record) === true) !== not) ctx.forward(record);
    },
  };
}

export function mapValuesLogicProcessor(ctx: ProcessorContext, mapper: CompiledLogic): Processor {
  return {
    process(record) {
      ctx.forward({
        key: record.key,
        value: mapper(record),
        timestamp: record.timestamp,
        headers: record.headers,
      });
    },
  };
}

/** selectKey, and KStream#groupBy's key selector (KSTREAM-KEY-SELECT): a new key, same value. */
export function selectKeyProcessor(ctx: ProcessorContext, selector: CompiledLogic): Processor {
  return {
    process(record) {
      ctx.forward({
        key: selector(record),
        value: record.value,
        timestamp: record.timestamp,
        headers: record.headers,
      });
    },
  };
}

interface KeyValue {
  key: unknown;
  value: unknown;
}

function asKeyValue(result: unknown, what: string): KeyValue {
  if (typeof result !== 'object' || result === null || !('key' in result) || !('value' in result)) {
    throw new TypeError(
      `${what} must return {key, value}, got ${result === null ? 'null' : typeof result}`,
    );
  }
  return result as KeyValue;
}

export function mapProcessor(ctx: ProcessorContext, mapper: CompiledLogic): Processor {
  return {
    process(record) {
      const kv = asKeyValue(mapper(record), 'a map mapper');
      ctx.forward({
        key: kv.key,
        value: kv.value,
        timestamp: record.timestamp,
        headers: record.headers,
      });
    },
  };
}

function asIterable(result: unknown, what: string): Iterable<unknown> {
  if (
    result === null ||
    result === undefined ||
    typeof (result as Iterable<unknown>)[Symbol.iterator] !== 'function' ||
    typeof result === 'string'
  ) {
    throw new TypeError(
      `${what} must return a list, got ${result === null ? 'null' : typeof result}`,
    );
  }
  return result as Iterable<unknown>;
}

export function flatMapProcessor(ctx: ProcessorContext, mapper: CompiledLogic): Processor {
  return {
    process(record) {
      for (const item of asIterable(mapper(record), 'a flatMap mapper')) {
        const kv = asKeyValue(item, 'each flatMap result');
        ctx.forward({
          key: kv.key,
          value: kv.value,
          timestamp: record.timestamp,
          headers: record.headers,
        });
      }
    },
  };
}

export function flatMapValuesProcessor(ctx: ProcessorContext, mapper: CompiledLogic): Processor {
  return {
    process(record) {
      for (const value of asIterable(mapper(record), 'a flatMapValues mapper')) {
        ctx.forward({
          key: record.key,
          value,
          timestamp: record.timestamp,
          headers: record.headers,
        });
      }
    },
  };
}

/** peek (forwards) and foreach (terminal): the action sees the record, for side effects only. */
export function peekProcessor(
  ctx: ProcessorContext,
  action: CompiledLogic | null,
  forward: boolean,
): Processor {
  return {
    process(record) {
      if (action) action(record);
      if (forward) ctx.forward(record);
    },
  };
}

/**
 * KStreamPrint with Printed.toSysOut(): `[label]: mapped` per record; the label defaults to the
 * processor's name and the mapper to `key, value` (Java's `String.format("%s, %s", k, v)`).
 */
export function printProcessor(
  label: string,
  mapper: CompiledLogic | null,
  print: (line: string) => void,
): Processor {
  return {
    process(record) {
      const text = mapper ? String(mapper(record)) : `${show(record.key)}, ${show(record.value)}`;
      print(`[${label}]: ${text}`);
    },
  };
}

/** Java's %s of a value: `null` for null; JSON for structured values (Java would print Map#toString). */
function show(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object' && !(v instanceof Uint8Array)) return JSON.stringify(v);
  return String(v);
}

/**
 * KStreamBranch: the first branch whose predicate holds gets the record (forwarded to that
 * branch's child only); otherwise the default branch, if any; otherwise it is dropped.
 */
export function splitProcessor(
  ctx: ProcessorContext,
  branches: { predicate: CompiledLogic; child: string }[],
  defaultChild: string | null,
): Processor {
  return {
    process(record: EngineRecord) {
      for (const b of branches) {
        if (b.predicate(record) === true) {
          ctx.forwardTo(record, b.child);
          return;
        }
      }
      if (defaultChild !== null) ctx.forwardTo(record, defaultChild);
    },
  };
}

/** A sink: fixed topic or per-record topic (TopicNameExtractor), serialized with its serdes. */
export function sinkLogicProcessor(
  ctx: ProcessorContext,
  topic: string | CompiledLogic,
  keySerde: Serde<unknown>,
  valueSerde: Serde<unknown>,
  /** A custom partition choice (undefined from it: the default partitioner). */
  partitionOf?: (ctx: ProcessorContext, topic: string, record: EngineRecord) => number | undefined,
): Processor {
  return {
    process(record) {
      const target = typeof topic === 'string' ? topic : topic(record);
      if (typeof target !== 'string' || target.length === 0) {
        throw new TypeError(
          `the topic extractor must return a topic name, got ${JSON.stringify(target)}`,
        );
      }
      let key: Uint8Array | null;
      let value: Uint8Array | null;
      try {
        // A source's key that arrives here unchanged, for the same exact serde, has the bytes it
        // was read with (serializing it again would give them back; see Serde#exactBytes).
        key =
          ctx.sourceKeySerde === keySerde && record.key === ctx.sourceKey
            ? ctx.sourceKeyBytes
            : keySerde.serialize(record.key, topicSerdeContext(target, true));
        value = valueSerde.serialize(record.value, topicSerdeContext(target, false));
      } catch (error) {
        // Kafka Streams hands serialization errors at a sink to the production exception handler.
        ctx.handleError(ctx.currentNode!, record, error, ctx.productionHandler, 'production');
        return;
      }
      const out: ProduceRecord = {
        topic: target,
        key,
        value,
        timestamp: record.timestamp,
        headers: record.headers,
      };
      if (partitionOf !== undefined) {
        const partition = partitionOf(ctx, target, record);
        if (partition !== undefined) out.partition = partition;
      }
      const refused = ctx.produceCheck?.(out);
      if (refused) {
        ctx.handleError(
          ctx.currentNode!,
          record,
          refused,
          ctx.productionHandler,
          'production',
          out,
        );
        return;
      }
      ctx.collector.send(out);
      ctx.currentNode!.metrics.recordsProducedTotal++;
    },
  };
}
