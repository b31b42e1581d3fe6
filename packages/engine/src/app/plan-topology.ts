import * as model from '@streamwright/topology-model';
import type { Plan, Topology } from '@streamwright/topology-model';

/** topology → plan, through topology-model's planner (the single owner of node names). */
export function planOf(topology: Topology): Plan {
  const planTopology = (model as { planTopology?: (t: Topology) => Plan }).planTopology;
  if (typeof planTopology !== 'function') throw new Error('@streamwright/topology-model does not export planTopology yet');
  return planTopology(topology);
}
