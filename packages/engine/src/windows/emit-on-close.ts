// EmitStrategy.onWindowClose for time windows (KIP-825, AbstractKStreamTimeWindowAggregateProcessor
// #maybeForwardFinalResult): at most once per `emit.interval.ms.kstreams.windowed.aggregation`
// (1 s of wall-clock time by default; 0 in the test driver, as in TopologyTestDriver), and only when the close time has moved, the windows that closed since
// the last emission are read from the store and forwarded as final results.
import type { Headers } from '../backend-spi.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import { Change } from '../processor/record.js';
import type { SegmentedSessionStore } from '../state/session-store.js';
import { keyId, type SegmentedWindowStore } from '../state/window-store.js';
import { windowedKey } from './windowed-key.js';

export class EmitOnClose {
  #nextTimeToEmit = 0;
  #lastEmitCloseTime = -1;

  /**
   * `sizeMs` is the window size (a sliding window's time difference); sliding windows end
   * inclusively, so they close one millisecond later than a time window of the same bounds
   * (KStreamSlidingWindowAggregate#emitRangeUpperBound).
   */
  constructor(
    private readonly ctx: ProcessorContext,
    private readonly sizeMs: number,
    private readonly options: { inclusiveEnd: boolean; intervalMs: number },
  ) {}

  init(): void {
    this.#nextTimeToEmit = this.ctx.wallClockMs();
  }

  maybeEmit(store: SegmentedWindowStore, closeTime: number, headers: Headers): void {
    // As shouldEmitFinal: every look spends the interval, even when nothing has closed since.
    const now = this.ctx.wallClockMs();
    if (now < this.#nextTimeToEmit) return;
    this.#nextTimeToEmit = now + this.options.intervalMs;
    if (this.#lastEmitCloseTime !== -1 && this.#lastEmitCloseTime >= closeTime) return;
    // Windows that ended at or before closeTime start at or before closeTime − size.
    const endOffset = this.options.inclusiveEnd ? 1 : 0;
    const upper = closeTime - this.sizeMs - endOffset;
    if (upper < 0) return;
    const lower =
      this.#lastEmitCloseTime === -1
        ? 0
        : Math.max(0, this.#lastEmitCloseTime - this.sizeMs + 1 - endOffset);
    if (lower > upper) return;
    // Kafka's time-ordered store iterates by window start, then by the key's bytes.
    const closed = store
      .fetchAll(lower, upper, true)
      .map((e) => ({ e, id: keyId(e.key) }))
      .sort((a, b) => a.e.start - b.e.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const { e } of closed) {
      this.ctx.forward({
        key: windowedKey(e.key, e.start, e.start + this.sizeMs),
        value: new Change(e.value, null),
        timestamp: e.timestamp,
        headers,
      });
    }
    this.#lastEmitCloseTime = closeTime;
  }
}

/**
 * EmitStrategy.onWindowClose for session windows (KStreamSessionWindowAggregate
 * #maybeForwardFinalResult): sessions ending in [last close time, close time − 1] (close time =
 * stream time − gap − grace) are forwarded as final results, by end, then key, then start (the
 * time-ordered session store's order), with the session end as timestamp; same throttle.
 */
export class SessionEmitOnClose {
  #nextTimeToEmit = 0;
  #lastEmitCloseTime = -1;

  constructor(
    private readonly ctx: ProcessorContext,
    private readonly intervalMs: number,
  ) {}

  init(): void {
    this.#nextTimeToEmit = this.ctx.wallClockMs();
  }

  maybeEmit(store: SegmentedSessionStore, closeTime: number, headers: Headers): void {
    const now = this.ctx.wallClockMs();
    if (now < this.#nextTimeToEmit) return;
    this.#nextTimeToEmit = now + this.intervalMs;
    if (this.#lastEmitCloseTime !== -1 && this.#lastEmitCloseTime >= closeTime) return;
    const upper = closeTime - 1;
    const lower = Math.max(0, this.#lastEmitCloseTime);
    if (upper < 0 || upper < lower) return;
    const closed = store
      .all()
      .filter((s) => s.end >= lower && s.end <= upper)
      .map((s) => ({ s, id: keyId(s.key) }))
      .sort(
        (a, b) =>
          a.s.end - b.s.end || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || a.s.start - b.s.start,
      );
    for (const { s } of closed) {
      this.ctx.forward({
        key: windowedKey(s.key, s.start, s.end),
        value: new Change(s.value, null),
        timestamp: s.end,
        headers,
      });
    }
    this.#lastEmitCloseTime = closeTime;
  }
}
