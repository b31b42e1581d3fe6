import { describe, expect, it } from 'vitest';
import { appendSample, HISTORY_MS, sampleOf, type AppSample } from './app-history.js';

const counter = (rate: number) => ({ total: 0, rate, busy: 0 });
const task = (e2eLatency: number | null, restoreRemaining: number) => ({
  total: 0,
  rate: 0,
  dropped: 0,
  latenessMax: 0,
  restoreRemaining,
  e2eLatency,
});

describe('the app dashboard history', () => {
  it('sums input and output rates by node kind, lag over partitions, the worst latency', () => {
    const sample = sampleOf({
      at: 1000,
      doc: {
        nodes: [
          { id: 'orders', kind: 'source', config: {} },
          { id: 'users', kind: 'table', config: {} },
          { id: 'f', kind: 'filter', config: {} },
          { id: 'out', kind: 'sink', config: {} },
        ] as never,
      },
      counters: { orders: counter(10), users: counter(2), f: counter(12), out: counter(7) },
      taskCounters: { '0_0': task(12, 0), '0_1': task(30, 5) },
      lagByPartition: { 'orders-0': 4, 'orders-1': null, 'users-0': 1 },
    });
    expect(sample).toEqual({
      at: 1000,
      inRate: 12,
      outRate: 7,
      lag: 5,
      e2eLatencyMs: 30,
      restoreRemaining: 5,
    });
  });

  it('keeps one sample per tick and the last ten minutes', () => {
    const s = (at: number): AppSample => ({
      at,
      inRate: 0,
      outRate: 0,
      lag: null,
      e2eLatencyMs: null,
      restoreRemaining: 0,
    });
    let history = appendSample([], s(0));
    history = appendSample(history, s(0));
    expect(history).toHaveLength(1);
    for (let t = 1; t <= 700; t++) history = appendSample(history, s(t * 1000));
    expect(history[0]!.at).toBe(700_000 - HISTORY_MS + 1000);
    expect(history.at(-1)!.at).toBe(700_000);
  });
});
