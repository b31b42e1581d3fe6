// Second pass: each node on its own — kind, config, expressions, topics — and the topic list.
import { z } from 'zod';
import { checkExpression } from '../expressions/compile.js';
import { expressionFields, topicFields } from '../expression-fields.js';
import { isNodeKind } from '../graph.js';
import { nodeKindNames, nodeKinds, type NodeKind, type TopologyNode } from '../schema.js';
import { formatPath, type ValidationIssue } from './issues.js';
import { zodIssue, type SalvagedDocument } from './structure.js';

export interface CheckedNodes {
  /** Every node id present, well-formed or not: edges to them are not dangling. */
  ids: Set<string>;
  /** Nodes of a known kind, valid config or not (first of duplicated ids): for graph checks. */
  kinds: Map<string, { index: number; kind: NodeKind }>;
  /** Nodes whose kind, config and expressions are all valid. */
  valid: Map<string, { index: number; node: TopologyNode }>;
}

export function checkTopics(doc: SalvagedDocument, issues: ValidationIssue[]): Set<string> {
  const names = new Set<string>();
  for (const { index, value } of doc.topics) {
    if (names.has(value.name)) {
      issues.push({
        path: `topics[${index}].name`,
        code: 'duplicate_topic',
        message: `topic "${value.name}" is declared more than once`,
      });
    }
    names.add(value.name);
  }
  return names;
}

export function checkNodes(
  doc: SalvagedDocument,
  declaredTopics: Set<string>,
  issues: ValidationIssue[],
): CheckedNodes {
  const seenIds = new Set<string>();
  const checked: CheckedNodes = {
    ids: new Set(doc.malformedNodeIds),
    kinds: new Map(),
    valid: new Map(),
  };
  const readers = new Map<string, string>();
  for (const { index, value: raw } of doc.nodes) {
    const at = (...rest: PropertyKey[]): string => formatPath(['nodes', index, ...rest]);
    const issue = (rest: PropertyKey[], code: ValidationIssue['code'], message: string): void => {
      issues.push({ path: at(...rest), nodeId: raw.id, code, message });
    };
    if (seenIds.has(raw.id))
      issue(['id'], 'duplicate_node_id', `node id "${raw.id}" is used more than once`);
    const duplicate = seenIds.has(raw.id);
    seenIds.add(raw.id);
    checked.ids.add(raw.id);

    if (!isNodeKind(raw.kind)) {
      issue(
        ['kind'],
        'unknown_kind',
        `unknown node kind "${raw.kind}"; known kinds: ${nodeKindNames.join(', ')}`,
      );
      continue;
    }
    if (!duplicate) checked.kinds.set(raw.id, { index, kind: raw.kind });
    const schema = nodeKinds[raw.kind].config;
    // Unknown config keys are errors (usually typos) rather than silently dropped.
    const strict = schema instanceof z.ZodObject ? schema.strict() : schema;
    const parsed = strict.safeParse(raw.config);
    if (!parsed.success) {
      for (const zi of parsed.error.issues) {
        issues.push({
          ...zodIssue(zi, ['nodes', index, 'config']),
          nodeId: raw.id,
          code: 'invalid_config',
        });
      }
    }
    const config = (parsed.success ? parsed.data : raw.config) as Record<string, unknown>;

    let expressionsOk = true;
    for (const { field, context } of expressionFields[raw.kind] ?? []) {
      const source = config[field];
      if (typeof source !== 'string' || source.length === 0) continue; // reported by the schema
      const result = checkExpression(source, context);
      if (!result.ok) {
        expressionsOk = false;
        issues.push({
          path: at('config', field),
          nodeId: raw.id,
          code: result.kind === 'syntax' ? 'expression_syntax' : 'expression_type',
          message: result.message,
          position: result.position,
        });
      }
    }

    const topicField = topicFields[raw.kind];
    const topic = topicField ? config[topicField.field] : undefined;
    if (topicField && typeof topic === 'string') {
      if (!declaredTopics.has(topic)) {
        issue(
          ['config', topicField.field],
          'unknown_topic',
          `topic "${topic}" is not declared in topics`,
        );
      }
      if (topicField.reads) {
        const other = readers.get(topic);
        if (other !== undefined) {
          issue(
            ['config', topicField.field],
            'duplicate_source_topic',
            `topic "${topic}" is already read by node "${other}"; Kafka Streams allows one source per topic`,
          );
        } else readers.set(topic, raw.id);
      }
    }

    if (parsed.success && expressionsOk && !duplicate) {
      const node = { id: raw.id, kind: raw.kind, config: parsed.data } as TopologyNode;
      if (raw.name !== undefined) node.name = raw.name;
      checked.valid.set(raw.id, { index, node });
    }
  }

  if (doc.layout) {
    for (const id of Object.keys(doc.layout.nodes)) {
      if (!checked.ids.has(id)) {
        issues.push({
          path: formatPath(['layout', 'nodes', id]),
          code: 'dangling_layout',
          message: `layout has a position for "${id}", which is not a node`,
        });
      }
    }
  }
  return checked;
}
