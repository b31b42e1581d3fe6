// What flows along each edge, as far as it is known before any record arrives: the key's and the
// value's CEL type (from the serdes that read them and the result types of the expressions that
// make them), and whether the key is windowed. With it validation finds what would fail on the
// first record (issue 23):
// - an expression that does not type-check against the inferred types (`value > 10` over a
//   string value), checked with cel-js's checker (expressions/typed-check.ts);
// - a joiner that uses the side that is null in a left or outer join without a null guard;
// - a serde that cannot write what reaches it (a windowed key into a string key serde, an int
//   value into a string serde).
// Unknown types are `dyn` and never reported: a JSON value's shape is only known at run time.
import { checkTypedExpression, unguardedNullUses } from '../expressions/typed-check.js';
import type { ExpressionContext } from '../expressions/environment.js';
import {
  isFunctionRef,
  serdeLabel,
  type Edge,
  type SerdeName,
  type Topology,
  type TopologyNode,
} from '../schema.js';
import { formatPath, type ValidationIssue } from './issues.js';

type WindowedKey = { kind: 'time' | 'session'; sizeMs: number | null; by: string } | null;

/** What one edge carries. */
export interface RecordType {
  key: string;
  value: string;
  /** A windowed aggregation's key (`{key, start, end}`), and the node that windowed it. */
  windowed: WindowedKey;
}

const DYN: RecordType = { key: 'dyn', value: 'dyn', windowed: null };

/** The CEL type a serde's values have in expressions (json and avro: only known at run time). */
export function serdeType(serde: SerdeName | undefined): string {
  switch (serde) {
    case 'string':
      return 'string';
    case 'long':
    case 'integer':
      return 'int';
    case 'bytes':
      return 'bytes';
    default:
      // a double serde's 2.0 reaches CEL as int 2 (JSON numbers by value): left open
      return 'dyn';
  }
}

/** Can the serde write a value of this static type (null is always writable: a tombstone)? */
function serdeAccepts(serde: SerdeName, type: string): boolean {
  if (type === 'dyn' || type === 'null' || type.startsWith('optional')) return true;
  switch (serde) {
    case 'string':
      return type === 'string';
    case 'long':
    case 'integer':
      return type === 'int' || type === 'uint';
    case 'double':
      return type === 'int' || type === 'uint' || type === 'double';
    case 'bytes':
      return type === 'bytes';
    default:
      return true;
  }
}

/** The serde to pick for a value of this type (for fixes). */
function serdeFor(type: string): string {
  if (type === 'string') return 'string';
  if (type === 'int' || type === 'uint') return 'long';
  if (type === 'bytes') return 'bytes';
  return 'json';
}

interface Context {
  topology: Topology;
  issues: ValidationIssue[];
  index: Map<string, number>;
}

/**
 * Infers the record types along the (valid, acyclic) topology and reports what would fail on
 * the first record. Returns the output type of every node (for tests and the designer).
 */
export function checkRecordTypes(
  topology: Topology,
  issues: ValidationIssue[],
): Map<string, RecordType> {
  const ctx: Context = {
    topology,
    issues,
    index: new Map(topology.nodes.map((n, i) => [n.id, i])),
  };
  const incoming = new Map<string, Edge[]>();
  for (const e of topology.edges) {
    const list = incoming.get(e.to) ?? [];
    list.push(e);
    incoming.set(e.to, list);
  }
  const out = new Map<string, RecordType>();
  const byId = new Map(topology.nodes.map((n) => [n.id, n]));
  const visiting = new Set<string>();
  const typeOf = (id: string): RecordType => {
    const known = out.get(id);
    if (known) return known;
    const node = byId.get(id);
    if (!node || visiting.has(id)) return DYN; // validated away before this pass runs
    visiting.add(id);
    const inputs = new Map<string, RecordType[]>();
    for (const e of incoming.get(id) ?? []) {
      const list = inputs.get(e.toPort) ?? [];
      list.push(typeOf(e.from));
      inputs.set(e.toPort, list);
    }
    const result = nodeType(node, inputs, ctx);
    visiting.delete(id);
    out.set(id, result);
    return result;
  };
  for (const n of topology.nodes) typeOf(n.id);
  return out;
}

