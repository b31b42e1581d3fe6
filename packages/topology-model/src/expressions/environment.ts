// The CEL environments the product uses, one per variable set, created once (building one is
// the expensive part) and shared by every compiled expression of the contexts using it.
import { Environment } from '@marcbachmann/cel-js';

/**
 * Where an expression is used, which decides its variables and what it must return
 * (docs/EXPRESSIONS.md):
 * - record contexts (variables `key`, `value`, `timestamp`, `headers`):
 *   `filter` (bool), `mapValues` (any value), `selectKey` (any key), `keyValue`
 *   (`{"key": …, "value": …}`), `flatMap` (list of such maps), `flatMapValues` (list),
 *   `topicExtractor` (string), `print` (string);
 * - `generatorKey`, `generatorValue`: `seq`, `now`;
 * - `initializer`: no variables;
 * - `aggregator`, `reducer`: `key`, `value`, `agg`.
 */
export type ExpressionContext =
  | 'filter'
  | 'mapValues'
  | 'selectKey'
  | 'keyValue'
  | 'flatMap'
  | 'flatMapValues'
  | 'topicExtractor'
  | 'print'
  | 'generatorKey'
  | 'generatorValue'
  | 'initializer'
  | 'aggregator'
  | 'reducer'
  | 'joiner';

export const EXPRESSION_CONTEXTS: readonly ExpressionContext[] = [
  'filter',
  'mapValues',
  'selectKey',
  'keyValue',
  'flatMap',
  'flatMapValues',
  'topicExtractor',
  'print',
  'generatorKey',
  'generatorValue',
  'initializer',
  'aggregator',
  'reducer',
  'joiner',
];

/** Declared variables per environment, documented in docs/EXPRESSIONS.md. */
export const RECORD_VARIABLES = {
  key: 'dyn',
  value: 'dyn',
  timestamp: 'int',
  headers: 'map<string, string>',
} as const;

export const GENERATOR_VARIABLES = {
  seq: 'int',
  now: 'int',
} as const;

export const INITIALIZER_VARIABLES = {} as const;

/** Aggregator, reducer, adder and subtractor: the record's key and value and the aggregate. */
export const AGGREGATE_VARIABLES = {
  key: 'dyn',
  value: 'dyn',
  agg: 'dyn',
} as const;

/** Joiners (ValueJoinerWithKey): the join key and both sides' values (null when missing). */
export const JOIN_VARIABLES = {
  key: 'dyn',
  left: 'dyn',
  right: 'dyn',
} as const;

export type VariableFamily = 'record' | 'generator' | 'initializer' | 'aggregate' | 'join';

export function familyOf(context: ExpressionContext): VariableFamily {
  switch (context) {
    case 'generatorKey':
    case 'generatorValue':
      return 'generator';
    case 'initializer':
      return 'initializer';
    case 'aggregator':
    case 'reducer':
      return 'aggregate';
    case 'joiner':
      return 'join';
    default:
      return 'record';
  }
}

const FAMILY_VARIABLES: Record<VariableFamily, Readonly<Record<string, string>>> = {
  record: RECORD_VARIABLES,
  generator: GENERATOR_VARIABLES,
  initializer: INITIALIZER_VARIABLES,
  aggregate: AGGREGATE_VARIABLES,
  join: JOIN_VARIABLES,
};

/** The variables (name → CEL type) an expression of `context` may use; for editors' hints. */
export function variablesOf(context: ExpressionContext): Readonly<Record<string, string>> {
  return FAMILY_VARIABLES[familyOf(context)];
}

export interface EnvironmentOptions {
  /**
   * Register int⊕double arithmetic (+ - * /). On by default: JSON numbers become ints
   * or doubles by value, so `value.price * 1.5` must work whichever one `price` turned out to be.
   * Off only to measure the library against the CEL conformance suite, which expects strict CEL.
   */
  mixedNumericArithmetic?: boolean;
}

export function createEnvironment(
  variables: Readonly<Record<string, string>>,
  options: EnvironmentOptions = {},
): Environment {
  const env = new Environment({
    // `{"user": value.user, "total": value.qty * 2}` mixes string and int values: allow it
    // without making users wrap every entry in dyn(...).
    homogeneousAggregateLiterals: false,
    // `value.?qty.orValue(0)` is the readable way to default a missing JSON field.
    enableOptionalTypes: true,
  });
  for (const [name, type] of Object.entries(variables)) env.registerVariable(name, type);
  if (options.mixedNumericArithmetic ?? true) registerMixedNumericOperators(env);
  return env;
}

// Strict CEL has no int ⊕ double overloads. The result is a double, as in most languages.
function registerMixedNumericOperators(env: Environment): void {
  const ops: Record<'+' | '-' | '*' | '/', (a: number, b: number) => number> = {
    '+': (a, b) => a + b,
    '-': (a, b) => a - b,
    '*': (a, b) => a * b,
    '/': (a, b) => a / b,
  };
  for (const [op, fn] of Object.entries(ops)) {
    env.registerOperator(`int ${op} double: double`, (a: bigint, b: number) => fn(Number(a), b));
    env.registerOperator(`double ${op} int: double`, (a: number, b: bigint) => fn(a, Number(b)));
  }
  // No `int == double`: JSON fields are dyn, and cel-js already compares dyn numbers by value
  // (`value.x == 2.0` is true for x = 2). A static overload would make cel-js's type checker reject
  // `[].exists(e, e == 2)` as ambiguous, as it already does for `[].map(n, n / 2)` with these.
}

const cache = new Map<VariableFamily, Environment>();

/** The shared environment for a context. */
export function environmentFor(context: ExpressionContext): Environment {
  const family = familyOf(context);
  let env = cache.get(family);
  if (!env) {
    env = createEnvironment(FAMILY_VARIABLES[family]);
    cache.set(family, env);
  }
  return env;
}
