import { describe, expect, it } from 'vitest';
import { nodeTaskRows, nodeTaskTotals, withInstances } from './node-tasks.js';
import { pushTotals, type TotalsSample } from './recent-rate.js';

// A snapshot shaped as the runtime sends it: per task, per Kafka Streams node, Kafka's metrics.
const snapshot = (filterTotals: [number, number], at: number) => ({
  at,
  threads: { 'app-1-StreamThread-1': {}, 'app-1-StreamThread-2': {} },
  nodes: {
    '0_0': {
      'KSTREAM-SOURCE-0000000000': { 'process-total': filterTotals[0] + 5, 'busy-ratio': 0.1 },
      'KSTREAM-FILTER-0000000001': { 'process-total': filterTotals[0], 'busy-ratio': 0.2 },
    },
    '0_10': {
      'KSTREAM-FILTER-0000000001': { 'process-total': filterTotals[1], 'busy-ratio': 0.05 },
    },
    '1_2': {
      // a repartition's source and the aggregation behind it are one model node: the larger total
      'count-repartition-source': { 'process-total': 7, 'busy-ratio': 0.01 },
      'KSTREAM-AGGREGATE-0000000003': { 'process-total': 6, 'busy-ratio': 0.3 },
    },
  },
  nodeModelIds: {
    'KSTREAM-SOURCE-0000000000': 'orders',
    'KSTREAM-FILTER-0000000001': 'big',
    'count-repartition-source': 'count',
    'KSTREAM-AGGREGATE-0000000003': 'count',
  },
});

describe('a node task by task', () => {
  it('lists each task running the node with its thread, records, 5-s rate and busy share', () => {
    let history: TotalsSample[] = [];
    const first = nodeTaskTotals(snapshot([100, 40], 1_000));
    history = pushTotals(history, { at: 1_000, totals: first.totals });
    const now = nodeTaskTotals(snapshot([300, 40], 3_000));
    history = pushTotals(history, { at: 3_000, totals: now.totals });
    const threads = { '0_0': 'app-1-StreamThread-1', '0_10': 'app-1-StreamThread-2' };
    expect(nodeTaskRows('big', now, history, threads)).toEqual([
      {
        taskId: '0_0',
        instance: null,
        thread: 'app-1-StreamThread-1',
        total: 300,
        rate: 100,
        busy: 0.2,
      },
      {
        taskId: '0_10',
        instance: null,
        thread: 'app-1-StreamThread-2',
        total: 40,
        rate: 0,
        busy: 0.05,
      },
    ]);
    expect(nodeTaskRows('count', now, history, {})).toEqual([
      { taskId: '1_2', instance: null, thread: null, total: 7, rate: 0, busy: 0.31 },
    ]);
    expect(nodeTaskRows('missing', now, history, threads)).toEqual([]);
  });

  it('has no rate before two samples a second apart', () => {
    const now = nodeTaskTotals(snapshot([1, 2], 0));
    const rows = nodeTaskRows('big', now, [{ at: 0, totals: now.totals }], {});
    expect(rows.map((r) => r.rate)).toEqual([null, null]);
  });

  it('on Kafka, names the instance of every task and lists the tasks other instances run', () => {
    const now = nodeTaskTotals(snapshot([300, 40], 3_000));
    const rows = nodeTaskRows('big', now, [], {});
    const instances = [
      { host: 'a:7001', self: true, activeTasks: ['0_0', '0_10'] },
      { host: 'b:7002', self: false, activeTasks: ['0_1', '1_2', '0_3'] },
    ];
    const all = withInstances(rows, instances, new Set([0]));
    expect(all.map((r) => [r.taskId, r.instance, r.total])).toEqual([
      ['0_0', 'a:7001', 300],
      ['0_1', 'b:7002', null],
      ['0_3', 'b:7002', null],
      ['0_10', 'a:7001', 40],
    ]);
    // embedded: no instances, rows as they were
    expect(withInstances(rows, undefined, new Set([0]))).toEqual(rows);
  });
});
