import { describe, expect, it } from 'vitest';
import { edgeFlow } from './edge-flow.js';

describe('edge flow', () => {
  it('is idle without records and grows with the rate on a log scale, capped', () => {
    expect(edgeFlow(undefined)).toEqual({ width: 1.5, animated: false });
    expect(edgeFlow(0)).toEqual({ width: 1.5, animated: false });
    expect(edgeFlow(1).animated).toBe(true);
    const widths = [1, 10, 100, 1000, 1e6].map((r) => edgeFlow(r).width);
    expect(widths).toEqual([...widths].sort((a, b) => a - b));
    expect(edgeFlow(1e9).width).toBe(6);
  });
});
