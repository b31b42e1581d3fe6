// The application the group test runs as several instances: words (4 partitions) → groupByKey →
// count → counts, every count update written (no record cache).
import { countPipeline } from '../fixtures/topologies.js';

export const GROUP_APP_ID = 'count-app';

export function groupTopology() {
  const topology = countPipeline({}, 4);
  if (topology.application.id !== GROUP_APP_ID) throw new Error('unexpected application id');
  return topology;
}
