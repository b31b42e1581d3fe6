import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './metrics-registry.js';

describe('metrics registry', () => {
  it('reports Kafka Streams names and a moving-window rate', () => {
    let now = 0;
    const registry = new MetricsRegistry('app', { 'KSTREAM-SOURCE-0000000000': 'src' }, () => now);
    const node = registry.node('0_0', 'KSTREAM-SOURCE-0000000000');
    registry.snapshot();
    for (let s = 1; s <= 10; s++) {
      now = s * 1000;
      node.processTotal += 100;
      registry.snapshot();
    }
    const snap = registry.snapshot();
    const values = snap.nodes['0_0']!['KSTREAM-SOURCE-0000000000']!;
    expect(values['process-total']).toBe(1000);
    expect(values['process-rate']).toBeCloseTo(100, 5);
    expect(values['record-e2e-latency-avg']).toBeUndefined();
    node.recordE2eLatency(4);
    node.recordE2eLatency(8);
    const after = registry.snapshot().nodes['0_0']!['KSTREAM-SOURCE-0000000000']!;
    expect([
      after['record-e2e-latency-min'],
      after['record-e2e-latency-avg'],
      after['record-e2e-latency-max'],
    ]).toEqual([4, 6, 8]);
    expect(snap.nodeModelIds).toEqual({ 'KSTREAM-SOURCE-0000000000': 'src' });
  });

  it('busy-ratio: sampled ms per record over the window times the rate, as a share of a second', () => {
    let now = 0;
    const registry = new MetricsRegistry('app', {}, () => now);
    const node = registry.node('0_0', 'KSTREAM-MAPVALUES-0000000001');
    registry.snapshot();
    const busy = () => registry.snapshot().nodes['0_0']!['KSTREAM-MAPVALUES-0000000001']!;
    expect(busy()['busy-ratio']).toBe(0);
    // 1000 records/s, 1 in 64 timed at 0.2 ms each: 200 ms of every second, a ratio of 0.2.
    for (let s = 1; s <= 10; s++) {
      now = s * 1000;
      node.processTotal += 1000;
      for (let i = 0; i < 1000 / 64; i++) node.recordBusySample(0.2);
      registry.snapshot();
    }
    expect(busy()['busy-ratio']).toBeCloseTo(0.2, 5);
    // A node doing more than one thread can (a stale sample) is capped at 1.
    node.processTotal += 100_000;
    now += 1000;
    expect(busy()['busy-ratio']).toBeLessThanOrEqual(1);
  });
});
