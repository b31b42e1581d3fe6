// The failover test's application: words (1 partition) → groupByKey → count (a persistent store
// with a changelog) → counts, with one standby replica, under its own application id and topics.
import type { Topology } from '@streamwright/topology-model';
import { countPipeline } from '../fixtures/topologies.js';

export const STANDBY_APP_ID = 'standby-failover-app';
export const STANDBY_WORDS = 'standby-words';
export const STANDBY_COUNTS = 'standby-counts';

export function standbyTopology(standbys: number): Topology {
  const t = countPipeline(
    {
      'num.standby.replicas': standbys,
      'commit.interval.ms': 500,
      'session.timeout.ms': 6_000,
      'heartbeat.interval.ms': 1_000,
    },
    1,
  );
  // The fixture's topic names, replaced wherever they appear as values (sources, sinks, topics).
  const renamed = JSON.stringify(t)
    .replaceAll('"words"', JSON.stringify(STANDBY_WORDS))
    .replaceAll('"counts"', JSON.stringify(STANDBY_COUNTS));
  const out = JSON.parse(renamed) as Topology;
  return { ...out, application: { ...out.application, id: STANDBY_APP_ID } };
}
