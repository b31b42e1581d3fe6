// Second pass: each node on its own — kind, config, logic, topics — plus the topic list and the
// document's stores.
import { z } from 'zod';
import { checkExpression } from '../expressions/compile.js';
import { logicValuesOf, topicFields } from '../expression-fields.js';
import { isNodeKind, splitPorts } from '../graph.js';
import {
  isFunctionRef,
  nodeKindNames,
  nodeKinds,
  type NodeKind,
  type TopologyNode,
} from '../schema.js';
import { formatPath, type ValidateOptions, type ValidationIssue } from './issues.js';
import {
  checkPatternOverlaps,
  checkSourceTopicChoice,
  checkTimestampExtractor,
} from './sources.js';
import { zodIssue, type SalvagedDocument } from './structure.js';

export interface CheckedNodes {
  /** Every node id present, well-formed or not: edges to them are not dangling. */
  ids: Set<string>;
  /**
   * Nodes of a known kind, valid config or not (first of duplicated ids): for graph checks. The
   * config is the parsed one when valid (ports of split and cogroup come from it).
   */
  kinds: Map<string, { index: number; kind: NodeKind; config: Record<string, unknown> }>;
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

/** The document's `stores`: unique names. Returns the names declared. */
export function checkStores(doc: SalvagedDocument, issues: ValidationIssue[]): Set<string> {
  const names = new Set<string>();
  for (const { index, value } of doc.stores) {
    if (names.has(value.name)) {
      issues.push({
        path: `stores[${index}].name`,
        code: 'duplicate_store',
        message: `store "${value.name}" is declared more than once`,
      });
    }
    names.add(value.name);
  }
  return names;
}

export function checkNodes(
  doc: SalvagedDocument,
  declaredTopics: Set<string>,
  declaredStores: Set<string>,
  issues: ValidationIssue[],
  options: ValidateOptions = {},
): CheckedNodes {
  const seenIds = new Set<string>();
  const checked: CheckedNodes = {
    ids: new Set(doc.malformedNodeIds),
    kinds: new Map(),
    valid: new Map(),
  };
  const readers = new Map<string, string>();
  const patterns: Parameters<typeof checkPatternOverlaps>[0] = [];
  const functions = options.functions ? new Set(options.functions) : null;
  const processors = options.processors ? new Set(options.processors) : null;
  const transformers = options.valueTransformers ? new Set(options.valueTransformers) : null;
  const partitioners = options.partitioners ? new Set(options.partitioners) : null;
  // Stores a process node may connect to: the document's and those DSL nodes materialize by
  // name. Global stores are readable everywhere and Kafka Streams refuses to connect them.
  const knownStores = new Set(declaredStores);
  const globalStores = new Set<string>();
  for (const { value } of doc.nodes) {
    const store = (value.config as { store?: unknown }).store;
    if (typeof store !== 'string') continue;
    if (value.kind === 'globalTable') globalStores.add(store);
    else knownStores.add(store);
  }

  for (const { index, value: raw } of doc.nodes) {
    const at = (...rest: PropertyKey[]): string => formatPath(['nodes', index, ...rest]);
    const issue = (rest: PropertyKey[], code: ValidationIssue['code'], message: string): void => {
      issues.push({ path: at(...rest), nodeId: raw.id, code, message });
    };
    const before = issues.length;
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
    const schema = nodeKinds[raw.kind].config;
    // Unknown config keys are errors (usually typos) rather than silently dropped.
    const strict = schema instanceof z.ZodObject ? schema.strict() : schema;
    const parsed = strict.safeParse(raw.config);
    if (!parsed.success) {
      for (let zi of parsed.error.issues) {
        // InternalStreamsBuilder#globalTable refuses a versioned supplier with its own message.
        if (
          raw.kind === 'globalTable' &&
          zi.code === 'unrecognized_keys' &&
          zi.keys.includes('versioned')
        ) {
          issue(
            ['config', 'versioned'],
            'invalid_config',
            'Invalid topology: GlobalTables cannot be versioned.',
          );
          const keys = zi.keys.filter((k) => k !== 'versioned');
          if (keys.length === 0) continue;
          zi = { ...zi, keys };
        }
        issues.push({
          ...zodIssue(zi, ['nodes', index, 'config'], undefined, 'invalid_schema', raw.config),
          nodeId: raw.id,
          code: 'invalid_config',
        });
      }
    }
    const config = (parsed.success ? parsed.data : raw.config) as Record<string, unknown>;
    if (!duplicate) checked.kinds.set(raw.id, { index, kind: raw.kind, config });

    for (const { path, context, value } of logicValuesOf(raw.kind, config)) {
      if (isFunctionRef(value)) {
        if (functions && !functions.has(value.function)) {
          issue(
            ['config', ...path, 'function'],
            'unknown_function',
            `no function "${value.function}" is registered`,
          );
        }
        continue;
      }
      if (typeof value !== 'string' || value.length === 0) continue; // reported by the schema
      const result = checkExpression(value, context);
      if (!result.ok) {
        issues.push({
          path: at('config', ...path),
          nodeId: raw.id,
          code: result.kind === 'syntax' ? 'expression_syntax' : 'expression_type',
          message: result.message,
          position: result.position,
        });
      }
    }
    for (const fieldName of ['action'] as const) {
      const ref = config[fieldName];
      if (functions && isFunctionRef(ref) && !functions.has(ref.function))
        issue(
          ['config', fieldName, 'function'],
          'unknown_function',
          `no function "${ref.function}" is registered`,
        );
    }

    if (parsed.success)
      kindRules(
        raw.kind,
        config,
        { knownStores, globalStores, processors, transformers, partitioners },
        issue,
      );

    const useTopic = (topic: string, rest: PropertyKey[], reads: boolean): void => {
      if (!declaredTopics.has(topic))
        issue(rest, 'unknown_topic', `topic "${topic}" is not declared in topics`);
      if (!reads) return;
      const other = readers.get(topic);
      if (other === raw.id) {
        issue(rest, 'duplicate_source_topic', `topic "${topic}" is listed twice`);
      } else if (other !== undefined) {
        issue(
          rest,
          'duplicate_source_topic',
          `topic "${topic}" is already read by node "${other}"; Kafka Streams allows one source per topic`,
        );
      } else readers.set(topic, raw.id);
    };
    const topicField = topicFields[raw.kind];
    const topic = topicField ? config[topicField.field] : undefined;
    if (topicField && typeof topic === 'string')
      useTopic(topic, ['config', topicField.field], topicField.reads);
    if (raw.kind === 'source') {
      if (Array.isArray(config.topics))
        config.topics.forEach((t, i) => {
          if (typeof t === 'string') useTopic(t, ['config', 'topics', i], true);
        });
      if (typeof config.topicPattern === 'string')
        patterns.push({ nodeId: raw.id, pattern: config.topicPattern, issue });
    }
    if (raw.kind === 'source' || raw.kind === 'table')
      checkTimestampExtractor(config, (found, rest) =>
        issues.push({ ...found, path: at(...rest), nodeId: raw.id }),
      );

    const nodeOk = issues
      .slice(before)
      .every((i) => i.code === 'unknown_topic' || i.code === 'duplicate_source_topic');
    if (parsed.success && nodeOk && !duplicate) {
      const node = { id: raw.id, kind: raw.kind, config: parsed.data } as TopologyNode;
      if (raw.name !== undefined) node.name = raw.name;
      checked.valid.set(raw.id, { index, node });
    }
  }

  checkPatternOverlaps(patterns, declaredTopics, readers);

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

/** Rules across fields of one config, which the per-field schema cannot express. */
function kindRules(
  kind: NodeKind,
  config: Record<string, unknown>,
  known: {
    knownStores: Set<string>;
    globalStores: Set<string>;
    processors: Set<string> | null;
    transformers: Set<string> | null;
    partitioners: Set<string> | null;
  },
  issue: (rest: PropertyKey[], code: ValidationIssue['code'], message: string) => void,
): void {
  const { knownStores, globalStores, processors, transformers, partitioners } = known;
  switch (kind) {
    case 'foreignKeyJoin':
      for (const field of ['partitioner', 'otherPartitioner']) {
        const name = config[field];
        if (typeof name === 'string' && partitioners && !partitioners.has(name))
          issue(['config', field], 'unknown_partitioner', `no partitioner "${name}" is registered`);
      }
      break;
    case 'source':
      checkSourceTopicChoice(config, issue);
      break;
    case 'sink': {
      const hasTopic = config.topic !== undefined;
      const hasExtractor = config.topicExtractor !== undefined;
      if (hasTopic === hasExtractor) {
        issue(
          ['config', hasTopic ? 'topicExtractor' : 'topic'],
          'invalid_config',
          hasTopic
            ? 'a sink writes to a fixed topic or through a topic extractor, not both'
            : 'a sink needs a topic or a topicExtractor',
        );
      }
      break;
    }
    case 'split': {
      const seen = new Set<string>();
      splitPorts(config).forEach(({ port, index }, i) => {
        if (seen.has(port)) {
          const where = index === 0 ? ['defaultBranch', 'name'] : ['branches', i, 'name'];
          issue(
            ['config', ...where],
            'invalid_config',
            `two branches are named "${port}" (an unnamed branch is named after its 1-based position, the default branch "0")`,
          );
        }
        seen.add(port);
      });
      break;
    }
    case 'cogroup': {
      const seen = new Set<string>();
      (config.inputs as { port: string }[]).forEach(({ port }, i) => {
        if (seen.has(port))
          issue(
            ['config', 'inputs', i, 'port'],
            'invalid_config',
            `input port "${port}" is declared twice`,
          );
        seen.add(port);
      });
      break;
    }
    case 'process':
    case 'processValues':
    case 'transformValues': {
      if (kind === 'transformValues') {
        const name = config.transformer as string;
        if (transformers && !transformers.has(name))
          issue(
            ['config', 'transformer'],
            'unknown_transformer',
            `no value transformer "${name}" is registered`,
          );
      } else {
        const name = config.processor as string;
        if (processors && !processors.has(name))
          issue(
            ['config', 'processor'],
            'unknown_processor',
            `no processor "${name}" is registered`,
          );
      }
      (config.stores as string[]).forEach((store, i) => {
        if (globalStores.has(store)) {
          issue(
            ['config', 'stores', i],
            'invalid_config',
            `store "${store}" is a global store: every processor can read it without connecting it (Kafka Streams refuses to connect it)`,
          );
        } else if (!knownStores.has(store)) {
          issue(
            ['config', 'stores', i],
            'unknown_store',
            `store "${store}" is neither declared in stores nor materialized by name by a node`,
          );
        }
      });
      break;
    }
    default:
      break;
  }
}