function first(inputs: Map<string, RecordType[]>, port: string): RecordType {
  return inputs.get(port)?.[0] ?? DYN;
}

/** Merged streams: a type all inputs share, else dyn. */
function common(types: readonly RecordType[]): RecordType {
  const [head, ...rest] = types;
  if (!head) return DYN;
  const same = <T>(pick: (t: RecordType) => T): boolean =>
    rest.every((t) => JSON.stringify(pick(t)) === JSON.stringify(pick(head)));
  return {
    key: same((t) => t.key) ? head.key : 'dyn',
    value: same((t) => t.value) ? head.value : 'dyn',
    windowed: same((t) => t.windowed?.kind ?? null) ? head.windowed : null,
  };
}

function nodeType(node: TopologyNode, inputs: Map<string, RecordType[]>, ctx: Context): RecordType {
  const input = first(inputs, 'in');
  const c = node.config as Record<string, unknown>;
  const check = (
    field: (string | number)[],
    context: ExpressionContext,
    variables: Record<string, string>,
    nullable: string[] = [],
  ): string => checkLogic(node, field, context, variables, nullable, ctx);
  // CEL sees a windowed key as a map {key, start, end}; its fields are left unchecked
  const recordVars = (t: RecordType): Record<string, string> => ({
    key: t.windowed ? 'dyn' : t.key,
    value: t.value,
    timestamp: 'int',
    headers: 'map<string, string>',
  });
  let result: RecordType;
  switch (node.kind) {
    case 'generator':
    case 'source':
    case 'table':
    case 'globalTable':
      result = {
        key: serdeType(c.keySerde as SerdeName),
        value: serdeType(c.valueSerde as SerdeName),
        windowed: null,
      };
      if (node.kind === 'generator') checkGenerator(node, ctx);
      break;
    case 'filter':
    case 'filterNot':
    case 'tableFilter':
    case 'tableFilterNot':
      check(['expression'], 'filter', recordVars(input));
      result = input;
      break;
    case 'split':
      (c.branches as unknown[]).forEach((_, i) =>
        check(['branches', i, 'predicate'], 'filter', recordVars(input)),
      );
      result = input;
      break;
    case 'peek':
    case 'repartition':
    case 'toStream':
    case 'toTable':
    case 'groupByKey':
    case 'suppress':
      result = input;
      break;
    case 'windowedBy': {
      const w = (c.window as { type: string; sizeMs?: number }) ?? { type: 'tumbling' };
      result = {
        ...input,
        windowed: {
          kind: w.type === 'session' ? 'session' : 'time',
          sizeMs: w.type === 'tumbling' || w.type === 'hopping' ? (w.sizeMs ?? null) : null,
          by: node.id,
        },
      };
      break;
    }
    case 'merge':
      result = common(inputs.get('in') ?? []);
      break;
    case 'mapValues':
    case 'tableMapValues':
      result = { ...input, value: check(['expression'], 'mapValues', recordVars(input)) };
      break;
    case 'selectKey':
    case 'groupBy':
      result = {
        key: check(['expression'], 'selectKey', recordVars(input)),
        value: input.value,
        windowed: null,
      };
      break;
    case 'flatMapValues': {
      const list = check(['expression'], 'flatMapValues', recordVars(input));
      const element = /^list<(.+)>$/.exec(list)?.[1] ?? 'dyn';
      result = { ...input, value: element };
      break;
    }
    case 'map':
    case 'flatMap':
      check(['expression'], node.kind === 'map' ? 'keyValue' : 'flatMap', recordVars(input));
      result = DYN;
      break;
    case 'tableGroupBy':
      check(['expression'], 'keyValue', recordVars(input));
      result = DYN;
      break;
    case 'print':
      if (c.mapper !== undefined) check(['mapper'], 'print', recordVars(input));
      result = input;
      break;
    case 'sink':
      if (c.topicExtractor !== undefined)
        check(['topicExtractor'], 'topicExtractor', recordVars(input));
      checkSinkSerdes(node, input, ctx);
      result = input;
      break;
    case 'count':
    case 'tableCount':
      result = { ...input, value: 'int', windowed: null };
      break;
    case 'windowedCount':
      result = { ...input, value: 'int' };
      break;
    case 'reduce':
    case 'windowedReduce':
      check(['expression'], 'reducer', aggVars(input, input.value));
      result = node.kind === 'reduce' ? { ...input, windowed: null } : input;
      break;
    case 'tableReduce':
      check(['adder'], 'reducer', aggVars(input, input.value));
      check(['subtractor'], 'reducer', aggVars(input, input.value));
      result = input;
      break;
    case 'aggregate':
    case 'windowedAggregate':
    case 'tableAggregate': {
      const init = check(['initializer'], 'initializer', {});
      const fields = node.kind === 'tableAggregate' ? ['adder', 'subtractor'] : ['aggregator'];
      const results = fields.map((f) => check([f], 'aggregator', aggVars(input, init)));
      if (node.kind === 'windowedAggregate' && c.merger !== undefined)
        check(['merger'], 'aggregator', { key: input.key, value: init, agg: init });
      const value = results.every((r) => r === results[0]) ? (results[0] ?? 'dyn') : 'dyn';
      result = {
        ...input,
        value,
        windowed: node.kind === 'windowedAggregate' ? input.windowed : null,
      };
      break;
    }
    case 'cogroup': {
      const init = check(['initializer'], 'initializer', {});
      const values = (c.inputs as { port: string }[]).map(({ port }, i) =>
        check(['inputs', i, 'aggregator'], 'aggregator', aggVars(first(inputs, port), init)),
      );
      const keys = (c.inputs as { port: string }[]).map(({ port }) => first(inputs, port));
      const key = common(keys).key;
      if (c.merger !== undefined) check(['merger'], 'aggregator', { key, value: init, agg: init });
      // A windowed cogroup (config.window) keys its table by window, as windowedBy does.
      const w = c.window as { type: string; sizeMs?: number } | undefined;
      result = {
        key,
        value: values.every((v) => v === values[0]) ? (values[0] ?? 'dyn') : 'dyn',
        windowed:
          w === undefined
            ? null
            : {
                kind: w.type === 'session' ? 'session' : 'time',
                sizeMs: w.type === 'tumbling' || w.type === 'hopping' ? (w.sizeMs ?? null) : null,
                by: node.id,
              },
      };
      break;
    }
    case 'streamStreamJoin':
    case 'streamTableJoin':
    case 'streamGlobalTableJoin':
    case 'tableTableJoin':
    case 'foreignKeyJoin': {
      const left = first(inputs, 'left');
      const right = first(inputs, 'right');
      const type = c.type as 'inner' | 'left' | 'outer';
      const nullable = type === 'outer' ? ['left', 'right'] : type === 'left' ? ['right'] : [];
      if (node.kind === 'streamGlobalTableJoin')
        check(['keySelector'], 'selectKey', recordVars(left));
      if (node.kind === 'foreignKeyJoin')
        check(['foreignKeyExtractor'], 'selectKey', recordVars(left));
      const value = check(
        ['joiner'],
        'joiner',
        { key: left.windowed ? 'dyn' : left.key, left: left.value, right: right.value },
        nullable,
      );
      result = { key: left.key, value, windowed: left.windowed };
      break;
    }
    case 'processValues':
      result = { ...input, value: 'dyn' };
      break;
    case 'transformValues':
      result = { ...input, value: 'dyn' };
      break;
    case 'process':
    case 'foreach':
      // what a custom processor forwards is unknown (foreach forwards nothing)
      result = DYN;
      break;
    default: {
      // Every kind has a case: a new kind fails typecheck here until it says what it forwards
      // (docs/ARCHITECTURE.md, "How to add a node kind").
      const unhandled: never = node;
      result = unhandled;
    }
  }
  checkExplicitSerdes(node, input, result, ctx);
  return result;
}

