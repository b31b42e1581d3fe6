// EmitStrategy.onWindowClose for time windows (KIP-825, AbstractKStreamTimeWindowAggregateProcessor
// #maybeForwardFinalResult): at most once per `emit.interval.ms.kstreams.windowed.aggregation`
// (1 s of wall-clock time), and only when the close time has moved, the windows that closed since
// the last emission are read from the store and forwarded as final results.
import type { Headers } from '../api.js';
import type { ProcessorContext } from '../processor/processor-context.js';
import { Change } from '../processor/record.js';
import { keyId, type SegmentedWindowStore } from '../state/window-store.js';
import { windowedKey } from './windowed-key.js';

const EMIT_INTERVAL_MS = 1000;

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
    private readonly options: { inclusiveEnd: boolean } = { inclusiveEnd: false },
  ) {}

  init(): void {
    this.#nextTimeToEmit = this.ctx.wallClockMs();
  }

  maybeEmit(store: SegmentedWindowStore, closeTime: number, headers: Headers): void {
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
    // The interval only throttles actual emissions (checked against Kafka Streams 4.1, whose
    // TopologyTestDriver clock stands still: a later close is still emitted).
    const now = this.ctx.wallClockMs();
    if (now < this.#nextTimeToEmit) return;
    this.#nextTimeToEmit = now + EMIT_INTERVAL_MS;
    // Kafka's time-ordered store iterates by window start, then by the key's bytes.
    const closed = store
      .fetchAll(lower, upper)
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
