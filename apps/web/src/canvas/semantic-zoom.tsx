// Semantic zoom: zoomed out below COMPACT_BELOW, nodes render compact — their kind's colour, name,
// count and rate — in type scaled by 1 / zoom, so on screen no node text is smaller than 11 px
// however far out the view is. The zoom goes to the canvas element as a CSS variable and a class
// (styles.css, ".sw-canvas.is-compact"): a zoom frame restyles nodes without re-rendering them.
import { useEffect, type RefObject } from 'react';
import { useStore } from '@xyflow/react';

/** Below this zoom nodes render compact. */
export const COMPACT_BELOW = 0.55;

/** Applies the viewport's zoom to `target` (the canvas element) as `--sw-zoom` and `is-compact`. */
export function SemanticZoom({ target }: { target: RefObject<HTMLDivElement | null> }) {
  const zoom = useStore((s) => s.transform[2]);
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    el.style.setProperty('--sw-zoom', String(zoom));
    el.classList.toggle('is-compact', zoom < COMPACT_BELOW);
    el.dataset.zoom = zoom.toFixed(3);
  }, [target, zoom]);
  return null;
}
