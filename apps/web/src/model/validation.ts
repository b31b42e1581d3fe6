// Local validation of the document being edited: topology-model's validateTopology, memoized on
// the logic sections only (layout changes never re-validate), with each issue mapped to the node
// and config field it is about so the inspector can show it inline.
import { validateTopology, type TopologyDocument } from '@streamwright/topology-model';

export interface Problem {
  path: string;
  nodeId?: string;
  code: string;
  message: string;
  /** For expression errors: where in the source (1-based line/column). */
  position?: { line: number; column: number; offset?: number };
  /** How to fix it, when validation knows the usual way. */
  fix?: string;
}

export interface ValidationView {
  problems: readonly Problem[];
  byNode: ReadonlyMap<string, readonly Problem[]>;
}

/**
 * Path segments of topology-model's paths: `nodes[2].config.expression` →
 * ["nodes", "2", "config", "expression"]; quoted keys (`config["commit.interval.ms"]`) stay whole.
 */
export function pathSegments(path: string): string[] {
  const segments: string[] = [];
  const token = /([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/gy;
  let at = 0;
  while (at < path.length) {
    if (path[at] === '.' || path[at] === '/') {
      at++;
      continue;
    }
    token.lastIndex = at;
    const m = token.exec(path);
    if (!m) return path.split(/[.[\]/]+/).filter((s) => s !== ''); // not our format: best effort
    segments.push(m[1] ?? m[2] ?? (JSON.parse(m[3]!) as string));
    at = token.lastIndex;
  }
  return segments;
}

/**
 * The node field an issue is about: a config key (`config.topic` → "topic"), or "id" / "name" /
 * "kind"; null when it is about the node as a whole (e.g. its inputs).
 */
export function fieldOfPath(path: string): string | null {
  const segments = pathSegments(path);
  const nodesAt = segments.indexOf('nodes');
  if (nodesAt < 0) return null;
  const rest = segments.slice(nodesAt + 2);
  if (rest[0] === 'config') return rest[1] ?? 'config';
  if (rest[0] === 'id' || rest[0] === 'name' || rest[0] === 'kind') return rest[0];
  return null;
}

/** The node an issue is about, from its nodeId or else from a `nodes[i]` path. */
function nodeIdOf(issue: Problem, doc: TopologyDocument): string | undefined {
  if (issue.nodeId) return issue.nodeId;
  const segments = pathSegments(issue.path);
  const at = segments.indexOf('nodes');
  if (at < 0 || at !== 0) return undefined;
  const index = Number(segments[at + 1]);
  return Number.isInteger(index) ? doc.nodes[index]?.id : undefined;
}

export function toValidationView(
  doc: TopologyDocument,
  issues: readonly Problem[],
): ValidationView {
  const byNode = new Map<string, Problem[]>();
  const problems = issues.map((issue) => {
    const nodeId = nodeIdOf(issue, doc);
    const problem: Problem = nodeId ? { ...issue, nodeId } : { ...issue };
    if (nodeId) {
      const list = byNode.get(nodeId) ?? [];
      list.push(problem);
      byNode.set(nodeId, list);
    }
    return problem;
  });
  return { problems, byNode };
}

const EMPTY: ValidationView = { problems: [], byNode: new Map() };

let last: { key: readonly unknown[]; view: ValidationView } | null = null;

/**
 * Validates `doc`, reusing the previous result while its logic sections (and the runtime's
 * topics) are unchanged. `existingTopics`: partition counts of the topics the runtime has, which
 * deploy keeps whatever is declared (co-partitioning is judged with them, as deploy judges it).
 */
export function validationOf(
  doc: TopologyDocument,
  existingTopics?: Readonly<Record<string, number>> | null,
): ValidationView {
  const key = [
    doc.application,
    doc.topics,
    doc.nodes,
    doc.edges,
    doc.schemaVersion,
    existingTopics ?? null,
  ] as const;
  if (last && last.key.every((part, i) => part === key[i])) return last.view;
  const result = validateTopology(doc, existingTopics ? { existingTopics } : {});
  const view = result.ok ? EMPTY : toValidationView(doc, result.errors);
  last = { key, view };
  return view;
}

/**
 * The application field an issue is about: "id", a config key such as "commit.interval.ms"
 * (paths quote dotted keys: `application.config["commit.interval.ms"]`), or "config".
 */
export function fieldOfAppPath(path: string): string | null {
  if (path === 'application.id') return 'id';
  if (path === 'application.config') return 'config';
  const quoted = /^application\.config\[("(?:[^"\\]|\\.)*")\]$/.exec(path);
  if (quoted) return JSON.parse(quoted[1]!) as string;
  const plain = /^application\.config\.([A-Za-z_$][\w$]*)$/.exec(path);
  return plain ? plain[1]! : null;
}
