// Joins with a table side: Kafka Streams' KStreamKTableJoin (only stream records trigger; the
// table is read through its store), KStreamGlobalKTableJoin (a key selector maps the stream
// record to the global table's key) and KTableKTableInner/Left/Right/OuterJoin (either side
// triggers; results carry the larger of both timestamps, a side's deletion forwards a tombstone
// or a one-sided result).
import type { ProcessorContext } from '../processor/processor-context.js';
import type { Processor } from '../processor/processor-node.js';
import { Change, isNullish, type EngineRecord } from '../processor/record.js';
import type { KeyValueStore } from '../state/key-value-store.js';
import type {
  BufferedStreamRecord,
  TimeOrderedKeyValueBuffer,
} from '../state/time-ordered-buffer.js';
import { isVersionedStore } from '../state/versioned-store.js';
import type { TableGetter } from './table-getter.js';
import type { Joiner } from './stream-stream-join.js';

/**
 * KStreamKTableJoinProcessor. Records with a null value are dropped (dropped-records), as are null
 * keys in inner joins; left joins join a null key with null (Kafka Streams 3.7+, KIP-962, checked
 * against 4.1). With a grace period (Joined#withGracePeriod, KIP-923) each record goes to the
 * time-ordered buffer, which hands back, in timestamp order, every record stream time − grace has
 * reached; a record already older than that joins at once. (A left join's null key reaches the
 * buffer too, which refuses it: the task fails, as in Kafka Streams 4.1.)
 */
export function streamTableJoinProcessor(
  ctx: ProcessorContext,
  table: () => KeyValueStore | undefined,
  leftJoin: boolean,
  joiner: Joiner,
  buffer?: () => TimeOrderedKeyValueBuffer,
  /** The table's filter / mapValues / transformValues getters over the store. */
  getter?: TableGetter,
): Processor {
  const join = (record: EngineRecord): void => {
    // A versioned table is read as of the stream record's time (KIP-914).
    const store = isNullish(record.key) ? undefined : table();
    const found =
      store === undefined
        ? undefined
        : isVersionedStore(store)
          ? (store.getAsOf(record.key, record.timestamp) ?? undefined)
          : store.get(record.key);
    const read = getter === undefined || store === undefined ? found : getter(record.key, found);
    const other: unknown = read?.value ?? null;
    if (other === null && !leftJoin) return;
    ctx.forward({ ...record, value: joiner(record.key, record.value, other) });
  };
  // An evicted record joins in the context it was buffered with (topic, partition, offset).
  const emit = (buffered: BufferedStreamRecord): void => {
    const { key, value, timestamp, headers } = buffered;
    const current = ctx.recordMetadata;
    ctx.recordMetadata = buffered.metadata;
    try {
      join({ key, value, timestamp, headers });
    } finally {
      ctx.recordMetadata = current;
    }
  };
  return {
    process(record: EngineRecord) {
      if (isNullish(record.value) || (!leftJoin && isNullish(record.key))) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      if (buffer === undefined) {
        join(record);
        return;
      }
      const b = buffer();
      const now = ctx.wallClockMs();
      // A copy: the task reuses its metadata object for every record.
      const m = ctx.recordMetadata;
      const metadata =
        m === null
          ? { topic: '', partition: ctx.partition, offset: -1 }
          : { topic: m.topic, partition: m.partition, offset: m.offset };
      if (!b.put(record.key, record.value, record.timestamp, record.headers, metadata, now))
        join(record);
      else b.evict(emit, now);
    },
  };
}

/** KStreamGlobalKTableJoin: the selected key is looked up in the (fully loaded) global store. */
export function streamGlobalTableJoinProcessor(
  ctx: ProcessorContext,
  table: () => KeyValueStore | undefined,
  keySelector: (record: EngineRecord) => unknown,
  leftJoin: boolean,
  joiner: Joiner,
): Processor {
  return {
    process(record: EngineRecord) {
      // The stream key may be null: only the selected table key matters (checked against 4.1).
      if (isNullish(record.value)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const tableKey = keySelector(record);
      if (isNullish(tableKey) && !leftJoin) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const other = isNullish(tableKey) ? undefined : table()?.get(tableKey);
      if (other === undefined && !leftJoin) return;
      ctx.forward({ ...record, value: joiner(record.key, record.value, other?.value ?? null) });
    },
  };
}

export type TableJoinType = 'inner' | 'left' | 'outer';

/**
 * One side of a KTable–KTable join. `side` is the table whose update arrives; `other` reads the
 * opposite table. `thisOuter`: results exist without the other side (left side of left joins,
 * both sides of outer joins); `otherOuter`: results exist without this side.
 */
export function tableTableJoinProcessor(
  ctx: ProcessorContext,
  options: {
    side: 'left' | 'right';
    type: TableJoinType;
    other: () => Pick<KeyValueStore, 'get'> | undefined;
    joiner: Joiner;
    sendOldValues: boolean;
    /** The other table's filter / mapValues / transformValues getters over its store. */
    getter?: TableGetter;
  },
): Processor {
  const thisOuter =
    options.type === 'outer' || (options.type === 'left' && options.side === 'left');
  const otherOuter =
    options.type === 'outer' || (options.type === 'left' && options.side === 'right');
  const join = (key: unknown, mine: unknown, theirs: unknown): unknown =>
    options.side === 'left' ? options.joiner(key, mine, theirs) : options.joiner(key, theirs, mine);
  return {
    process(record: EngineRecord) {
      if (isNullish(record.key)) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      const change = record.value instanceof Change ? record.value : new Change(record.value, null);
      // KIP-914: out-of-order updates of a versioned table produce no join result (dropped).
      if (!change.isLatest) {
        ctx.taskMetrics.droppedRecordsTotal++;
        return;
      }
      let other = options.other()?.get(record.key);
      if (options.getter !== undefined) other = options.getter(record.key, other);
      const otherValue = other?.value ?? null;
      let timestamp = record.timestamp;
      if (other === undefined) {
        // Without the other side only an outer side produces results, and only for a real change.
        if (!thisOuter) return;
        if (isNullish(change.newValue) && isNullish(change.oldValue)) return;
      } else {
        timestamp = Math.max(record.timestamp, other.timestamp);
      }
      const present = (v: unknown): boolean => !isNullish(v);
      const result = (mine: unknown): unknown => {
        if (present(mine)) return join(record.key, mine, otherValue);
        // This side is gone: the other side alone is a result only if that side is outer.
        return otherOuter && other !== undefined ? join(record.key, null, otherValue) : null;
      };
      const newValue = result(change.newValue);
      // As Kafka's joins: the old result is computed like the new one (a right join's or outer
      // join's old result exists from the other side alone).
      const oldValue = options.sendOldValues ? result(change.oldValue) : null;
      ctx.forward({
        key: record.key,
        value: new Change(newValue, oldValue),
        timestamp,
        headers: record.headers,
      });
    },
  };
}
