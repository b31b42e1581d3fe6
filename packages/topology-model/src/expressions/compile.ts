// compileExpression parses and type-checks once; evaluate() then only converts the variables the
// expression actually reads and runs the pre-checked AST, so the per-record cost stays small.
import { EvaluationError, ParseError } from '@marcbachmann/cel-js';
import {
  ExpressionError,
  nullBranchHint,
  type ExpressionErrorKind,
  type SourcePosition,
} from './errors.js';
import {
  environmentFor,
  familyOf,
  type ExpressionContext,
  type VariableFamily,
} from './environment.js';
import { fromCel, toCel, UnsafeIntegerError } from './values.js';
import {
  CostBudgetExceeded,
  DEFAULT_COST_BUDGET,
  instrument,
  InvalidRegularExpression,
  type Meter,
} from './bounds.js';

export interface CompileOptions {
  /**
   * Evaluation steps (AST nodes evaluated, comprehension iterations included) one evaluation may
   * take; past it the evaluation fails with `cost_budget_exceeded`. Default DEFAULT_COST_BUDGET.
   */
  costBudget?: number;
}

/** Variables of record contexts (`filter`, `mapValues`, `selectKey`, `keyValue`, …). */
export interface RecordVariables {
  key: unknown;
  value: unknown;
  /** Record timestamp in epoch milliseconds. */
  timestamp: number;
  headers: Readonly<Record<string, string>>;
}

/** Variables of generator key/value expressions. */
export interface GeneratorVariables {
  /** 0-based sequence number of the generated record. */
  seq: number;
  /** Wall-clock time in epoch milliseconds. */
  now: number;
}

/** Variables of aggregators, reducers, adders and subtractors. */
export interface AggregateVariables {
  key: unknown;
  value: unknown;
  /** The current aggregate (for a reducer: the value reduced so far). */
  agg: unknown;
}

/** Joiners: the join key and both sides' values. */
export interface JoinVariables {
  key: unknown;
  left: unknown;
  right: unknown;
}

/** Initializers read no variables. */
export type InitializerVariables = Readonly<Record<string, never>>;

export type VariablesFor<C extends ExpressionContext> = C extends 'generatorKey' | 'generatorValue'
  ? GeneratorVariables
  : C extends 'initializer'
    ? InitializerVariables
    : C extends 'aggregator' | 'reducer'
      ? AggregateVariables
      : C extends 'joiner'
        ? JoinVariables
        : RecordVariables;

/** What `keyValue` expressions return, and `flatMap` expressions a list of. */
export interface KeyValueResult {
  key: unknown;
  value: unknown;
}

export interface CompiledExpression<C extends ExpressionContext = ExpressionContext> {
  readonly source: string;
  readonly context: C;
  /** The statically inferred CEL type, e.g. `bool`, `map<string, dyn>`, or `dyn`. */
  readonly resultType: string;
  /**
   * Synchronous. Returns plain JSON-friendly JavaScript: a boolean for `filter`, a string for
   * `topicExtractor` and `print`, an array for `flatMapValues`, a `{key, value}` object for
   * `keyValue` and an array of them for `flatMap`.
   * @throws ExpressionError (kind `runtime`) when evaluation fails, e.g. `no such key: qty`, or
   *   when the result does not have the shape the context requires.
   */
  evaluate(vars: VariablesFor<C>): unknown;
}

export type ExpressionCheck =
  | { ok: true; resultType: string }
  | { ok: false; kind: ExpressionErrorKind; message: string; position: SourcePosition };

type Shape = 'bool' | 'string' | 'list' | 'keyValue' | 'keyValueList';

/** What each context must return (absent: anything). */
const REQUIRED_SHAPE: Partial<Record<ExpressionContext, Shape>> = {
  filter: 'bool',
  topicExtractor: 'string',
  print: 'string',
  flatMapValues: 'list',
  keyValue: 'keyValue',
  flatMap: 'keyValueList',
};

const CONTEXT_NOUN: Partial<Record<ExpressionContext, string>> = {
  filter: 'a filter',
  topicExtractor: 'a topic extractor',
  print: 'a print mapper',
  flatMapValues: 'a flatMapValues expression',
  keyValue: 'a key-value mapper',
  flatMap: 'a flatMap expression',
};

const SHAPE_TEXT: Record<Shape, string> = {
  bool: 'bool',
  string: 'string',
  list: 'a list',
  keyValue: 'a map {"key": …, "value": …}',
  keyValueList: 'a list of maps {"key": …, "value": …}',
};

/** Is a statically inferred type compatible with the shape (dyn always is: checked at run time)? */
function staticallyFits(shape: Shape, type: string): boolean {
  if (type === 'dyn') return true;
  switch (shape) {
    case 'bool':
      return type === 'bool';
    case 'string':
      return type === 'string';
    case 'list':
    case 'keyValueList':
      return type.startsWith('list');
    case 'keyValue':
      return type.startsWith('map');
  }
}

