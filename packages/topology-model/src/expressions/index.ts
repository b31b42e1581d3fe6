export { ExpressionError, positionAt } from './errors.js';
export type { ExpressionErrorKind, SourcePosition } from './errors.js';
export type { ExpressionContext } from './environment.js';
export { RECORD_VARIABLES, GENERATOR_VARIABLES } from './environment.js';
export { compileExpression, checkExpression } from './compile.js';
export type {
  CompiledExpression,
  ExpressionCheck,
  GeneratorVariables,
  RecordVariables,
  VariablesFor,
} from './compile.js';
