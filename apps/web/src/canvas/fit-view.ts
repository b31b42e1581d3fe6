// Fit-view that keeps the drawing clear of what floats over the canvas: the node search and the
// fold buttons along the top (and a sub-topology box's label above its first row), and the zoom
// controls and the minimap along the bottom. The drawing goes either left of the minimap or
// above it, whichever leaves the larger zoom (a wide drawing loses less height, a tall one less
// width).
import { getViewportForBounds, type FitViewOptions, type Rect } from '@xyflow/react';

export const MINIMAP = { width: 150, height: 96 };
export const FIT_MAX_ZOOM = 1.25;
export const FIT_MIN_ZOOM = 0.2;

const px = (n: number) => `${n}px` as const;
const TOP = px(48);
const EDGE = px(16);
const BESIDE_MINIMAP = px(MINIMAP.width + 28);
const ABOVE_CONTROLS = px(MINIMAP.height + 24);

type Padding = NonNullable<FitViewOptions['padding']>;

/** Left of the minimap (clear of the controls at the bottom left too), or above both. */
export const FIT_PADDINGS: readonly Padding[] = [
  { top: TOP, left: '52px', bottom: EDGE, right: BESIDE_MINIMAP },
  { top: TOP, left: EDGE, bottom: ABOVE_CONTROLS, right: EDGE },
];

/** The padding of FIT_PADDINGS that fits `bounds` into a `width` × `height` pane at the largest zoom. */
export function clearFitPadding(bounds: Rect, width: number, height: number): Padding {
  let best = FIT_PADDINGS[0]!;
  let zoom = -1;
  for (const padding of FIT_PADDINGS) {
    const z = getViewportForBounds(bounds, width, height, FIT_MIN_ZOOM, FIT_MAX_ZOOM, padding).zoom;
    if (z > zoom) [best, zoom] = [padding, z];
  }
  return best;
}
