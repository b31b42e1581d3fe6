// compileExpression parses and type-checks once; evaluate() then only converts the variables the
// expression actually reads and runs the pre-checked AST, so the per-record cost stays small.
import { EvaluationError, ParseError } from '@marcbachmann/cel-js';
import { ExpressionError, type ExpressionErrorKind, type SourcePosition } from './errors.js';
import { environmentFor, type ExpressionContext } from './environment.js';
import { fromCel, toCel, UnsafeIntegerError } from './values.js';

/** Variables of `filter` and `mapValues` expressions. */
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

export type VariablesFor<C extends ExpressionContext> = C extends 'filter' | 'mapValues'
  ? RecordVariables
  : GeneratorVariables;

export interface CompiledExpression<C extends ExpressionContext = ExpressionContext> {
  readonly source: string;
  readonly context: C;
  /** The statically inferred CEL type, e.g. `bool`, `map<string, dyn>`, or `dyn`. */
  readonly resultType: string;
  /**
   * Synchronous. Returns plain JSON-friendly JavaScript (a boolean for filters).
   * @throws ExpressionError (kind `runtime`) when evaluation fails, e.g. `no such key: qty`.
   */
  evaluate(vars: VariablesFor<C>): unknown;
}

export type ExpressionCheck =
  | { ok: true; resultType: string }
  | { ok: false; kind: ExpressionErrorKind; message: string; position: SourcePosition };

/** @throws ExpressionError (kind `syntax` or `type`) with the position of the problem. */
export function compileExpression<C extends ExpressionContext>(
  source: string,
  context: C,
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
  if (context === 'filter' && resultType !== 'bool' && resultType !== 'dyn') {
    throw new ExpressionError({
      kind: 'type',
      message: `a filter must return bool, but this expression returns ${resultType}`,
      source,
      offset: 0,
      celCode: 'filter_not_bool',
    });
  }

  const run = (scope: object, convert: boolean): unknown => {
    try {
      const result: unknown = program(scope);
      return convert ? fromCel(result) : result;
    } catch (error) {
      throw toExpressionError(error, source, 'runtime');
    }
  };
  const evaluate =
    context === 'filter'
      ? (vars: RecordVariables): unknown => {
          const result = run(new RecordScope(vars, source), false);
          if (typeof result !== 'boolean') {
            throw new ExpressionError({
              kind: 'runtime',
              message: `a filter must return bool, but it returned ${describeCelValue(result)}`,
              source,
              offset: 0,
              celCode: 'filter_not_bool',
            });
          }
          return result;
        }
      : context === 'mapValues'
        ? (vars: RecordVariables): unknown => run(new RecordScope(vars, source), true)
        : (vars: GeneratorVariables): unknown => run(new GeneratorScope(vars, source), true);

  return { source, context, resultType, evaluate: evaluate as (vars: VariablesFor<C>) => unknown };
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
  return summary.replace(/dyn<([^<>]+)>/g, '$1');
}

function describeCelValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Uint8Array) return 'bytes';
  switch (typeof v) {
    case 'bigint':
      return `int (${v})`;
    case 'number':
      return `double (${v})`;
    case 'string':
      return `string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)})`;
    case 'object':
      return v instanceof Map || Object.getPrototypeOf(v) === Object.prototype
        ? 'map'
        : 'a value of another type';
    default:
      return typeof v;
  }
}
