// The scale-out run's application: words (N partitions) → groupByKey → count (a persistent store
// with a changelog, no record cache: every record is counted and sent on) → counts, under an
// application id and topic names of its own per run.
import type { AppConfig, Topology } from '@streamwright/topology-model';
import { countPipeline } from '../fixtures/topologies.js';

export interface ScaleOutAppOptions {
  applicationId: string;
  words: string;
  counts: string;
  partitions: number;
  /** Extra Kafka Streams settings (commit.interval.ms, upgrade.from for eager, …). */
  config: AppConfig;
}

export function scaleOutTopology(o: ScaleOutAppOptions): Topology {
  const t = countPipeline(
    { 'session.timeout.ms': 6_000, 'heartbeat.interval.ms': 500, ...o.config },
    o.partitions,
  );
  // The fixture's topic names, replaced wherever they appear as values (sources, sinks, topics).
  const renamed = JSON.stringify(t)
    .replaceAll('"words"', JSON.stringify(o.words))
    .replaceAll('"counts"', JSON.stringify(o.counts));
  const out = JSON.parse(renamed) as Topology;
  return { ...out, application: { ...out.application, id: o.applicationId } };
}
