// The DSL's public shapes (Kafka Streams' KStream, KTable, KGroupedStream, KGroupedTable,
// CogroupedKStream, BranchedKStream, GlobalKTable). Logic is a CEL string (kept in the document,
// editable in the designer) or a TypeScript function (registered in-process, view-only there).
// CEL results are untyped, so the result type parameter defaults to `unknown` for them.
import type { Windowed } from '../windows/windowed-key.js';
import type { FixedKeyProcessorSupplier, ProcessorSupplier } from '../papi/types.js';
import type { ValueTransformerWithKeySupplier } from '../papi/value-transformer.js';
import type { TableJoined } from './table-joined.js';
import type {
  Consumed,
  Grouped,
  KeyValue,
  Materialized,
  Named,
  Printed,
  Produced,
  Repartitioned,
} from './options.js';
import type {
  EmitStrategy,
  JoinWindows,
  Joined,
  SessionWindows,
  SlidingWindows,
  StreamJoined,
  Suppressed,
  TimeWindows,
} from './window-options.js';

export type Cel = string;
export type Predicate<K, V> = Cel | ((key: K, value: V) => boolean);
export type ValueMapper<K, V, VR> = Cel | ((value: V, key: K) => VR);
export type KeyValueMapper<K, V, R> = Cel | ((key: K, value: V) => R);
export type ForeachAction<K, V> = (key: K, value: V) => void;
export type Initializer<VA> = Cel | (() => VA);
export type Aggregator<K, V, VA> = Cel | ((key: K, value: V, aggregate: VA) => VA);
/** Kafka's Reducer: (aggregate so far, new value) → new aggregate. */
export type Reducer<V> = Cel | ((aggregate: V, value: V) => V);
export interface RecordContext {
  readonly timestamp: number;
  readonly headers: Readonly<Record<string, string>>;
}
/**
 * Kafka's ValueJoiner: the two sides' values (the missing one is null in left / outer joins), or
 * ValueJoinerWithKey (a function of three parameters: the record's key first).
 */
export type ValueJoiner<V, VO, VR> =
  Cel | ((value: V, otherValue: VO) => VR) | ((readOnlyKey: never, value: V, otherValue: VO) => VR);
/** Kafka's Merger of two session aggregates (the earlier session's first). */
/** Kafka's Function<V, KO> or BiFunction<K, V, KO> (by the function's arity), or CEL over `key`, `value`. */
export type ForeignKeyExtractor<K, V, KO> = Cel | ((value: V) => KO) | ((key: K, value: V) => KO);
export type Merger<K, VA> = Cel | ((key: K, aggregate1: VA, aggregate2: VA) => VA);
export type { Windowed } from '../windows/windowed-key.js';
export type { ValueTransformerWithKeySupplier };

/** A function, or `{ cel: "…" }` (a bare string passed to to() is a topic name). */
export type TopicNameExtractor<K, V> =
  { readonly cel: Cel } | ((key: K, value: V, context: RecordContext) => string);

/** A stream's processor with the store names it is connected to. */
export type StoreNames = readonly string[];

