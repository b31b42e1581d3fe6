// Kafka Streams' window, join and suppression option objects (TimeWindows, SlidingWindows,
// SessionWindows, JoinWindows, EmitStrategy, Suppressed + BufferConfig, StreamJoined, Joined),
// as immutable builders of the topology document's fields. Durations are milliseconds.
import type { JoinWindowSpec, SuppressConfig, WindowSpec } from '@streamwright/topology-model';
import type { DslSerde } from './serdes.js';
import type { WindowBytesStoreSupplier } from './options.js';

function checkMs(what: string, ms: number): number {
  if (!Number.isInteger(ms) || ms < 0)
    throw new Error(`${what} must be a non-negative whole number of milliseconds, got ${ms}`);
  return ms;
}

/** TimeWindows: tumbling (advance = size) or hopping (advanceBy) windows, epoch aligned. */
export class TimeWindows {
  private constructor(
    readonly sizeMs: number,
    readonly graceMs: number,
    readonly advanceMs: number,
  ) {}
  static ofSizeWithNoGrace(sizeMs: number): TimeWindows {
    return TimeWindows.ofSizeAndGrace(sizeMs, 0);
  }
  static ofSizeAndGrace(sizeMs: number, graceMs: number): TimeWindows {
    if (checkMs('window size', sizeMs) === 0)
      throw new Error('Window size (sizeMs) must be larger than zero.');
    return new TimeWindows(sizeMs, checkMs('grace', graceMs), sizeMs);
  }
  advanceBy(advanceMs: number): TimeWindows {
    if (checkMs('advance', advanceMs) === 0 || advanceMs > this.sizeMs)
      throw new Error(
        `Window advancement interval should be more than zero and less than window duration which is ${this.sizeMs} ms, but given advancement interval is: ${advanceMs} ms`,
      );
    return new TimeWindows(this.sizeMs, this.graceMs, advanceMs);
  }
  /** @internal the document's window spec. */
  spec(): WindowSpec {
    return this.advanceMs === this.sizeMs
      ? { type: 'tumbling', sizeMs: this.sizeMs, graceMs: this.graceMs }
      : { type: 'hopping', sizeMs: this.sizeMs, advanceMs: this.advanceMs, graceMs: this.graceMs };
  }
}

/** SlidingWindows: windows of `timeDifference` around each record, inclusive at both ends. */
export class SlidingWindows {
  private constructor(
    readonly timeDifferenceMs: number,
    readonly graceMs: number,
  ) {}
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): SlidingWindows {
    return SlidingWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  }
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, graceMs: number): SlidingWindows {
    return new SlidingWindows(
      checkMs('time difference', timeDifferenceMs),
      checkMs('grace', graceMs),
    );
  }
  /** @internal */
  spec(): WindowSpec {
    return { type: 'sliding', timeDifferenceMs: this.timeDifferenceMs, graceMs: this.graceMs };
  }
}

/** SessionWindows: sessions of activity separated by an inactivity gap. */
export class SessionWindows {
  private constructor(
    readonly gapMs: number,
    readonly graceMs: number,
  ) {}
  static ofInactivityGapWithNoGrace(gapMs: number): SessionWindows {
    return SessionWindows.ofInactivityGapAndGrace(gapMs, 0);
  }
  static ofInactivityGapAndGrace(gapMs: number, graceMs: number): SessionWindows {
    if (checkMs('inactivity gap', gapMs) === 0)
      throw new Error('Gap time (inactivityGapMs) cannot be zero or negative.');
    return new SessionWindows(gapMs, checkMs('grace', graceMs));
  }
  /** @internal */
  spec(): WindowSpec {
    return { type: 'session', gapMs: this.gapMs, graceMs: this.graceMs };
  }
}

