// The shape of validation results and the stable issue codes the UI and CLI switch on.
import type { SourcePosition } from '../expressions/errors.js';
import type { Topology } from '../schema.js';

export const ISSUE_CODES = [
  /** The document does not have the structure of schema v1 (wrong types, missing sections). */
  'invalid_schema',
  /** schemaVersion is newer than this build understands, or no migration path exists. */
  'unsupported_version',
  /** The text is not JSON. */
  'invalid_json',
  'unknown_kind',
  'invalid_config',
  'duplicate_node_id',
  'duplicate_topic',
  /** Two nodes plan to the same Kafka Streams node name. */
  'duplicate_name',
  /** Two counts materialize the same store name. */
  'duplicate_store',
  /** A topic read by two sources (Kafka Streams: "Topic has already been registered by another source"). */
  'duplicate_source_topic',
  'unknown_topic',
  'dangling_edge',
  'duplicate_edge',
  'bad_port',
  'sink_has_outputs',
  'wrong_input_count',
  'count_without_grouping',
  'flow_type_mismatch',
  'cycle',
  'dangling_layout',
  'expression_syntax',
  'expression_type',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

export interface ValidationIssue {
  /** Where, JSON-pointer-ish: `nodes[2].config.expression`, `edges[0].to`, `application.id`. */
  path: string;
  nodeId?: string;
  code: IssueCode;
  message: string;
  /** For expression errors: where in the expression. */
  position?: SourcePosition;
}

export type ValidationResult =
  { ok: true; topology: Topology } | { ok: false; errors: ValidationIssue[] };

/** `['nodes', 2, 'config', 'commit.interval.ms']` → `nodes[2].config["commit.interval.ms"]`. */
export function formatPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s))
      out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}
