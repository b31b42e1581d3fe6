import { planTopology, type Plan, type Topology } from '@streamwright/topology-model';

/** topology → plan, through topology-model's planner (the single owner of node names). */
export function planOf(topology: Topology): Plan {
  return planTopology(topology);
}