/** JoinWindows: a record joins the other side's records within [ts − before, ts + after]. */
export class JoinWindows {
  private constructor(
    readonly beforeMs: number,
    readonly afterMs: number,
    readonly graceMs: number,
  ) {}
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): JoinWindows {
    return JoinWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  }
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, graceMs: number): JoinWindows {
    checkMs('time difference', timeDifferenceMs);
    return new JoinWindows(timeDifferenceMs, timeDifferenceMs, checkMs('grace', graceMs));
  }
  before(timeDifferenceMs: number): JoinWindows {
    return new JoinWindows(checkMs('before', timeDifferenceMs), this.afterMs, this.graceMs);
  }
  after(timeDifferenceMs: number): JoinWindows {
    return new JoinWindows(this.beforeMs, checkMs('after', timeDifferenceMs), this.graceMs);
  }
  /** @internal */
  spec(): JoinWindowSpec {
    return { beforeMs: this.beforeMs, afterMs: this.afterMs, graceMs: this.graceMs };
  }
}

/** EmitStrategy.onWindowUpdate() (default) / onWindowClose() (final results only). */
export class EmitStrategy {
  private constructor(readonly type: 'onWindowUpdate' | 'onWindowClose') {}
  static onWindowUpdate(): EmitStrategy {
    return new EmitStrategy('onWindowUpdate');
  }
  static onWindowClose(): EmitStrategy {
    return new EmitStrategy('onWindowClose');
  }
}

/** Suppressed.BufferConfig: unbounded, or bounded by records and/or bytes. */
export class BufferConfig {
  private constructor(
    readonly maxRecords?: number,
    readonly maxBytes?: number,
    readonly whenFull: 'shutDown' | 'emitEarly' = 'emitEarly',
  ) {}
  static unbounded(): BufferConfig {
    return new BufferConfig(undefined, undefined, 'shutDown');
  }
  static maxRecords(records: number): BufferConfig {
    return new BufferConfig(records);
  }
  static maxBytes(bytes: number): BufferConfig {
    return new BufferConfig(undefined, bytes);
  }
  withMaxRecords(records: number): BufferConfig {
    return new BufferConfig(records, this.maxBytes, this.whenFull);
  }
  withMaxBytes(bytes: number): BufferConfig {
    return new BufferConfig(this.maxRecords, bytes, this.whenFull);
  }
  withNoBound(): BufferConfig {
    return new BufferConfig(undefined, undefined, 'shutDown');
  }
  /** Fail the task when the buffer is full (a StrictBufferConfig). */
  shutDownWhenFull(): BufferConfig {
    return new BufferConfig(this.maxRecords, this.maxBytes, 'shutDown');
  }
  /** Emit the oldest records early when full (untilTimeLimit only). */
  emitEarlyWhenFull(): BufferConfig {
    return new BufferConfig(this.maxRecords, this.maxBytes, 'emitEarly');
  }
}

/** Suppressed.untilWindowCloses(strict buffer) / untilTimeLimit(ms, buffer), withName(name). */
export class Suppressed {
  private constructor(
    readonly config: SuppressConfig,
    readonly name?: string,
  ) {}
  static untilWindowCloses(buffer: BufferConfig): Suppressed {
    if (buffer.whenFull !== 'shutDown')
      throw new Error(
        'Suppressed.untilWindowCloses takes a strict buffer: BufferConfig.unbounded() or a bounded one with shutDownWhenFull()',
      );
    return new Suppressed(
      Suppressed.#bounds({ until: 'windowCloses', whenFull: 'shutDown' }, buffer),
    );
  }
  static untilTimeLimit(timeToWaitForMoreEventsMs: number, buffer: BufferConfig): Suppressed {
    return new Suppressed(
      Suppressed.#bounds(
        {
          until: 'timeLimit',
          timeLimitMs: checkMs('time limit', timeToWaitForMoreEventsMs),
          whenFull: buffer.whenFull,
        },
        buffer,
      ),
    );
  }
  static #bounds(config: SuppressConfig, buffer: BufferConfig): SuppressConfig {
    const out: SuppressConfig = { ...config };
    if (buffer.maxRecords !== undefined) out.maxRecords = buffer.maxRecords;
    if (buffer.maxBytes !== undefined) out.maxBytes = buffer.maxBytes;
    return out;
  }
  withName(name: string): Suppressed {
    return new Suppressed(this.config, name);
  }
}

