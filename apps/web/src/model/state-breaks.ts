// What a deploy does to the running application's state. Kafka Streams keys state by names: a
// store's name is its changelog topic's (`<application.id>-<store>-changelog`) and its directory;
// a repartition topic's name carries a generated number. A rename or an inserted node that
// renumbers the generated names leaves the old store and its changelog behind (the new one starts
// empty: counts restart from zero) and the records still waiting in an old repartition topic are
// never read. The designer shows this before deploying.
import {
  planTopology,
  validateTopology,
  type Plan,
  type TopologyDocument,
} from '@streamwright/topology-model';

export interface StateBreaks {
  /** Stores of the running version the new one does not have (their state is left behind). */
  droppedStores: { name: string; changelogTopic: string | null }[];
  /** Stores the new version starts empty. */
  newStores: { name: string; changelogTopic: string | null }[];
  /** Repartition topics the new version no longer reads (records waiting there are not read). */
  droppedRepartitions: string[];
}

function planOrNull(doc: TopologyDocument): Plan | null {
  const valid = validateTopology(doc);
  if (!valid.ok) return null;
  try {
    return planTopology(valid.topology);
  } catch {
    return null; // a planning conflict: the deploy's own validation reports it
  }
}

/** Null when nothing is lost (or either version cannot be planned: deploy reports why). */
export function stateBreaks(running: TopologyDocument, next: TopologyDocument): StateBreaks | null {
  const before = planOrNull(running);
  const after = planOrNull(next);
  if (!before || !after) return null;
  // another application.id is another application (its own group, topics and state): deploying
  // it replaces the running one on purpose, nothing of the old one is expected to carry over
  if (before.applicationId !== after.applicationId) return null;
  const store = (s: Plan['stores'][number]) => ({ name: s.name, changelogTopic: s.changelogTopic });
  const kept = new Set(after.stores.map((s) => s.name));
  const had = new Set(before.stores.map((s) => s.name));
  const droppedStores = before.stores.filter((s) => !s.global && !kept.has(s.name)).map(store);
  // a new store is only a loss when it takes over from a dropped one (a renamed or renumbered
  // store); a store added by a new aggregation starts empty as intended
  const newStores =
    droppedStores.length === 0
      ? []
      : after.stores.filter((s) => !s.global && !had.has(s.name)).map(store);
  const reads = new Set(
    after.internalTopics.filter((t) => t.kind === 'repartition').map((t) => t.name),
  );
  const droppedRepartitions = before.internalTopics
    .filter((t) => t.kind === 'repartition' && !reads.has(t.name))
    .map((t) => t.name);
  if (droppedStores.length === 0 && droppedRepartitions.length === 0) return null;
  return { droppedStores, newStores, droppedRepartitions };
}
