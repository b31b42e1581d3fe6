// validateTopology: every error in one pass, each with its JSON path and node id.
//   1. structure (zod), salvaging well-formed parts      structure.ts
//   2. topics, stores and nodes: kinds, configs, logic   nodes.ts
//   3. edges: endpoints, ports, flow types, inputs, cycles  edges.ts
//   4. planning conflicts Kafka Streams would reject (duplicate names / stores), only once 1–3 pass
//   5. what would fail at start or on the first record, once 1–4 pass: co-partitioning with the
//      declared or existing partition counts, topic names clashing with internal topics
//      (partitions.ts), key/value types along the edges against expressions and serdes
//      (record-types.ts)
import { buildPlan } from '../plan/plan.js';
import type { Topology } from '../schema.js';
import { checkEdges } from './edges.js';
import type { ValidateOptions, ValidationIssue, ValidationResult } from './issues.js';
import { checkNodes, checkStores, checkTopics } from './nodes.js';
import { parseStructure } from './structure.js';
import { configIssues } from './app-config.js';
import { checkPartitions } from './partitions.js';
import { checkRecordTypes } from './record-types.js';

/**
 * @param options registries known here (function and processor names); references outside them
 *   are errors. Without them only the reference syntax is checked.
 */
export function validateTopology(input: unknown, options: ValidateOptions = {}): ValidationResult {
  const issues: ValidationIssue[] = [];
  const doc = parseStructure(input, issues);
  if (!doc) return { ok: false, errors: issues };
  const warnings = doc.application ? configIssues(doc.application.config, issues) : [];
  const declared = checkTopics(doc, issues);
  const stores = checkStores(doc, issues);
  const nodes = checkNodes(doc, declared, stores, issues, options);
  checkEdges(doc.edges, nodes, issues);
  if (issues.length > 0 || !doc.application || !doc.layout) return { ok: false, errors: issues };

  const topology: Topology = {
    schemaVersion: 1,
    application: doc.application,
    topics: doc.topics.map((t) => t.value),
    stores: doc.stores.map((s) => s.value),
    nodes: doc.nodes.map(
      (n) => (nodes.valid.get(n.value.id) as { node: Topology['nodes'][number] }).node,
    ),
    edges: doc.edges.map((e) => e.value),
    layout: doc.layout,
  };
  const { plan, conflicts, copartitionOwners } = buildPlan(topology);
  for (const conflict of conflicts) {
    const index = topology.nodes.findIndex((n) => n.id === conflict.nodeId);
    const field =
      conflict.code === 'duplicate_store'
        ? 'config.store'
        : conflict.code === 'retention_too_small'
          ? 'config.retentionMs'
          : conflict.code === 'grace_needs_versioned_table'
            ? 'config.gracePeriodMs'
            : conflict.code === 'suppress_of_versioned_table'
              ? ''
              : 'name';
    const issue: ValidationIssue = {
      path: index < 0 ? 'nodes' : field === '' ? `nodes[${index}]` : `nodes[${index}].${field}`,
      code: conflict.code,
      message: conflict.message,
    };
    if (conflict.nodeId !== undefined) issue.nodeId = conflict.nodeId;
    issues.push(issue);
  }
  if (issues.length > 0) return { ok: false, errors: issues };
  checkPartitions(topology, plan, copartitionOwners, options.existingTopics ?? {}, issues);
  checkRecordTypes(topology, issues);
  if (issues.length > 0) return { ok: false, errors: issues };
  return warnings.length > 0 ? { ok: true, topology, warnings } : { ok: true, topology };
}