/** The fields StreamJoined and Joined share: this side's key and value serdes, the other side's value serde, a name. */
interface JoinFields<K, V, VO> {
  readonly keySerde?: DslSerde<K> | undefined;
  readonly valueSerde?: DslSerde<V> | undefined;
  readonly otherValueSerde?: DslSerde<VO> | undefined;
  readonly name?: string | undefined;
}

abstract class JoinOptions<K, V, VO> implements JoinFields<K, V, VO> {
  readonly keySerde?: DslSerde<K> | undefined;
  readonly valueSerde?: DslSerde<V> | undefined;
  readonly otherValueSerde?: DslSerde<VO> | undefined;
  readonly name?: string | undefined;
  protected constructor(fields: JoinFields<K, V, VO>) {
    Object.assign(this, fields);
  }
  protected fields(): JoinFields<K, V, VO> {
    return {
      keySerde: this.keySerde,
      valueSerde: this.valueSerde,
      otherValueSerde: this.otherValueSerde,
      name: this.name,
    };
  }
}

/**
 * BuiltInDslStoreSuppliers (KIP-954): `new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers()`
 * or `RocksDBDslStoreSuppliers` (persistent: lmdb here), for StreamJoined#withDslStoreSuppliers.
 */
export interface DslStoreSuppliers {
  /** `default.dsl.store`'s value for the same choice. */
  readonly dslStore: 'in_memory' | 'rocksDB';
}
export const BuiltInDslStoreSuppliers = {
  InMemoryDslStoreSuppliers: class InMemoryDslStoreSuppliers implements DslStoreSuppliers {
    readonly dslStore = 'in_memory' as const;
  },
  RocksDBDslStoreSuppliers: class RocksDBDslStoreSuppliers implements DslStoreSuppliers {
    readonly dslStore = 'rocksDB' as const;
  },
};

/** What StreamJoined holds beyond the serdes and the name (the document's fields). */
interface StreamJoinedStoreFields {
  readonly storeName?: string | undefined;
  readonly thisStoreSupplier?: WindowBytesStoreSupplier | undefined;
  readonly otherStoreSupplier?: WindowBytesStoreSupplier | undefined;
  readonly dslStoreSuppliers?: DslStoreSuppliers | undefined;
  readonly logging?: boolean | undefined;
  readonly logConfig?: Readonly<Record<string, string>> | undefined;
}

/**
 * StreamJoined: serdes, processor name (`withName`), store names (`as` / `withStoreName`), store
 * suppliers, DSL store suppliers and changelog settings of a stream–stream join. The checks
 * Kafka Streams makes of the suppliers (unique names, retainDuplicates, the join's window size
 * and retention) fail at build(), with Kafka's messages.
 */
