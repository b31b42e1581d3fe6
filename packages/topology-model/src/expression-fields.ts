// Which config fields of which kinds hold logic (CEL or a function reference), and in which
// context their CEL is compiled. Validation checks them; the engine compiles them; the designer
// highlights them. Fields inside lists (split branches, cogroup inputs) are addressed by a path.
import type { ExpressionContext } from './expressions/environment.js';
import type { NodeKind } from './schema.js';

export interface ExpressionField {
  /** The config key; for list entries the list's key (see `each`). */
  field: string;
  context: ExpressionContext;
  /** Optional fields may be absent (a generator without `key` writes null keys). */
  optional: boolean;
  /** For lists of entries: the key of the logic inside each entry (`branches[i].predicate`). */
  each?: string;
  /** Only CEL text, never a function reference (generators run in the runtime, not a DSL program). */
  celOnly?: boolean;
}

const main = (context: ExpressionContext): readonly ExpressionField[] => [
  { field: 'expression', context, optional: false },
];

/** No logic in the config (a custom processor's logic is the registered code). */
const none: readonly ExpressionField[] = [];

/**
 * One entry per kind (a new kind fails typecheck here until it says which of its fields hold
 * logic; docs/ARCHITECTURE.md, "How to add a node kind").
 */
export const expressionFields: Record<NodeKind, readonly ExpressionField[]> = {
  generator: [
    { field: 'key', context: 'generatorKey', optional: true, celOnly: true },
    { field: 'value', context: 'generatorValue', optional: false, celOnly: true },
  ],
  filter: main('filter'),
  filterNot: main('filter'),
  mapValues: main('mapValues'),
  map: main('keyValue'),
  selectKey: main('selectKey'),
  flatMap: main('flatMap'),
  flatMapValues: main('flatMapValues'),
  print: [{ field: 'mapper', context: 'print', optional: true }],
  split: [{ field: 'branches', each: 'predicate', context: 'filter', optional: false }],
  sink: [{ field: 'topicExtractor', context: 'topicExtractor', optional: true }],
  groupBy: main('selectKey'),
  reduce: main('reducer'),
  aggregate: [
    { field: 'initializer', context: 'initializer', optional: false },
    { field: 'aggregator', context: 'aggregator', optional: false },
  ],
  windowedReduce: main('reducer'),
  windowedAggregate: [
    { field: 'initializer', context: 'initializer', optional: false },
    { field: 'aggregator', context: 'aggregator', optional: false },
    { field: 'merger', context: 'aggregator', optional: true },
  ],
  streamStreamJoin: [{ field: 'joiner', context: 'joiner', optional: false }],
  streamTableJoin: [{ field: 'joiner', context: 'joiner', optional: false }],
  streamGlobalTableJoin: [
    { field: 'keySelector', context: 'selectKey', optional: false },
    { field: 'joiner', context: 'joiner', optional: false },
  ],
  tableTableJoin: [{ field: 'joiner', context: 'joiner', optional: false }],
  foreignKeyJoin: [
    { field: 'foreignKeyExtractor', context: 'selectKey', optional: false },
    { field: 'joiner', context: 'joiner', optional: false },
  ],
  cogroup: [
    { field: 'initializer', context: 'initializer', optional: false },
    { field: 'inputs', each: 'aggregator', context: 'aggregator', optional: false },
    { field: 'merger', context: 'aggregator', optional: true },
  ],
  tableFilter: main('filter'),
  tableFilterNot: main('filter'),
  tableMapValues: main('mapValues'),
  tableGroupBy: main('keyValue'),
  tableReduce: [
    { field: 'adder', context: 'reducer', optional: false },
    { field: 'subtractor', context: 'reducer', optional: false },
  ],
  tableAggregate: [
    { field: 'initializer', context: 'initializer', optional: false },
    { field: 'adder', context: 'aggregator', optional: false },
    { field: 'subtractor', context: 'aggregator', optional: false },
  ],
  source: none,
  table: none,
  globalTable: none,
  peek: none,
  merge: none,
  repartition: none,
  transformValues: none,
  toStream: none,
  groupByKey: none,
  count: none,
  toTable: none,
  tableCount: none,
  process: none,
  processValues: none,
  foreach: none,
  windowedBy: none,
  windowedCount: none,
  suppress: none,
};

/** A logic value found in a config, with its path below `config`. */
export interface LogicAt {
  path: (string | number)[];
  context: ExpressionContext;
  value: unknown;
}

/** Every logic value present in a node's config (absent optional ones are skipped). */
export function logicValuesOf(kind: NodeKind, config: Record<string, unknown>): LogicAt[] {
  const out: LogicAt[] = [];
  for (const f of expressionFields[kind]) {
    const v = config[f.field];
    if (f.each === undefined) {
      if (v !== undefined) out.push({ path: [f.field], context: f.context, value: v });
      continue;
    }
    if (!Array.isArray(v)) continue;
    v.forEach((entry, i) => {
      const inner = (entry as Record<string, unknown> | null)?.[f.each as string];
      if (inner !== undefined)
        out.push({ path: [f.field, i, f.each as string], context: f.context, value: inner });
    });
  }
  return out;
}

/**
 * The config field naming a topic the node reads or writes (it must be declared in `topics`), or
 * null. One entry per kind, like `expressionFields`.
 */
export const topicFields: Record<NodeKind, { field: string; reads: boolean } | null> = {
  generator: { field: 'topic', reads: true },
  source: { field: 'topic', reads: true },
  table: { field: 'topic', reads: true },
  globalTable: { field: 'topic', reads: true },
  sink: { field: 'topic', reads: false },
  // the others read and write only the topics their inputs and outputs imply
  filter: null,
  filterNot: null,
  map: null,
  mapValues: null,
  selectKey: null,
  flatMap: null,
  flatMapValues: null,
  peek: null,
  split: null,
  merge: null,
  repartition: null,
  tableFilter: null,
  tableFilterNot: null,
  tableMapValues: null,
  transformValues: null,
  toStream: null,
  groupByKey: null,
  groupBy: null,
  count: null,
  reduce: null,
  aggregate: null,
  cogroup: null,
  toTable: null,
  tableGroupBy: null,
  tableCount: null,
  tableReduce: null,
  tableAggregate: null,
  process: null,
  processValues: null,
  foreach: null,
  print: null,
  streamStreamJoin: null,
  streamTableJoin: null,
  streamGlobalTableJoin: null,
  tableTableJoin: null,
  windowedBy: null,
  windowedCount: null,
  windowedReduce: null,
  windowedAggregate: null,
  suppress: null,
  foreignKeyJoin: null,
};
