export { ExpressionError, positionAt } from './errors.js';
export type { ExpressionErrorKind, SourcePosition } from './errors.js';
export type { ExpressionContext, VariableFamily } from './environment.js';
export {
  AGGREGATE_VARIABLES,
  EXPRESSION_CONTEXTS,
  GENERATOR_VARIABLES,
  INITIALIZER_VARIABLES,
  RECORD_VARIABLES,
  familyOf,
  variablesOf,
} from './environment.js';
export { compileExpression, checkExpression } from './compile.js';
export { DEFAULT_COST_BUDGET, re2Matches } from './bounds.js';
export type {
  AggregateVariables,
  CompileOptions,
  CompiledExpression,
  ExpressionCheck,
  GeneratorVariables,
  InitializerVariables,
  KeyValueResult,
  RecordVariables,
  VariablesFor,
} from './compile.js';
export { checkTypedExpression, unguardedNullUses } from './typed-check.js';
export type { CelTypeName, NullUse, TypedCheck } from './typed-check.js';
