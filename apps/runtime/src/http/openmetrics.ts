// The engine's metrics snapshot in the OpenMetrics text format (what Prometheus scrapes).
// Name mapping, documented in docs/API.md:
//   kafka_streams_<level>_<metric name with "-" as "_">{labels}
// level: thread (label thread_id), task (task_id), processor_node (task_id, processor_node_id),
// state (task_id, store_scope — Kafka's store type tag, in-memory, lmdb or in-memory-suppression —
// and state_id, the store), record_cache (task_id, record_cache_id: the cached store).
// Kafka Streams metric names ending in "-total" are counters: the family drops "_total" and
// the sample keeps it, as OpenMetrics requires. Everything else is a gauge.
// The backend's own: streamwright_backend_background_failures_total{job}, failures of its
// background jobs (the embedded log's retention, checkpoint and cleaner) since it opened.
import type { MetricValues, MetricsSnapshot } from '@streamwright/engine';

export const OPENMETRICS_CONTENT_TYPE =
  'application/openmetrics-text; version=1.0.0; charset=utf-8';

/** "-total" metrics that can go down, so they are gauges (Kafka Streams documents them so). */
const GAUGES_NAMED_TOTAL = new Set(['restore-remaining-records-total']);

type Labels = Record<string, string>;
interface Family {
  type: 'counter' | 'gauge' | 'info';
  help: string;
  samples: { name: string; labels: Labels; value: number }[];
}

export function toOpenMetrics(
  snapshot: MetricsSnapshot | null,
  state: string | null,
  backgroundFailures: Readonly<Record<string, number>> = {},
): string {
  const families = new Map<string, Family>();
  for (const [job, failures] of Object.entries(backgroundFailures)) {
    addSample(
      families,
      'streamwright_backend_background_failures',
      'counter',
      "Failures of the backend's background jobs since it opened (each also a WARN naming the job)",
      { name: 'streamwright_backend_background_failures_total', labels: { job }, value: failures },
    );
  }
  if (snapshot && state) {
    addSample(
      families,
      'kafka_streams_application',
      'info',
      'The deployed application and its state',
      {
        name: 'kafka_streams_application_info',
        labels: { application_id: snapshot.applicationId, state },
        value: 1,
      },
    );
  }
  if (snapshot) {
    for (const [thread, values] of Object.entries(snapshot.threads)) {
      addLevel(families, 'thread', { thread_id: thread }, values);
    }
    for (const [task, values] of Object.entries(snapshot.tasks)) {
      addLevel(families, 'task', { task_id: task }, values);
    }
    for (const [task, nodes] of Object.entries(snapshot.nodes)) {
      for (const [node, values] of Object.entries(nodes)) {
        addLevel(families, 'processor_node', { task_id: task, processor_node_id: node }, values);
      }
    }
    for (const [task, stores] of Object.entries(snapshot.stores ?? {})) {
      for (const [store, { scope, values }] of Object.entries(stores)) {
        addLevel(families, 'state', { task_id: task, store_scope: scope, state_id: store }, values);
      }
    }
    for (const [task, caches] of Object.entries(snapshot.caches ?? {})) {
      for (const [cache, values] of Object.entries(caches)) {
        addLevel(families, 'record_cache', { task_id: task, record_cache_id: cache }, values);
      }
    }
  }
  const lines: string[] = [];
  for (const name of [...families.keys()].sort()) {
    const family = families.get(name);
    if (!family) continue;
    lines.push(`# TYPE ${name} ${family.type}`, `# HELP ${name} ${escapeHelp(family.help)}`);
    for (const sample of family.samples) {
      lines.push(`${sample.name}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
    }
  }
  lines.push('# EOF');
  return `${lines.join('\n')}\n`;
}

function addLevel(
  families: Map<string, Family>,
  level: string,
  labels: Labels,
  values: MetricValues,
): void {
  for (const [metric, value] of Object.entries(values)) {
    if (typeof value !== 'number') continue;
    const base = `kafka_streams_${level}_${metric.replace(/[^a-zA-Z0-9_]/g, '_')}`;
    const counter = metric.endsWith('-total') && !GAUGES_NAMED_TOTAL.has(metric);
    const familyName = counter ? base.slice(0, -'_total'.length) : base;
    const help = `Kafka Streams ${level.replace('_', '-')}-level metric ${metric}`;
    addSample(families, familyName, counter ? 'counter' : 'gauge', help, {
      name: base,
      labels,
      value,
    });
  }
}

function addSample(
  families: Map<string, Family>,
  name: string,
  type: Family['type'],
  help: string,
  sample: Family['samples'][number],
): void {
  let family = families.get(name);
  if (!family) {
    family = { type, help, samples: [] };
    families.set(name, family);
  }
  if (family.type !== type) return; // a name clash between kinds would make the exposition invalid
  family.samples.push(sample);
}

function formatLabels(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function escapeHelp(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
