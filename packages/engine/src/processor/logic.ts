// User logic of a node: CEL text (compiled once per node, editable in the designer) or a reference
// to a TypeScript function from the in-process function registry (a DSL program's lambdas).
// Both are called with the same variables object, so a node behaves the same either way.
import type { FunctionRef, Logic } from '@streamwright/topology-model';
// The expressions entry point alone: stream threads in worker threads load this module, and the
// package's root (every zod schema) would cost each worker ~0.2 s of start-up.
import {
  compileExpression,
  type ExpressionContext,
} from '@streamwright/topology-model/expressions';
import { EngineError } from '../errors.js';

/**
 * A function the topology refers to by name (`{"function": "isLarge"}`). It receives the
 * variables a CEL expression of the same field would see: `{key, value, timestamp, headers}` for
 * record logic, `{key, value, agg}` for aggregators / reducers / adders / subtractors, `{}` for
 * initializers, and returns what the CEL expression would.
 */
export type LogicFunction = (vars: never) => unknown;

/** Name → function, given in-process (a DSL program's `build()` returns one). */
export type FunctionRegistry = Readonly<Record<string, LogicFunction>>;

export type CompiledLogic = (vars: object) => unknown;

export function compileLogic(
  logic: Logic,
  context: ExpressionContext,
  functions: FunctionRegistry,
  where: string,
): CompiledLogic {
  if (isFunctionRef(logic)) {
    const fn = Object.prototype.hasOwnProperty.call(functions, logic.function)
      ? functions[logic.function]
      : undefined;
    if (typeof fn !== 'function') {
      throw new EngineError(
        'INVALID_PLAN',
        `${where}: function "${logic.function}" is not in the function registry (TypeScript logic only runs in the program that defined it)`,
      );
    }
    return fn as CompiledLogic;
  }
  const compiled = compileExpression(logic, context);
  return (vars) => compiled.evaluate(vars as never);
}

function isFunctionRef(logic: Logic): logic is FunctionRef {
  return (
    typeof logic === 'object' &&
    logic !== null &&
    typeof (logic as { function?: unknown }).function === 'string'
  );
}
