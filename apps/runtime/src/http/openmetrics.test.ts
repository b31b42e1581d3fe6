import { describe, expect, it } from 'vitest';
import type { MetricsSnapshot } from '@streamwright/engine';
import { toOpenMetrics } from './openmetrics.js';

const snapshot: MetricsSnapshot = {
  at: 0,
  applicationId: 'orders-app',
  threads: { 'orders-app-StreamThread-1': { 'process-total': 7, 'process-rate': 1.5 } },
  tasks: {
    '0_0': { 'process-total': 3, 'dropped-records-total': 1, 'restore-remaining-records-total': 0 },
    '0_1': { 'process-total': 4, 'dropped-records-total': 0, 'restore-remaining-records-total': 2 },
  },
  nodes: {
    '0_0': {
      'KSTREAM-SOURCE-0000000000': { 'process-total': 3, 'record-e2e-latency-max': Number.NaN },
    },
  },
  nodeModelIds: { 'KSTREAM-SOURCE-0000000000': 'src' },
  stores: {
    '0_0': {
      'counts-store': { scope: 'in-memory', values: { 'put-latency-avg': 850, 'put-rate': 12 } },
      'final-store': {
        scope: 'in-memory-suppression',
        values: { 'suppression-buffer-count-max': 3 },
      },
    },
  },
  caches: { '0_0': { 'counts-store': { 'hit-ratio-avg': 0.25 } } },
};

describe('toOpenMetrics', () => {
  it('maps Kafka Streams metric names per level, with -total metrics as counters', () => {
    const text = toOpenMetrics(snapshot, 'RUNNING');
    expect(text).toContain('# TYPE kafka_streams_task_process counter\n');
    expect(text).toContain('kafka_streams_task_process_total{task_id="0_0"} 3\n');
    expect(text).toContain('kafka_streams_task_process_total{task_id="0_1"} 4\n');
    expect(text).toContain('# TYPE kafka_streams_thread_process_rate gauge\n');
    expect(text).toContain(
      'kafka_streams_thread_process_rate{thread_id="orders-app-StreamThread-1"} 1.5\n',
    );
    expect(text).toContain(
      'kafka_streams_processor_node_process_total{task_id="0_0",processor_node_id="KSTREAM-SOURCE-0000000000"} 3\n',
    );
    expect(text).toContain(
      'kafka_streams_processor_node_record_e2e_latency_max{task_id="0_0",processor_node_id="KSTREAM-SOURCE-0000000000"} NaN\n',
    );
    expect(text).toContain(
      'kafka_streams_application_info{application_id="orders-app",state="RUNNING"} 1\n',
    );
    expect(text).toContain(
      'kafka_streams_state_put_latency_avg{task_id="0_0",store_scope="in-memory",state_id="counts-store"} 850\n',
    );
    expect(text).toContain(
      'kafka_streams_state_suppression_buffer_count_max{task_id="0_0",store_scope="in-memory-suppression",state_id="final-store"} 3\n',
    );
    expect(text).toContain('# TYPE kafka_streams_record_cache_hit_ratio_avg gauge\n');
    expect(text).toContain(
      'kafka_streams_record_cache_hit_ratio_avg{task_id="0_0",record_cache_id="counts-store"} 0.25\n',
    );
  });

  it('keeps a "-total" gauge that can go down a gauge', () => {
    const text = toOpenMetrics(snapshot, 'RUNNING');
    expect(text).toContain('# TYPE kafka_streams_task_restore_remaining_records_total gauge\n');
  });

  it('writes every family once, its samples together, and ends with # EOF', () => {
    const text = toOpenMetrics(snapshot, 'RUNNING');
    expect(text.endsWith('# EOF\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    const families: string[] = [];
    let current = '';
    for (const line of lines) {
      const type = /^# TYPE (\S+) (counter|gauge|info)$/.exec(line);
      if (type?.[1]) {
        expect(families).not.toContain(type[1]);
        families.push(type[1]);
        current = type[1];
        continue;
      }
      if (line.startsWith('#')) continue;
      // Every sample belongs to the family declared just above it.
      const name = line.slice(0, line.search(/[{ ]/));
      expect([current, `${current}_total`, `${current}_info`]).toContain(name);
      expect(line).toMatch(
        /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (NaN|[+-]Inf|-?\d+(\.\d+)?(e[+-]?\d+)?)$/,
      );
    }
  });

  it('escapes label values', () => {
    const text = toOpenMetrics(
      {
        ...snapshot,
        threads: {},
        tasks: {},
        nodes: { '0_0': { 'a"b\\c\nd': { 'process-total': 1 } } },
      },
      'RUNNING',
    );
    expect(text).toContain('processor_node_id="a\\"b\\\\c\\nd"');
  });

  it('is just # EOF with nothing deployed', () => {
    expect(toOpenMetrics(null, null)).toBe('# EOF\n');
  });

  it("exports the backend's background-job failures as one counter per job", () => {
    expect(toOpenMetrics(null, null, { checkpoint: 0, cleaner: 3 })).toBe(
      [
        '# TYPE streamwright_backend_background_failures counter',
        "# HELP streamwright_backend_background_failures Failures of the backend's background jobs since it opened (each also a WARN naming the job)",
        'streamwright_backend_background_failures_total{job="checkpoint"} 0',
        'streamwright_backend_background_failures_total{job="cleaner"} 3',
        '# EOF',
        '',
      ].join('\n'),
    );
  });
});
