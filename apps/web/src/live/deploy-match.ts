// Whether the design on the canvas is what the runtime runs, node by node. The live counters
// come from the deployed topology; painting them on a canvas that only shares its application
// id (a New design keeps `my-streams-app`) or on a node edited since the deploy would show
// numbers that belong to something else. The comparison ignores the layout: moving a node does
// not change what runs.
import { exportTopology, type TopologyDocument } from '@streamwright/topology-model';

export type DeployMatchState =
  /** Nothing is deployed (or the runtime has not said what yet). */
  | 'none'
  /** The canvas is the deployed topology. */
  | 'same'
  /** The canvas is the deployed design, edited since: unchanged nodes are live. */
  | 'modified'
  /** The canvas is another design than the one deployed: nothing on it is live. */
  | 'other';

export interface DeployMatch {
  state: DeployMatchState;
  /** Canvas nodes that run as drawn: the live counters are theirs. */
  live: ReadonlySet<string>;
  /** Canvas nodes the deployment runs otherwise (edited since); only when 'modified'. */
  changed: ReadonlySet<string>;
  /** Canvas nodes the deployment does not have (added since); only when 'modified'. */
  added: ReadonlySet<string>;
  /** How many deployed nodes are no longer on the canvas. */
  removed: number;
}

export const NO_MATCH: DeployMatch = {
  state: 'none',
  live: new Set(),
  changed: new Set(),
  added: new Set(),
  removed: 0,
};

type Canonical = Omit<TopologyDocument, 'layout'>;

/** The document as the runtime keeps it (defaults filled, keys ordered), without its layout. */
function canonical(doc: TopologyDocument): Canonical | null {
  try {
    const { layout: _layout, ...rest } = JSON.parse(exportTopology(doc)) as TopologyDocument;
    return rest;
  } catch {
    return null; // a document that does not parse structurally runs nowhere
  }
}

/** Each node's definition and the edges into it: equal keys run the same way. */
function nodeKeys(doc: Canonical): Map<string, string> {
  const incoming = new Map<string, string[]>();
  for (const e of doc.edges) {
    const list = incoming.get(e.to) ?? [];
    list.push(JSON.stringify([e.from, e.fromPort, e.toPort]));
    incoming.set(e.to, list);
  }
  return new Map(
    doc.nodes.map((n) => [
      n.id,
      JSON.stringify([n.kind, n.name ?? null, n.config, (incoming.get(n.id) ?? []).sort()]),
    ]),
  );
}

/**
 * Matches the canvas against the deployed document. `descends` says whether the canvas comes
 * from that deployment (opened from it or deployed from it, then edited): only then do its
 * unchanged nodes keep their counters while others differ. A canvas equal to the deployment
 * matches whatever its history.
 */
export function matchDeployment(
  doc: TopologyDocument,
  deployed: TopologyDocument | null,
  descends: boolean,
): DeployMatch {
  if (deployed === null) return NO_MATCH;
  const mine = canonical(doc);
  const theirs = canonical(deployed);
  if (mine === null || theirs === null)
    return { state: 'other', live: new Set(), changed: new Set(), added: new Set(), removed: 0 };
  if (JSON.stringify(mine) === JSON.stringify(theirs)) {
    return {
      state: 'same',
      live: new Set(mine.nodes.map((n) => n.id)),
      changed: new Set(),
      added: new Set(),
      removed: 0,
    };
  }
  if (!descends || mine.application.id !== theirs.application.id)
    return { state: 'other', live: new Set(), changed: new Set(), added: new Set(), removed: 0 };
  const ours = nodeKeys(mine);
  const running = nodeKeys(theirs);
  const live = new Set<string>();
  const changed = new Set<string>();
  const added = new Set<string>();
  for (const [id, key] of ours) {
    const theirsKey = running.get(id);
    (theirsKey === undefined ? added : theirsKey === key ? live : changed).add(id);
  }
  const removed = [...running.keys()].filter((id) => !ours.has(id)).length;
  return { state: 'modified', live, changed, added, removed };
}

/** What a canvas node shows of the live view. */
export type NodeLiveState =
  /** Counters of the running app, current. */
  | 'live'
  /** Its counters as they were when the runtime went offline. */
  | 'stale'
  /** Edited since the deploy: the running app runs it otherwise. */
  | 'changed'
  /** Added since the deploy: not running. */
  | 'added'
  /** Nothing of the live view (nothing deployed, or the canvas is another design). */
  | null;

export function nodeLiveState(
  match: DeployMatch,
  id: string,
  connection: 'connecting' | 'open' | 'closed',
): NodeLiveState {
  if (match.live.has(id)) return connection === 'closed' ? 'stale' : 'live';
  if (match.changed.has(id)) return 'changed';
  if (match.added.has(id)) return 'added';
  return null;
}
