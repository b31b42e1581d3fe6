// Places laid-out groups (sub-topologies) in rows ("shelves"), in order, left to right and top to
// bottom. The row width is chosen so the whole drawing, fitted into a canvas of the given aspect
// ratio, gets the largest zoom: that is what keeps node text readable at fit-view.
import type { Size } from './plan-overlay.js';

export interface Packed {
  /** Top-left corner of each group, in the order given. */
  at: { x: number; y: number }[];
  width: number;
  height: number;
}

function shelves(sizes: readonly Size[], maxWidth: number, gap: number): Packed {
  const at: { x: number; y: number }[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  let width = 0;
  for (const size of sizes) {
    if (x > 0 && x + size.width > maxWidth) {
      y += rowHeight + gap;
      x = 0;
      rowHeight = 0;
    }
    at.push({ x, y });
    width = Math.max(width, x + size.width);
    rowHeight = Math.max(rowHeight, size.height);
    x += size.width + gap;
  }
  return { at, width, height: y + rowHeight };
}

/** The zoom (up to a constant) at which `packed` fits a canvas `aspect` times wider than high. */
export const fitScale = (packed: Pick<Packed, 'width' | 'height'>, aspect: number): number =>
  Math.min(aspect / Math.max(packed.width, 1), 1 / Math.max(packed.height, 1));

/**
 * The packing of `sizes` into rows that fits an `aspect` canvas at the largest zoom; with
 * `oneRow`, a single row (a small document reads left to right as records flow).
 */
export function shelfPack(
  sizes: readonly Size[],
  options: { gap: number; aspect: number; oneRow?: boolean },
): Packed {
  const { gap, aspect } = options;
  if (options.oneRow || sizes.length <= 1) return shelves(sizes, Infinity, gap);
  let best: Packed | null = null;
  let run = -gap;
  // every row width worth trying: a row ends after some group
  for (const size of sizes) {
    run += size.width + gap;
    const packed = shelves(sizes, run, gap);
    if (!best || fitScale(packed, aspect) > fitScale(best, aspect)) best = packed;
  }
  return best!;
}