function aggVars(input: RecordType, agg: string): Record<string, string> {
  return { key: input.key, value: input.value, agg };
}

/**
 * Type-checks one logic field with typed variables and returns its result type (dyn when it is
 * a function reference, absent, or did not check). Variables all `dyn` and none nullable: the
 * untyped check (nodes.ts) already covered it.
 */
function checkLogic(
  node: TopologyNode,
  field: (string | number)[],
  context: ExpressionContext,
  variables: Record<string, string>,
  nullable: string[],
  ctx: Context,
): string {
  let source: unknown = node.config;
  for (const f of field) source = (source as Record<string | number, unknown> | undefined)?.[f];
  if (typeof source !== 'string' || isFunctionRef(source)) return 'dyn';
  const index = ctx.index.get(node.id) ?? -1;
  const path = formatPath(['nodes', index, 'config', ...field]);
  const checked = checkTypedExpression(source, variables);
  if (!checked.ok) {
    const typed = Object.entries(variables)
      .filter(([name, type]) => type !== 'dyn' && name !== 'timestamp' && name !== 'headers')
      .map(([name, type]) => `${name}: ${type}`);
    ctx.issues.push({
      path,
      nodeId: node.id,
      code: 'expression_type',
      message: `${checked.message}${typed.length > 0 ? ` (here ${typed.join(', ')}, as the serdes and expressions before this node make them)` : ''}`,
      position: checked.position,
      fix:
        typed.length > 0
          ? `write the expression for these types, convert explicitly (e.g. int(value), string(key)), or change the serde that reads them`
          : 'correct the expression',
    });
    return 'dyn';
  }
  for (const use of unguardedNullUses(source, nullable)) {
    const kind = (node.config as { type?: string }).type;
    ctx.issues.push({
      path,
      nodeId: node.id,
      code: 'nullable_join_value',
      message: `in a ${kind} join "${use.variable}" is null when the other side has no match; "${use.variable}" ${use.usage === 'value' ? 'is used as a value that must not be null' : `used with ${use.usage}`} fails on such a record (no such overload for null)`,
      position: use.position,
      fix: `guard it: ${use.variable} == null ? <value without it> : <expression>, or use an inner join`,
    });
  }
  // what each context must return is checked by the untyped pass; the result type flows on
  return checked.resultType;
}