/** @throws ExpressionError (kind `syntax` or `type`) with the position of the problem. */
export function compileExpression<C extends ExpressionContext>(
  source: string,
  context: C,
  options: CompileOptions = {},
): CompiledExpression<C> {
  const env = environmentFor(context);
  let program: ReturnType<typeof env.parse>;
  try {
    program = env.parse(source);
  } catch (error) {
    throw toExpressionError(error, source, 'syntax');
  }
  const checked = program.check();
  if (!checked.valid)
    throw toExpressionError(
      checked.error,
      source,
      checked.error instanceof ParseError ? 'syntax' : 'type',
    );
  const resultType = checked.type ?? 'dyn';
  const shape = REQUIRED_SHAPE[context];
  const noun = CONTEXT_NOUN[context] ?? 'this expression';
  if (shape && !staticallyFits(shape, resultType)) {
    throw new ExpressionError({
      kind: 'type',
      message: `${noun} must return ${SHAPE_TEXT[shape]}, but this expression returns ${resultType}`,
      source,
      offset: 0,
      celCode: context === 'filter' ? 'filter_not_bool' : `${context}_result`,
    });
  }
  // RE2 for matches(), and a cost budget per evaluation (see bounds.ts).
  const meter: Meter = { used: 0, budget: options.costBudget ?? DEFAULT_COST_BUDGET };
  try {
    instrument(program.ast, meter);
  } catch (error) {
    throw toExpressionError(error, source, 'syntax');
  }
  const run = (scope: object, convert: boolean): unknown => {
    meter.used = 0;
    try {
      const result: unknown = program(scope);
      return convert ? fromCel(result) : result;
    } catch (error) {
      throw toExpressionError(error, source, 'runtime');
    }
  };
  const wrongShape = (result: unknown, raw = false): never => {
    throw new ExpressionError({
      kind: 'runtime',
      message: `${noun} must return ${SHAPE_TEXT[shape as Shape]}, but it returned ${describeValue(result, raw)}`,
      source,
      offset: 0,
      celCode: context === 'filter' ? 'filter_not_bool' : `${context}_result`,
    });
  };
  const scopeOf = SCOPES[familyOf(context)];
  let evaluate: (vars: never) => unknown;
  switch (shape) {
    case 'bool':
      // A boolean needs no conversion: skip fromCel on the hottest path (filters).
      evaluate = (vars: never): unknown => {
        const result = run(scopeOf(vars, source), false);
        return typeof result === 'boolean' ? result : wrongShape(result, true);
      };
      break;
    case 'string':
      evaluate = (vars: never): unknown => {
        const result = run(scopeOf(vars, source), false);
        return typeof result === 'string' ? result : wrongShape(result, true);
      };
      break;
    case 'list':
      evaluate = (vars: never): unknown => {
        const result = run(scopeOf(vars, source), true);
        return Array.isArray(result) ? result : wrongShape(result);
      };
      break;
    case 'keyValue':
      evaluate = (vars: never): unknown => {
        const result = run(scopeOf(vars, source), true);
        return isKeyValue(result) ? result : wrongShape(result);
      };
      break;
    case 'keyValueList':
      evaluate = (vars: never): unknown => {
        const result = run(scopeOf(vars, source), true);
        return Array.isArray(result) && result.every(isKeyValue) ? result : wrongShape(result);
      };
      break;
    default:
      evaluate = (vars: never): unknown => run(scopeOf(vars, source), true);
  }
  return { source, context, resultType, evaluate: evaluate as (vars: VariablesFor<C>) => unknown };
}

/** Exactly the entries "key" and "value" (anything else is most likely a typo). */
function isKeyValue(v: unknown): v is KeyValueResult {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array)
    return false;
  const keys = Object.keys(v);
  return keys.length === 2 && keys.includes('key') && keys.includes('value');
}

/** Validation without throwing, for the designer and validateTopology. */
export function checkExpression(source: string, context: ExpressionContext): ExpressionCheck {
  try {
    return { ok: true, resultType: compileExpression(source, context).resultType };
  } catch (error) {
    if (error instanceof ExpressionError) {
      return { ok: false, kind: error.kind, message: error.message, position: error.position };
    }
    throw error;
  }
}

// Variables are converted lazily and at most once per evaluation: a filter that reads only
// `value` never pays for converting `key` or `headers`.
const UNSET: unique symbol = Symbol('unset');