export class StreamJoined<K, V, VO> extends JoinOptions<K, V, VO> {
  readonly store: StreamJoinedStoreFields;
  private constructor(fields: JoinFields<K, V, VO>, store: StreamJoinedStoreFields = {}) {
    super(fields);
    this.store = store;
  }
  /**
   * Null serdes are the streams' (as in Kafka Streams); with nulls the types cannot be inferred,
   * hence the `any` defaults (as Joined.with).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  static with<K = any, V = any, VO = any>(
    keySerde: DslSerde<K> | null,
    valueSerde: DslSerde<V> | null,
    otherValueSerde?: DslSerde<VO> | null,
  ): StreamJoined<K, V, VO>;
  static with<K, V, VO>(
    thisStoreSupplier: WindowBytesStoreSupplier,
    otherStoreSupplier: WindowBytesStoreSupplier,
  ): StreamJoined<K, V, VO>;
  static with<K, V, VO>(storeSuppliers: DslStoreSuppliers): StreamJoined<K, V, VO>;
  static with<K, V, VO>(
    a: DslSerde<K> | WindowBytesStoreSupplier | DslStoreSuppliers | null,
    b?: DslSerde<V> | WindowBytesStoreSupplier | null,
    c?: DslSerde<VO> | null,
  ): StreamJoined<K, V, VO> {
    if (isDslStoreSuppliers(a)) return new StreamJoined<K, V, VO>({}, { dslStoreSuppliers: a });
    if (isWindowSupplier(a))
      return new StreamJoined<K, V, VO>(
        {},
        { thisStoreSupplier: a, otherStoreSupplier: b as WindowBytesStoreSupplier },
      );
    return new StreamJoined<K, V, VO>({
      keySerde: a ?? undefined,
      valueSerde: (b as DslSerde<V> | null | undefined) ?? undefined,
      otherValueSerde: c ?? undefined,
    });
  }
  /** StreamJoined.as(storeName): the base name of the join's stores (withStoreName). */
  static as<K = unknown, V = unknown, VO = unknown>(storeName: string): StreamJoined<K, V, VO> {
    return new StreamJoined<K, V, VO>({}, { storeName });
  }
  #with<K2 = K, V2 = V, VO2 = VO>(
    fields: Partial<JoinFields<K2, V2, VO2>>,
    store: StreamJoinedStoreFields = {},
  ): StreamJoined<K2, V2, VO2> {
    return new StreamJoined<K2, V2, VO2>(
      { ...(this.fields() as unknown as JoinFields<K2, V2, VO2>), ...fields },
      { ...this.store, ...store },
    );
  }
  /** The processors' base name (`<name>-this-join`, …); stores keep theirs unless withStoreName. */
  withName(name: string): StreamJoined<K, V, VO> {
    return this.#with({ name });
  }
  /** Stores `<storeName>-this-join-store`, `-other-join-store` (`-outer-…` in outer sides). */
  withStoreName(storeName: string): StreamJoined<K, V, VO> {
    return this.#with({}, { storeName });
  }
  withKeySerde<K2>(keySerde: DslSerde<K2>): StreamJoined<K2, V, VO> {
    return this.#with<K2, V, VO>({ keySerde });
  }
  withValueSerde<V2>(valueSerde: DslSerde<V2>): StreamJoined<K, V2, VO> {
    return this.#with<K, V2, VO>({ valueSerde });
  }
  withOtherValueSerde<VO2>(otherValueSerde: DslSerde<VO2>): StreamJoined<K, V, VO2> {
    return this.#with<K, V, VO2>({ otherValueSerde });
  }
  /** The left side's window store (Stores.inMemoryWindowStore / persistentWindowStore). */
  withThisStoreSupplier(supplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO> {
    return this.#with({}, { thisStoreSupplier: supplier });
  }
  withOtherStoreSupplier(supplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO> {
    return this.#with({}, { otherStoreSupplier: supplier });
  }
  /** The type of every join store no supplier gives (the outer store's too). */
  withDslStoreSuppliers(suppliers: DslStoreSuppliers): StreamJoined<K, V, VO> {
    return this.#with({}, { dslStoreSuppliers: suppliers });
  }
  withLoggingEnabled(config: Readonly<Record<string, string>>): StreamJoined<K, V, VO> {
    return this.#with({}, { logging: true, logConfig: { ...config } });
  }
  withLoggingDisabled(): StreamJoined<K, V, VO> {
    return this.#with({}, { logging: false, logConfig: undefined });
  }
  /** The document's StreamJoined fields (absent ones left out). */
  documentFields(): Record<string, unknown> {
    const s = this.store;
    const supplier = (w: WindowBytesStoreSupplier | undefined) =>
      w === undefined
        ? undefined
        : {
            name: w.name,
            type: w.storeType,
            retentionMs: w.retentionMs,
            windowSizeMs: w.windowSizeMs,
            retainDuplicates: w.retainDuplicates,
          };
    const out: Record<string, unknown> = {
      keySerde: this.keySerde?.name,
      valueSerde: this.valueSerde?.name,
      otherValueSerde: this.otherValueSerde?.name,
      storeName: s.storeName,
      thisStoreSupplier: supplier(s.thisStoreSupplier),
      otherStoreSupplier: supplier(s.otherStoreSupplier),
      dslStoreSuppliers: s.dslStoreSuppliers?.dslStore,
      // Logging on is the default: only withLoggingDisabled / withLoggingEnabled(config) show.
      logging: s.logging === false ? false : undefined,
      logConfig: s.logConfig === undefined ? undefined : { ...s.logConfig },
    };
    for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
    return out;
  }
}

function isDslStoreSuppliers(x: unknown): x is DslStoreSuppliers {
  return typeof x === 'object' && x !== null && 'dslStore' in x;
}

function isWindowSupplier(x: unknown): x is WindowBytesStoreSupplier {
  return typeof x === 'object' && x !== null && 'windowSizeMs' in x && 'retainDuplicates' in x;
}

/**
 * Joined: serdes, name and grace period of a stream–table join. `withGracePeriod(ms)` (KIP-923)
 * buffers the stream side for that long and joins it in timestamp order against a versioned
 * table as of each record's timestamp.
 */
export class Joined<K, V, VO> extends JoinOptions<K, V, VO> {
  /** Joined#withGracePeriod, in milliseconds (undefined: no buffer). */
  readonly gracePeriodMs?: number | undefined;
  private constructor(fields: JoinFields<K, V, VO>, gracePeriodMs?: number) {
    super(fields);
    this.gracePeriodMs = gracePeriodMs;
  }
  /**
   * Null serdes are the stream's (and the table's), as in Kafka Streams. With nulls the types
   * cannot be inferred from the serdes (Java infers them from the call site; TypeScript does not
   * through a chained `.withGracePeriod`), hence the `any` defaults.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  static with<K = any, V = any, VO = any>(
    keySerde: DslSerde<K> | null,
    valueSerde: DslSerde<V> | null,
    otherValueSerde?: DslSerde<VO> | null,
    name?: string,
    gracePeriodMs?: number,
  ): Joined<K, V, VO> {
    const joined = new Joined<K, V, VO>({
      keySerde: keySerde ?? undefined,
      valueSerde: valueSerde ?? undefined,
      otherValueSerde: otherValueSerde ?? undefined,
      name,
    });
    return gracePeriodMs === undefined ? joined : joined.withGracePeriod(gracePeriodMs);
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  static as<K = any, V = any, VO = any>(name: string): Joined<K, V, VO> {
    return new Joined<K, V, VO>({ name });
  }
  withName(name: string): Joined<K, V, VO> {
    return new Joined({ ...this.fields(), name }, this.gracePeriodMs);
  }
  withKeySerde<K2>(keySerde: DslSerde<K2>): Joined<K2, V, VO> {
    return new Joined({ ...this.fields(), keySerde }, this.gracePeriodMs);
  }
  withValueSerde<V2>(valueSerde: DslSerde<V2>): Joined<K, V2, VO> {
    return new Joined({ ...this.fields(), valueSerde }, this.gracePeriodMs);
  }
  withGracePeriod(gracePeriodMs: number): Joined<K, V, VO> {
    if (!Number.isInteger(gracePeriodMs) || gracePeriodMs < 0)
      throw new Error(
        `Joined#withGracePeriod: the grace period must be a non-negative integer of milliseconds, got ${gracePeriodMs}`,
      );
    return new Joined(this.fields(), gracePeriodMs);
  }
}
