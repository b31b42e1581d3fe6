// How an edge shows the flow along it: its source node's current rate (records/s), drawn thicker
// on a log scale and animated while records move, so a busy path stands out at a glance.
export interface EdgeFlow {
  /** Stroke width, px. */
  width: number;
  animated: boolean;
}

const IDLE: EdgeFlow = { width: 1.5, animated: false };

/** Rates bucketed to a few widths so a metrics tick re-renders only edges whose bucket moved. */
export function edgeFlow(rate: number | undefined): EdgeFlow {
  if (rate === undefined || !(rate > 0.05)) return IDLE;
  const width = Math.min(6, 1.5 + Math.round(Math.log10(1 + rate) * 2) / 2);
  return { width, animated: true };
}