export interface KStream<K, V> {
  filter(predicate: Predicate<K, V>, named?: Named): KStream<K, V>;
  filterNot(predicate: Predicate<K, V>, named?: Named): KStream<K, V>;
  selectKey<KR = unknown>(mapper: KeyValueMapper<K, V, KR>, named?: Named): KStream<KR, V>;
  map<KR = unknown, VR = unknown>(
    mapper: KeyValueMapper<K, V, KeyValue<KR, VR>>,
    named?: Named,
  ): KStream<KR, VR>;
  mapValues<VR = unknown>(mapper: ValueMapper<K, V, VR>, named?: Named): KStream<K, VR>;
  flatMap<KR = unknown, VR = unknown>(
    mapper: KeyValueMapper<K, V, Iterable<KeyValue<KR, VR>>>,
    named?: Named,
  ): KStream<KR, VR>;
  flatMapValues<VR = unknown>(
    mapper: ValueMapper<K, V, Iterable<VR>>,
    named?: Named,
  ): KStream<K, VR>;
  peek(action: ForeachAction<K, V>, named?: Named): KStream<K, V>;
  foreach(action: ForeachAction<K, V>, named?: Named): void;
  print(printed: Printed<K, V>, named?: Named): void;
  split(named?: Named): BranchedKStream<K, V>;
  merge(other: KStream<K, V>, named?: Named): KStream<K, V>;
  repartition(repartitioned?: Repartitioned<K, V>): KStream<K, V>;
  to(topic: string | TopicNameExtractor<K, V>, produced?: Produced<K, V>): void;
  toTable(materialized: Materialized<K, V>): KTable<K, V>;
  toTable(named?: Named, materialized?: Materialized<K, V>): KTable<K, V>;
  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V>;
  groupBy<KR = unknown>(
    selector: KeyValueMapper<K, V, KR>,
    grouped?: Grouped<KR, V>,
  ): KGroupedStream<KR, V>;
  join<VO, VR = unknown>(
    other: KStream<K, VO>,
    joiner: ValueJoiner<V, VO, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  join<VO, VR = unknown>(
    table: KTable<K, VO>,
    joiner: ValueJoiner<V, VO, VR>,
    joined?: Joined<K, V, VO>,
  ): KStream<K, VR>;
  join<GK, GV, VR = unknown>(
    globalTable: GlobalKTable<GK, GV>,
    keySelector: KeyValueMapper<K, V, GK>,
    joiner: ValueJoiner<V, GV, VR>,
    named?: Named,
  ): KStream<K, VR>;
  leftJoin<VO, VR = unknown>(
    other: KStream<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  leftJoin<VO, VR = unknown>(
    table: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    joined?: Joined<K, V, VO>,
  ): KStream<K, VR>;
  leftJoin<GK, GV, VR = unknown>(
    globalTable: GlobalKTable<GK, GV>,
    keySelector: KeyValueMapper<K, V, GK>,
    joiner: ValueJoiner<V, GV | null, VR>,
    named?: Named,
  ): KStream<K, VR>;
  outerJoin<VO, VR = unknown>(
    other: KStream<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR>,
    windows: JoinWindows,
    streamJoined?: StreamJoined<K, V, VO>,
  ): KStream<K, VR>;
  process<KOut = unknown, VOut = unknown>(
    supplier: ProcessorSupplier<K, V, KOut, VOut>,
    ...stores: (string | Named)[]
  ): KStream<KOut, VOut>;
  processValues<VOut = unknown>(
    supplier: FixedKeyProcessorSupplier<K, V, VOut>,
    ...stores: (string | Named)[]
  ): KStream<K, VOut>;
}

export interface BranchedKStream<K, V> {
  branch(predicate: Predicate<K, V>, branched?: Branched<K, V>): BranchedKStream<K, V>;
  /** Returns the branches by name: split name + branch name (or 1-based position; default: "0"). */
  defaultBranch(branched?: Branched<K, V>): Map<string, KStream<K, V>>;
  noDefaultBranch(): Map<string, KStream<K, V>>;
}

/** Branched.as(name), Branched.withFunction(f), Branched.withConsumer(c). */
export interface Branched<K, V> {
  readonly name?: string;
  readonly chain?: (stream: KStream<K, V>) => KStream<K, V> | void;
}

export interface KTable<K, V> {
  /** The store's name when materialized with Materialized.as(name), else null. */
  queryableStoreName(): string | null;
  filter(predicate: Predicate<K, V>, materialized: Materialized<K, V>): KTable<K, V>;
  filter(
    predicate: Predicate<K, V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<K, V>;
  filterNot(predicate: Predicate<K, V>, materialized: Materialized<K, V>): KTable<K, V>;
  filterNot(
    predicate: Predicate<K, V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<K, V>;
  mapValues<VR = unknown>(
    mapper: ValueMapper<K, V, VR>,
    materialized: Materialized<K, VR>,
  ): KTable<K, VR>;
  mapValues<VR = unknown>(
    mapper: ValueMapper<K, V, VR>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  /**
   * KTable#transformValues: the supplier's ValueTransformerWithKey maps every value (tombstones
   * too), connected to the named state stores (StreamsBuilder#addStateStore). With
   * Materialized.as(name) the result has its own store; otherwise readers (joins) re-apply a
   * transformer of their own to what they read.
   */
  transformValues<VR = unknown>(
    supplier: ValueTransformerWithKeySupplier<K, V, VR>,
    ...stateStoreNames: string[]
  ): KTable<K, VR>;
  transformValues<VR = unknown>(
    supplier: ValueTransformerWithKeySupplier<K, V, VR>,
    named: Named,
    ...stateStoreNames: string[]
  ): KTable<K, VR>;
  transformValues<VR = unknown>(
    supplier: ValueTransformerWithKeySupplier<K, V, VR>,
    materialized: Materialized<K, VR>,
    ...stateStoreNames: string[]
  ): KTable<K, VR>;
  transformValues<VR = unknown>(
    supplier: ValueTransformerWithKeySupplier<K, V, VR>,
    materialized: Materialized<K, VR>,
    named: Named,
    ...stateStoreNames: string[]
  ): KTable<K, VR>;
  toStream(named?: Named): KStream<K, V>;
  groupBy<KR = unknown, VR = unknown>(
    selector: KeyValueMapper<K, V, KeyValue<KR, VR>>,
    grouped?: Grouped<KR, VR>,
  ): KGroupedTable<KR, VR>;
  join<VO, VR = unknown>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO, VR>,
    materialized: Materialized<K, VR>,
  ): KTable<K, VR>;
  join<VO, VR = unknown>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO, VR>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  leftJoin<VO, VR = unknown>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    materialized: Materialized<K, VR>,
  ): KTable<K, VR>;
  leftJoin<VO, VR = unknown>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  /**
   * Foreign-key joins: `foreignKeyExtractor` gives the other table's key for each value (CEL over
   * `key`, `value`; a function of the value, or of key and value); the result is keyed like this
   * table. Kafka's KTable#join(other, foreignKeyExtractor, joiner[, TableJoined][, Materialized]).
   */
  join<KO, VO, VR = unknown>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<K, V, KO>,
    joiner: ValueJoiner<V, VO, VR>,
    tableJoined?: TableJoined | Materialized<K, VR>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  /** The foreign-key left join: `joiner(value, null)` while the other table has no match. */
  leftJoin<KO, VO, VR = unknown>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<K, V, KO>,
    joiner: ValueJoiner<V, VO | null, VR>,
    tableJoined?: TableJoined | Materialized<K, VR>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  outerJoin<VO, VR = unknown>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR>,
    materialized: Materialized<K, VR>,
  ): KTable<K, VR>;
  outerJoin<VO, VR = unknown>(
    other: KTable<K, VO>,
    joiner: ValueJoiner<V | null, VO | null, VR>,
    named?: Named,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  /** Suppressed.untilWindowCloses / untilTimeLimit: hold updates back (docs/WINDOWS_AND_JOINS.md). */
  suppress(suppressed: Suppressed): KTable<K, V>;
}

export interface GlobalKTable<K, V> {
  queryableStoreName(): string | null;
  /** Phantom, for typing only. */
  readonly __types?: [K, V];
}

export interface KGroupedStream<K, V> {
  count(materialized: Materialized<K, number>): KTable<K, number>;
  count(named?: Named, materialized?: Materialized<K, number>): KTable<K, number>;
  reduce(reducer: Reducer<V>, materialized: Materialized<K, V>): KTable<K, V>;
  reduce(reducer: Reducer<V>, named?: Named, materialized?: Materialized<K, V>): KTable<K, V>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    materialized: Materialized<K, VA>,
  ): KTable<K, VA>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    named?: Named,
    materialized?: Materialized<K, VA>,
  ): KTable<K, VA>;
  cogroup<VA = unknown>(aggregator: Aggregator<K, V, VA>): CogroupedKStream<K, VA>;
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedKStream<K, V>;
  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;
}

/** A windowed grouped stream over time windows (TimeWindows or SlidingWindows). */
export interface TimeWindowedKStream<K, V> {
  emitStrategy(strategy: EmitStrategy): TimeWindowedKStream<K, V>;
  count(materialized: Materialized<K, number>): KTable<Windowed<K>, number>;
  count(named?: Named, materialized?: Materialized<K, number>): KTable<Windowed<K>, number>;
  reduce(reducer: Reducer<V>, materialized: Materialized<K, V>): KTable<Windowed<K>, V>;
  reduce(
    reducer: Reducer<V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<Windowed<K>, V>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    materialized: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    named?: Named,
    materialized?: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}

/** A windowed grouped stream over session windows. */
export interface SessionWindowedKStream<K, V> {
  emitStrategy(strategy: EmitStrategy): SessionWindowedKStream<K, V>;
  count(materialized: Materialized<K, number>): KTable<Windowed<K>, number>;
  count(named?: Named, materialized?: Materialized<K, number>): KTable<Windowed<K>, number>;
  reduce(reducer: Reducer<V>, materialized: Materialized<K, V>): KTable<Windowed<K>, V>;
  reduce(
    reducer: Reducer<V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<Windowed<K>, V>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    sessionMerger: Merger<K, VA>,
    materialized: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    aggregator: Aggregator<K, V, VA>,
    sessionMerger: Merger<K, VA>,
    named?: Named,
    materialized?: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}

export interface CogroupedKStream<K, VA> {
  cogroup<V>(
    grouped: KGroupedStream<K, V>,
    aggregator: Aggregator<K, V, VA>,
  ): CogroupedKStream<K, VA>;
  aggregate(initializer: Initializer<VA>, materialized: Materialized<K, VA>): KTable<K, VA>;
  aggregate(
    initializer: Initializer<VA>,
    named?: Named,
    materialized?: Materialized<K, VA>,
  ): KTable<K, VA>;
  /** Windows the cogroup (CogroupedKStream#windowedBy): its aggregate is a windowed table. */
  windowedBy(windows: TimeWindows | SlidingWindows): TimeWindowedCogroupedKStream<K, VA>;
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VA>;
}

/** A cogroup over time or sliding windows (always emitting on window update, as in Kafka). */
export interface TimeWindowedCogroupedKStream<K, VA> {
  aggregate(
    initializer: Initializer<VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}

/** A cogroup over session windows: the merger combines two sessions' aggregates. */
export interface SessionWindowedCogroupedKStream<K, VA> {
  aggregate(
    initializer: Initializer<VA>,
    sessionMerger: Merger<K, VA>,
    a?: Named | Materialized<K, VA>,
    b?: Materialized<K, VA>,
  ): KTable<Windowed<K>, VA>;
}

export interface KGroupedTable<K, V> {
  count(materialized: Materialized<K, number>): KTable<K, number>;
  count(named?: Named, materialized?: Materialized<K, number>): KTable<K, number>;
  reduce(adder: Reducer<V>, subtractor: Reducer<V>, materialized: Materialized<K, V>): KTable<K, V>;
  reduce(
    adder: Reducer<V>,
    subtractor: Reducer<V>,
    named?: Named,
    materialized?: Materialized<K, V>,
  ): KTable<K, V>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    adder: Aggregator<K, V, VA>,
    subtractor: Aggregator<K, V, VA>,
    materialized: Materialized<K, VA>,
  ): KTable<K, VA>;
  aggregate<VA = unknown>(
    initializer: Initializer<VA>,
    adder: Aggregator<K, V, VA>,
    subtractor: Aggregator<K, V, VA>,
    named?: Named,
    materialized?: Materialized<K, VA>,
  ): KTable<K, VA>;
}

export type { Consumed };
