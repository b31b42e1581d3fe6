// First pass: the document's structure. Every zod issue is reported, and whatever parts are
// well-formed are kept ("salvaged") so the later passes can still report their own errors.
import type { z } from 'zod';
import { issueWords, valueAtPath } from '../issue-words.js';
import {
  SCHEMA_VERSION,
  applicationSchema,
  edgeSchema,
  layoutSchema,
  rawNodeSchema,
  storeSpecSchema,
  topicSchema,
  topologyDocumentSchema,
  type Edge,
  type Layout,
  type StoreSpec,
  type TopicSpec,
} from '../schema.js';
import { formatPath, type ValidationIssue } from './issues.js';

type RawNode = z.infer<typeof rawNodeSchema>;

export interface Indexed<T> {
  index: number;
  value: T;
}

export interface SalvagedDocument {
  application: z.infer<typeof applicationSchema> | null;
  topics: Indexed<TopicSpec>[];
  stores: Indexed<StoreSpec>[];
  nodes: Indexed<RawNode>[];
  edges: Indexed<Edge>[];
  layout: Layout | null;
  /** Ids of node entries that exist but are malformed: edges to them are not "dangling". */
  malformedNodeIds: Set<string>;
}

export function parseStructure(input: unknown, issues: ValidationIssue[]): SalvagedDocument | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    issues.push({
      path: '',
      code: 'invalid_schema',
      message: 'a topology document is a JSON object',
    });
    return null;
  }
  const raw = input as Record<string, unknown>;
  const version = raw.schemaVersion;
  if (typeof version === 'number' && Number.isInteger(version) && version > SCHEMA_VERSION) {
    issues.push({
      path: 'schemaVersion',
      code: 'unsupported_version',
      message: `schemaVersion ${version} is newer than this Streamwright understands (${SCHEMA_VERSION}); upgrade Streamwright to open it`,
    });
    return null;
  }

  const whole = topologyDocumentSchema.safeParse(input);
  if (whole.success) {
    const d = whole.data;
    return {
      application: d.application,
      topics: d.topics.map((value, index) => ({ index, value })),
      stores: d.stores.map((value, index) => ({ index, value })),
      nodes: d.nodes.map((value, index) => ({ index, value })),
      edges: d.edges.map((value, index) => ({ index, value })),
      layout: d.layout,
      malformedNodeIds: new Set(),
    };
  }

  for (const issue of whole.error.issues) issues.push(zodIssue(issue, [], raw));
  const malformedNodeIds = new Set<string>();
  const salvageList = <T>(key: string, schema: z.ZodType<T>): Indexed<T>[] => {
    const list = raw[key];
    if (!Array.isArray(list)) return [];
    const out: Indexed<T>[] = [];
    list.forEach((item, index) => {
      const parsed = schema.safeParse(item);
      if (parsed.success) out.push({ index, value: parsed.data });
      else if (key === 'nodes' && typeof (item as { id?: unknown } | null)?.id === 'string') {
        malformedNodeIds.add((item as { id: string }).id);
      }
    });
    return out;
  };
  const application = applicationSchema.safeParse(raw.application);
  const layout = layoutSchema.safeParse(raw.layout ?? {});
  return {
    application: application.success ? application.data : null,
    topics: salvageList('topics', topicSchema),
    stores: salvageList('stores', storeSpecSchema),
    nodes: salvageList('nodes', rawNodeSchema),
    edges: salvageList('edges', edgeSchema),
    layout: layout.success ? layout.data : null,
    malformedNodeIds,
  };
}

/** A zod issue as a validation issue; `prefix` is prepended to its path. */
export function zodIssue(
  issue: z.core.$ZodIssue,
  prefix: readonly PropertyKey[],
  document?: Record<string, unknown>,
  code: ValidationIssue['code'] = 'invalid_schema',
  /** What `issue.path` is relative to, when not the document (a node's config). */
  valueRoot?: unknown,
): ValidationIssue {
  const segments = [...prefix, ...issue.path];
  const lookup =
    valueRoot !== undefined
      ? () => valueAtPath(valueRoot, issue.path)
      : document
        ? () => valueAtPath(document, segments)
        : null;
  const result: ValidationIssue = {
    path: formatPath(segments),
    code,
    message: zodMessage(issue, lookup),
  };
  const nodeId = document ? nodeIdAt(document, segments) : undefined;
  if (nodeId !== undefined) result.nodeId = nodeId;
  return result;
}

function zodMessage(issue: z.core.$ZodIssue, lookup: (() => unknown) | null): string {
  const last = issue.path[issue.path.length - 1];
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
    return typeof last === 'string' ? `${last} is required` : 'a value is required';
  }
  if (issue.code === 'unrecognized_keys') {
    return `unknown ${issue.keys.length === 1 ? 'key' : 'keys'}: ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  // zod's stock words with the value given and the field named ("graceMs must be ≥ 0, got -1")
  if (lookup === null) return issue.message;
  return issueWords(issue, lookup(), typeof last === 'string' ? last : undefined);
}

function nodeIdAt(
  document: Record<string, unknown>,
  segments: readonly PropertyKey[],
): string | undefined {
  if (segments[0] !== 'nodes' || typeof segments[1] !== 'number') return undefined;
  const nodes = document.nodes;
  if (!Array.isArray(nodes)) return undefined;
  const id = (nodes[segments[1]] as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}