class RecordScope {
  #vars: RecordVariables;
  #source: string;
  #key: unknown = UNSET;
  #value: unknown = UNSET;
  constructor(vars: RecordVariables, source: string) {
    this.#vars = vars;
    this.#source = source;
  }
  get key(): unknown {
    return this.#key === UNSET ? (this.#key = toCel(this.#vars.key)) : this.#key;
  }
  get value(): unknown {
    return this.#value === UNSET ? (this.#value = toCel(this.#vars.value)) : this.#value;
  }
  get timestamp(): bigint {
    return intVariable('timestamp', this.#vars.timestamp, this.#source);
  }
  get headers(): Readonly<Record<string, string>> {
    return this.#vars.headers;
  }
}

class GeneratorScope {
  #vars: GeneratorVariables;
  #source: string;
  constructor(vars: GeneratorVariables, source: string) {
    this.#vars = vars;
    this.#source = source;
  }
  get seq(): bigint {
    return intVariable('seq', this.#vars.seq, this.#source);
  }
  get now(): bigint {
    return intVariable('now', this.#vars.now, this.#source);
  }
}

class AggregateScope {
  #vars: AggregateVariables;
  #key: unknown = UNSET;
  #value: unknown = UNSET;
  #agg: unknown = UNSET;
  constructor(vars: AggregateVariables) {
    this.#vars = vars;
  }
  get key(): unknown {
    return this.#key === UNSET ? (this.#key = toCel(this.#vars.key)) : this.#key;
  }
  get value(): unknown {
    return this.#value === UNSET ? (this.#value = toCel(this.#vars.value)) : this.#value;
  }
  get agg(): unknown {
    return this.#agg === UNSET ? (this.#agg = toCel(this.#vars.agg)) : this.#agg;
  }
}

class JoinScope {
  #vars: JoinVariables;
  constructor(vars: JoinVariables) {
    this.#vars = vars;
  }
  get key(): unknown {
    return toCel(this.#vars.key);
  }
  get left(): unknown {
    return toCel(this.#vars.left);
  }
  get right(): unknown {
    return toCel(this.#vars.right);
  }
}

const EMPTY_SCOPE = Object.freeze({});

const SCOPES: Record<VariableFamily, (vars: never, source: string) => object> = {
  record: (vars: RecordVariables, source) => new RecordScope(vars, source),
  generator: (vars: GeneratorVariables, source) => new GeneratorScope(vars, source),
  initializer: () => EMPTY_SCOPE,
  aggregate: (vars: AggregateVariables) => new AggregateScope(vars),
  join: (vars: JoinVariables) => new JoinScope(vars),
};

function intVariable(name: string, v: number, source: string): bigint {
  if (!Number.isFinite(v)) {
    throw new ExpressionError({
      kind: 'runtime',
      message: `variable ${name} must be a finite number of milliseconds or a counter, got ${String(v)}`,
      source,
      offset: 0,
      celCode: 'invalid_variable',
    });
  }
  return BigInt(Math.trunc(v));
}

function toExpressionError(
  error: unknown,
  source: string,
  kind: ExpressionErrorKind,
): ExpressionError {
  if (error instanceof ExpressionError) return error;
  if (error instanceof ParseError || error instanceof EvaluationError || isCelTypeError(error)) {
    const celError = error as ParseError;
    return new ExpressionError({
      kind,
      message: friendlyMessage(celError.code, celError.summary),
      source,
      offset: celError.range?.start ?? 0,
      celCode: celError.code,
      cause: error,
    });
  }
  if (error instanceof CostBudgetExceeded) {
    return new ExpressionError({
      kind: 'runtime',
      message: error.message,
      source,
      offset: 0,
      celCode: 'cost_budget_exceeded',
      cause: error,
    });
  }
  if (error instanceof InvalidRegularExpression) {
    return new ExpressionError({
      kind,
      message: error.message,
      source,
      offset: error.offset,
      celCode: 'invalid_regular_expression',
      cause: error,
    });
  }
  if (error instanceof UnsafeIntegerError) {
    return new ExpressionError({
      kind,
      message: error.message,
      source,
      offset: 0,
      celCode: 'int_out_of_range',
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ExpressionError({
    kind,
    message,
    source,
    offset: 0,
    celCode: 'internal_error',
    cause: error,
  });
}

// cel-js exports its TypeError under the same name as the global one; recognise it by name.
function isCelTypeError(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'TypeError' &&
    typeof (error as { summary?: unknown }).summary === 'string'
  );
}

function friendlyMessage(code: string, summary: string): string {
  // cel-js says "No such key: qty"; CEL's reference implementations say "no such key: qty".
  if (code === 'no_such_key') return summary.replace(/^No such key/, 'no such key');
  // "dyn<null> + int" → "null + int": the dyn wrapper is an implementation detail.
  const message = summary.replace(/dyn<([^<>]+)>/g, '$1');
  return message + nullBranchHint(message);
}

/**
 * A short description of a result for error messages: `raw` values are cel-js's (bigint ints,
 * number doubles), others already converted to JSON-friendly JavaScript.
 */
function describeValue(v: unknown, raw: boolean): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Uint8Array) return 'bytes';
  switch (typeof v) {
    case 'bigint':
      return `int (${v})`;
    case 'number':
      return raw ? `double (${v})` : `number (${v})`;
    case 'string':
      return `string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
    case 'boolean':
      return `bool (${v})`;
    case 'object':
      return v instanceof Map || Object.getPrototypeOf(v) === Object.prototype
        ? `map with keys [${Object.keys(v).join(', ')}]`
        : 'a value of another type';
    default:
      return typeof v;
  }
}
