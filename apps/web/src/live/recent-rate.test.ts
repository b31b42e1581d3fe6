import { describe, expect, it } from 'vitest';
import { pushTotals, recentRates } from './recent-rate.js';
import { aggregateCounters } from './counters.js';

describe('current rate over the last 5 s', () => {
  it('is the growth since the sample 5 s back, and 0 as soon as nothing moves', () => {
    let history = pushTotals([], { at: 0, totals: { a: 0 } });
    expect(recentRates(history)).toEqual({}); // one sample: no rate yet
    for (let t = 1; t <= 10; t++)
      history = pushTotals(history, { at: t * 1000, totals: { a: t * 100 } });
    expect(recentRates(history)).toEqual({ a: 100 });
    expect(history.length).toBeLessThanOrEqual(6);
    // the input stops: after 5 s the rate is 0, not a 30-s average decaying
    for (let t = 11; t <= 15; t++)
      history = pushTotals(history, { at: t * 1000, totals: { a: 1000 } });
    expect(recentRates(history)).toEqual({ a: 0 });
  });

  it('has no rate for a node whose total fell (a restart) or that is new', () => {
    let history = pushTotals([], { at: 0, totals: { a: 500 } });
    history = pushTotals(history, { at: 2000, totals: { a: 10, b: 4 } });
    expect(recentRates(history)).toEqual({});
  });

  it('replaces the rate of aggregated counters, keeping unchanged counters as they were', () => {
    const snapshot = (total: number) => ({
      nodes: {
        '0_0': { 'KSTREAM-SOURCE-0000000000': { 'process-total': total, 'process-rate': 9 } },
      },
      nodeModelIds: { 'KSTREAM-SOURCE-0000000000': 'src' },
    });
    const first = aggregateCounters(snapshot(10), {}, () => ({ src: 0 }));
    expect(first).toEqual({ src: { total: 10, rate: 0, busy: 0 } });
    expect(aggregateCounters(snapshot(10), first, () => ({ src: 0 }))).toBe(first);
    expect(aggregateCounters(snapshot(10), first, () => ({}))).toEqual({
      src: { total: 10, rate: 9, busy: 0 },
    });
  });
});
