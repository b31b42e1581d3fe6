// The failover test's application: words (1 partition) → groupByKey → count (a persistent store
// with a changelog) → counts, with one standby replica, under its own application id and topics.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * Gives the instance on `stateDir` the process id `processId` (Kafka Streams keeps it in
 * `<state.dir>/<application.id>/kafka-streams-process-metadata`; the engine reads it from there).
 * The assignor orders instances by process id (Java's UUID#compareTo: signed most significant
 * bits), and its round robin over them decides where an active starts out, so a run that must
 * always take the same path pins them.
 */
export function pinProcessId(stateDir: string, processId: string): string {
  mkdirSync(join(stateDir, STANDBY_APP_ID), { recursive: true });
  writeFileSync(
    join(stateDir, STANDBY_APP_ID, 'kafka-streams-process-metadata'),
    JSON.stringify({ processId }) + '\n',
  );
  return stateDir;
}