/** A generator writes its expressions' results with its own serdes. */
function checkGenerator(node: TopologyNode & { kind: 'generator' }, ctx: Context): void {
  const c = node.config;
  for (const [field, serde] of [
    ['key', c.keySerde],
    ['value', c.valueSerde],
  ] as const) {
    const source = c[field];
    if (typeof source !== 'string') continue;
    const checked = checkTypedExpression(source, { seq: 'int', now: 'int' });
    if (!checked.ok || serdeAccepts(serde, checked.resultType)) continue;
    const serdeField = field === 'key' ? 'keySerde' : 'valueSerde';
    ctx.issues.push({
      path: formatPath(['nodes', ctx.index.get(node.id) ?? -1, 'config', serdeField]),
      nodeId: node.id,
      code: 'serde_mismatch',
      message: `the ${field} expression returns ${checked.resultType}, which the ${serdeLabel(serde)} serde cannot write`,
      fix: `set ${serdeField} to ${serdeFor(checked.resultType)}, or make the expression return what ${serdeLabel(serde)} writes`,
    });
  }
}

/** A sink writes with its own serdes (Produced), whatever reached it. */
function checkSinkSerdes(
  node: TopologyNode & { kind: 'sink' },
  input: RecordType,
  ctx: Context,
): void {
  const c = node.config;
  const at = (field: string) =>
    formatPath(['nodes', ctx.index.get(node.id) ?? -1, 'config', field]);
  const push = (field: string, message: string, fix: string): void => {
    ctx.issues.push({ path: at(field), nodeId: node.id, code: 'serde_mismatch', message, fix });
  };
  const w = input.windowed;
  if (w && c.windowedKey === undefined && c.keySerde !== 'json') {
    const timeFix =
      w.kind === 'time'
        ? `set windowedKey to "time"${w.sizeMs !== null ? ` with windowSizeMs ${w.sizeMs}` : ' with the window size as windowSizeMs'} (Kafka's TimeWindowedSerde)`
        : `set windowedKey to "session" (Kafka's SessionWindowedSerde)`;
    push(
      'keySerde',
      `the keys reaching this sink are windowed (by "${w.by}"): the ${serdeLabel(c.keySerde)} key serde cannot write a windowed key`,
      `${timeFix}, or keySerde "json" to write {key, start, end}`,
    );
  } else if (w && c.windowedKey !== undefined && c.windowedKey !== w.kind) {
    push(
      'windowedKey',
      `the keys reaching this sink are ${w.kind} windows (by "${w.by}"), not ${c.windowedKey} windows`,
      `set windowedKey to "${w.kind}"`,
    );
  } else if (!w && c.windowedKey !== undefined) {
    push(
      'windowedKey',
      `windowedKey is "${c.windowedKey}" but the keys reaching this sink are not windowed`,
      'remove windowedKey, or send a windowed aggregation (toStream) to this sink',
    );
  } else if (!w && !serdeAccepts(c.keySerde, input.key)) {
    push(
      'keySerde',
      `the keys reaching this sink are ${input.key}, which the ${serdeLabel(c.keySerde)} key serde cannot write`,
      `set keySerde to ${serdeFor(input.key)}, or convert the key before the sink`,
    );
  }
  if (!serdeAccepts(c.valueSerde, input.value))
    push(
      'valueSerde',
      `the values reaching this sink are ${input.value}, which the ${serdeLabel(c.valueSerde)} value serde cannot write`,
      `set valueSerde to ${serdeFor(input.value)}, or convert the value before the sink (e.g. string(value))`,
    );
}

