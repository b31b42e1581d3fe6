import { describe, expect, it } from 'vitest';
import { aggregateCounters, formatCount, formatRate, taskCounters } from './counters.js';

const snapshot = {
  nodes: {
    '0_0': {
      'KSTREAM-SOURCE-0000000000': { 'process-total': 4, 'process-rate': 1 },
      'KSTREAM-FILTER-0000000001': { 'process-total': 4, 'process-rate': 1 },
    },
    '0_1': {
      'KSTREAM-SOURCE-0000000000': { 'process-total': 3, 'process-rate': 0.5 },
      'KSTREAM-FILTER-0000000001': { 'process-total': 3, 'process-rate': 0.5 },
    },
    '0_2': { 'KSTREAM-SOURCE-0000000000': { 'process-total': 0, 'process-rate': 0 } },
  },
  nodeModelIds: { 'KSTREAM-SOURCE-0000000000': 'orders', 'KSTREAM-FILTER-0000000001': 'big' },
};

describe('per-model-node counters', () => {
  it('sums process-total and process-rate over tasks', () => {
    expect(aggregateCounters(snapshot)).toEqual({
      orders: { total: 7, rate: 1.5, busy: 0 },
      big: { total: 7, rate: 1.5, busy: 0 },
    });
  });

  it('counts a model node planned into several Kafka Streams nodes once', () => {
    const repartitioned = {
      nodes: {
        '0_0': { 'KSTREAM-SINK-0000000002': { 'process-total': 5 } },
        '1_0': { 'KSTREAM-SOURCE-0000000003': { 'process-total': 2 } },
      },
      nodeModelIds: {
        'KSTREAM-SINK-0000000002': 'grouped',
        'KSTREAM-SOURCE-0000000003': 'grouped',
      },
    };
    expect(aggregateCounters(repartitioned)).toEqual({ grouped: { total: 5, rate: 0, busy: 0 } });
  });

  it('keeps the identity of unchanged counters so only moving nodes re-render', () => {
    const first = aggregateCounters(snapshot);
    expect(aggregateCounters(snapshot, first)).toBe(first);
    const moved = structuredClone(snapshot);
    moved.nodes['0_2']['KSTREAM-SOURCE-0000000000']['process-total'] = 1;
    const second = aggregateCounters(moved, first);
    expect(second).not.toBe(first);
    expect(second.big).toBe(first.big);
    expect(second.orders).toEqual({ total: 8, rate: 1.5, busy: 0 });
  });

  it("sums a model node's busy-ratio over its Kafka Streams nodes and tasks, per stream thread", () => {
    const busy = {
      threads: { 'app-StreamThread-1': {}, 'app-StreamThread-2': {} },
      nodes: {
        '0_0': {
          'KSTREAM-SINK-0000000002': { 'process-total': 5, 'busy-ratio': 0.2 },
          'KSTREAM-FILTER-0000000001': { 'process-total': 5, 'busy-ratio': 0.5 },
        },
        '1_0': { 'KSTREAM-SOURCE-0000000003': { 'process-total': 5, 'busy-ratio': 0.4 } },
        '0_1': { 'KSTREAM-FILTER-0000000001': { 'process-total': 1, 'busy-ratio': 0.3 } },
      },
      nodeModelIds: {
        'KSTREAM-SINK-0000000002': 'grouped',
        'KSTREAM-SOURCE-0000000003': 'grouped',
        'KSTREAM-FILTER-0000000001': 'big',
      },
    };
    const counters = aggregateCounters(busy);
    expect(counters.grouped).toEqual({ total: 5, rate: 0, busy: 0.3 });
    expect(counters.big).toEqual({ total: 6, rate: 0, busy: 0.4 });
  });

  it('drops counters when the app is gone and ignores non-finite values', () => {
    const first = aggregateCounters(snapshot);
    expect(aggregateCounters(null, first)).toEqual({});
    expect(
      aggregateCounters({
        nodes: { '0_0': { a: { 'process-total': Number.NaN } } },
        nodeModelIds: { a: 'x' },
      }),
    ).toEqual({ x: { total: 0, rate: 0, busy: 0 } });
  });

  it('reads task-level counters for the tasks table', () => {
    const tasks = {
      '0_0': { 'process-total': 2, 'process-rate': 0.5 },
      '0_1': { 'process-total': 4 },
    };
    const first = taskCounters(tasks);
    const idle = { dropped: 0, latenessMax: 0, restoreRemaining: 0, e2eLatency: null };
    expect(first).toEqual({
      '0_0': { total: 2, rate: 0.5, ...idle },
      '0_1': { total: 4, rate: 0, ...idle },
    });
    expect(taskCounters(tasks, first)).toBe(first);
    expect(taskCounters(null, first)).toEqual({});
  });

  it('reads task health: dropped and late records, restore progress, the largest e2e latency of its nodes', () => {
    const tasks = {
      '0_0': {
        'process-total': 5,
        'dropped-records-total': 2,
        'record-lateness-max': 1500,
        'restore-remaining-records-total': 40,
      },
    };
    const nodes = {
      '0_0': {
        'KSTREAM-SOURCE-0000000000': { 'record-e2e-latency-avg': 1.5 },
        'KSTREAM-SINK-0000000001': { 'record-e2e-latency-avg': 4.25 },
      },
    };
    expect(taskCounters(tasks, {}, nodes)['0_0']).toEqual({
      total: 5,
      rate: 0,
      dropped: 2,
      latenessMax: 1500,
      restoreRemaining: 40,
      e2eLatency: 4.25,
    });
  });

  it('formats for the canvas', () => {
    expect(formatCount(12345)).toBe('12,345');
    expect(formatRate(12.345)).toBe('12.3/s');
  });
});
