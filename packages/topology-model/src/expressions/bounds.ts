// Expressions in bounded time. Two things let one CEL expression freeze the runtime with cel-js
// alone: `matches()` runs JavaScript's backtracking RegExp (`"^(a+)+$"` against 32 a's and a `!`
// took 51 s), and nothing bounds how much an evaluation may do (nested comprehensions over lists).
// CEL specifies RE2 semantics for `matches`, which run in linear time: re2js (pure JavaScript) is
// used instead. And every evaluation gets a cost budget, counted by the evaluator itself (one unit
// per AST node evaluated, so each comprehension iteration costs its step's nodes), never wall time.
//
// cel-js offers no hook for either (its `string.matches` overload cannot be replaced and its
// evaluator is private), so the checked AST of each compiled program is instrumented once, at
// compile time: every node's `evaluate` (what cel-js's evaluator calls for each node it visits) is
// wrapped by a counter, and `matches` calls evaluate their operands and match them with RE2.
import { RE2JS } from 're2js';

/** The default budget: nodes evaluated per evaluation (a filter of 10 conditions costs about 30). */
export const DEFAULT_COST_BUDGET = 100_000;

/** Thrown when an evaluation goes over its budget; becomes an ExpressionError `cost_budget_exceeded`. */
export class CostBudgetExceeded extends Error {
  override readonly name = 'CostBudgetExceeded';
  constructor(readonly budget: number) {
    super(
      `the expression exceeded its cost budget of ${budget} evaluation steps (AST nodes evaluated, comprehension iterations included)`,
    );
  }
}

/** A regular expression RE2 refuses (lookarounds, backreferences, bad syntax). */
export class InvalidRegularExpression extends Error {
  override readonly name = 'InvalidRegularExpression';
  /** Where the pattern is in the expression's source, when it is a literal. */
  offset = 0;
  constructor(
    readonly pattern: string,
    reason: string,
  ) {
    super(`invalid regular expression ${JSON.stringify(pattern)} (CEL uses RE2 syntax): ${reason}`);
  }
}

const compiled = new Map<string, RE2JS>();
const MAX_CACHED_PATTERNS = 512;

/** RE2 compiled once per pattern (patterns computed per record are cached, up to a bound). */
export function re2(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (re) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    throw new InvalidRegularExpression(
      pattern,
      (err as Error).message.replace(/^error parsing regexp: /, ''),
    );
  }
  if (compiled.size >= MAX_CACHED_PATTERNS) compiled.delete(compiled.keys().next().value!);
  compiled.set(pattern, re);
  return re;
}

/** CEL's `matches`: does any substring of `s` match `pattern` (RE2 syntax, linear time)? */
export function re2Matches(s: string, pattern: string): boolean {
  return re2(pattern).test(s);
}

/** The evaluation counter of one compiled program (evaluations are synchronous: one at a time). */
export interface Meter {
  used: number;
  budget: number;
}

// The parts of cel-js's AST node this relies on (lib/parser.js ASTNode; pinned version).
interface CelNode {
  op: string;
  args: unknown;
  start: number;
  readonly meta: {
    evaluate: (ev: unknown, ast: CelNode, ctx: unknown) => unknown;
    alternate?: CelNode;
    macro?: { evaluate: (ev: unknown, macro: unknown, ctx: unknown) => unknown };
  };
  evaluate: (ev: Evaluator, ast: CelNode, ctx: unknown) => unknown;
}
interface Evaluator {
  run(ast: CelNode, ctx: unknown): unknown;
}

/**
 * Instruments a checked program's AST (see the top of this file). Literal patterns of `matches`
 * are compiled now, so a pattern RE2 refuses is an error at compile time.
 */
export function instrument(root: unknown, meter: Meter): void {
  const NodeClass = (root as object).constructor;
  const seen = new Set<object>();
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (v instanceof NodeClass) {
      const node = v as CelNode;
      meterNode(node, meter);
      visit(node.args);
      visit(node.meta.alternate);
      visit(node.meta.macro);
    } else if (Array.isArray(v)) for (const x of v) visit(x);
    else if (Object.getPrototypeOf(v) === Object.prototype)
      for (const x of Object.values(v)) visit(x);
  };
  visit(root);
}

function meterNode(node: CelNode, meter: Meter): void {
  const meta = node.meta;
  const matches = matchesOperands(node);
  if (matches) {
    const [subject, pattern] = matches;
    if (pattern.op === 'value' && typeof pattern.args === 'string') {
      try {
        re2(pattern.args);
      } catch (err) {
        if (err instanceof InvalidRegularExpression) err.offset = pattern.start;
        throw err;
      }
    }
    node.evaluate = (ev, _ast, ctx) => {
      if (++meter.used > meter.budget) throw new CostBudgetExceeded(meter.budget);
      const s = ev.run(subject, ctx);
      const p = ev.run(pattern, ctx);
      if (typeof s === 'string' && typeof p === 'string') return re2Matches(s, p);
      return meta.evaluate(ev, node, ctx); // not two strings: cel-js's own error
    };
    return;
  }
  // The dispatch of cel-js's ASTNode.evaluate, resolved once (the program is checked: its meta is
  // final) and counted. A node standing for another (a macro's expansion) leaves the counting to it.
  const { alternate, macro, evaluate } = meta;
  if (alternate) node.evaluate = (ev, _ast, ctx) => alternate.evaluate(ev, alternate, ctx);
  else if (macro)
    node.evaluate = (ev, _ast, ctx) => {
      if (++meter.used > meter.budget) throw new CostBudgetExceeded(meter.budget);
      return macro.evaluate(ev, macro, ctx);
    };
  else
    node.evaluate = (ev, ast, ctx) => {
      if (++meter.used > meter.budget) throw new CostBudgetExceeded(meter.budget);
      return evaluate(ev, ast, ctx);
    };
}

/** `s.matches(p)` (a receiver call) or `matches(s, p)`: the subject and pattern nodes. */
function matchesOperands(node: CelNode): [CelNode, CelNode] | null {
  const args = node.args as unknown[];
  if (node.op === 'rcall' && args[0] === 'matches') {
    const rest = args[2] as CelNode[];
    if (rest.length === 1) return [args[1] as CelNode, rest[0]!];
  }
  if (node.op === 'call' && args[0] === 'matches') {
    const rest = args[1] as CelNode[];
    if (rest.length === 2) return [rest[0]!, rest[1]!];
  }
  return null;
}