/** Kinds whose valueSerde writes what comes in (a topic or buffer), not what they make. */
const INPUT_VALUE_SERDE = new Set([
  'groupBy',
  'groupByKey',
  'repartition',
  'streamStreamJoin',
  'streamTableJoin',
]);

/**
 * Serdes given explicitly on other nodes (Grouped, Repartitioned, Joined, Materialized): a key
 * or value of a known type they cannot write fails on the first record.
 */
function checkExplicitSerdes(
  node: TopologyNode,
  input: RecordType,
  output: RecordType,
  ctx: Context,
): void {
  if (['generator', 'source', 'table', 'globalTable', 'sink'].includes(node.kind)) return;
  const c = node.config as { keySerde?: SerdeName; valueSerde?: SerdeName };
  const at = (field: string) =>
    formatPath(['nodes', ctx.index.get(node.id) ?? -1, 'config', field]);
  const windowedKinds = ['windowedCount', 'windowedReduce', 'windowedAggregate'];
  // A windowed aggregation's Materialized key serde is the record key's (the window wraps it).
  const key = windowedKinds.includes(node.kind)
    ? input.key
    : node.kind === 'cogroup'
      ? output.key
      : output.windowed
        ? 'dyn'
        : output.key;
  if (c.keySerde !== undefined && !serdeAccepts(c.keySerde, key))
    ctx.issues.push({
      path: at('keySerde'),
      nodeId: node.id,
      code: 'serde_mismatch',
      message: `the keys here are ${key}, which the ${serdeLabel(c.keySerde)} key serde cannot write`,
      fix: `set keySerde to ${serdeFor(key)}, or leave it unset`,
    });
  const value = INPUT_VALUE_SERDE.has(node.kind)
    ? node.kind.endsWith('Join')
      ? DYN.value
      : input.value
    : output.value;
  if (c.valueSerde !== undefined && !serdeAccepts(c.valueSerde, value))
    ctx.issues.push({
      path: at('valueSerde'),
      nodeId: node.id,
      code: 'serde_mismatch',
      message: `the values here are ${value}, which the ${serdeLabel(c.valueSerde)} value serde cannot write`,
      fix: `set valueSerde to ${serdeFor(value)}, or leave it unset`,
    });
}
