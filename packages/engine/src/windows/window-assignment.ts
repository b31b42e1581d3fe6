// Which windows a record belongs to, as Kafka Streams' Windows#windowsFor implementations compute
// them. Time windows are epoch aligned and half-open [start, end); sliding windows are inclusive
// at both ends; session windows are found by merging (see session-merge.ts).
import type { WindowSpec } from '@streamwright/topology-model';

export interface TimeWindow {
  start: number;
  end: number;
}

/** The start of the earliest aligned window containing `timestamp`. */
export function firstWindowStart(timestamp: number, sizeMs: number, advanceMs: number): number {
  return Math.floor(Math.max(0, timestamp - sizeMs + advanceMs) / advanceMs) * advanceMs;
}

/** TimeWindows#windowsFor: every aligned window [start, start + size) that contains `timestamp`. */
export function timeWindowsFor(timestamp: number, sizeMs: number, advanceMs: number): TimeWindow[] {
  let start = firstWindowStart(timestamp, sizeMs, advanceMs);
  const out: TimeWindow[] = [];
  while (start <= timestamp) {
    out.push({ start, end: start + sizeMs });
    start += advanceMs;
  }
  return out;
}

/** Size and advance of a tumbling or hopping window spec. */
export function sizeAndAdvance(window: WindowSpec & { type: 'tumbling' | 'hopping' }): {
  size: number;
  advance: number;
} {
  return window.type === 'tumbling'
    ? { size: window.sizeMs, advance: window.sizeMs }
    : { size: window.sizeMs, advance: window.advanceMs };
}

/** The window size a windowed key's end is derived from (TimeWindowedDeserializer's windowSize). */
export function windowSizeMs(window: WindowSpec): number {
  switch (window.type) {
    case 'tumbling':
    case 'hopping':
      return window.sizeMs;
    case 'sliding':
      return window.timeDifferenceMs;
    case 'session':
      return 0;
  }
}
