// Validation's typed CEL checks (issue 23): an expression checked with cel-js's type checker
// against the key and value types inferred along the topology's edges (the shared environments
// of environment.ts declare them `dyn`), and a null-safety pass over the AST for variables that
// are null at run time on the optional side of a left or outer join.
//
// This module only checks; it never evaluates. The environment's options and operators come from
// environment.ts (createEnvironment), so the checker accepts exactly what the engine runs.
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { nullBranchHint, positionAt, type SourcePosition } from './errors.js';
import { createEnvironment } from './environment.js';

/** A variable's CEL type as cel-js spells it: `string`, `int`, `map<string, dyn>`, `dyn`. */
export type CelTypeName = string;

export type TypedCheck =
  { ok: true; resultType: CelTypeName } | { ok: false; message: string; position: SourcePosition };

// One base environment with the product's options and operators and no variables; each
// signature of variable types gets a clone (cheap: ~10 µs) that is kept for the next check.
let base: Environment | null = null;
const bySignature = new Map<string, Environment>();
const MAX_CACHED = 256;

function environmentWith(variables: Readonly<Record<string, CelTypeName>>): Environment {
  const signature = JSON.stringify(Object.entries(variables).sort(([a], [b]) => (a < b ? -1 : 1)));
  let env = bySignature.get(signature);
  if (env) return env;
  base ??= typedBase();
  env = base.clone();
  for (const [name, type] of Object.entries(variables)) env.registerVariable(name, type);
  if (bySignature.size >= MAX_CACHED) bySignature.clear();
  bySignature.set(signature, env);
  return env;
}

/**
 * The product's environment plus `T == null` / `T != null` for the types inference gives: any key
 * or value may be null at run time (a tombstone, a join's missing side), so a typed `value` must
 * still compare with null (`value != null && value.startsWith("a")`), as it does when evaluated.
 */
function typedBase(): Environment {
  const env = createEnvironment({});
  for (const type of ['string', 'int', 'uint', 'double', 'bool', 'bytes', 'map', 'list']) {
    // registering `T == null` also registers `null == T` and the `!=` pair
    try {
      env.registerOperator(`${type} == null`, (a: unknown, b: unknown) => a === b);
    } catch {
      // a type this cel-js cannot name in an overload: comparisons with null stay unchecked
    }
  }
  return env;
}

/**
 * Type-checks `source` with the variables declared as given. Parse errors are reported by the
 * untyped check (checkExpression) first; here they only make the result not ok.
 */
export function checkTypedExpression(
  source: string,
  variables: Readonly<Record<string, CelTypeName>>,
): TypedCheck {
  const env = environmentWith(variables);
  let checked: ReturnType<ReturnType<Environment['parse']>['check']>;
  try {
    checked = env.parse(source).check();
  } catch (error) {
    const e = error as { summary?: string; message?: string; range?: { start: number } };
    const message = e.summary ?? e.message ?? String(error);
    return {
      ok: false,
      message: message + nullBranchHint(message),
      position: positionAt(source, e.range?.start ?? 0),
    };
  }
  if (checked.valid) return { ok: true, resultType: checked.type ?? 'dyn' };
  const error = checked.error as { summary?: string; message: string; range?: { start: number } };
  // "dyn<null> + int" → "null + int": the dyn wrapper is an implementation detail
  const message = (error.summary ?? error.message.split('\n')[0] ?? '').replace(
    /dyn<([^<>]+)>/g,
    '$1',
  );
  return {
    ok: false,
    message: message + nullBranchHint(message),
    position: positionAt(source, error.range?.start ?? 0),
  };
}

/** A use of a possibly-null variable where null fails evaluation. */
export interface NullUse {
  variable: string;
  /** What the use is, for messages: `+`, `.field`, `size()`, … */
  usage: string;
  position: SourcePosition;
}

/**
 * Uses of `nullable` variables that fail when the variable is null (CEL has no overload for
 * null in arithmetic, concatenation, member access, most functions), unless guarded: inside the
 * true branch of `v != null ? … : …`, the false branch of `v == null ? … : …`, or after
 * `v != null && …` / `v == null || …`. Tolerant uses: `==`, `!=`, list and map literals,
 * `has(v.f)`, `v.?f`, `dyn(v)`, `type(v)`, and the result itself.
 */
export function unguardedNullUses(source: string, nullable: readonly string[]): NullUse[] {
  if (nullable.length === 0) return [];
  let ast: ASTNode;
  try {
    ast = environmentWith({}).parse(source).ast;
  } catch {
    return []; // a syntax error is reported elsewhere
  }
  const out: NullUse[] = [];
  const watched = new Set(nullable);
  const visit = (node: ASTNode, safe: ReadonlySet<string>, tolerant: boolean): void => {
    const isWatched = (n: unknown): n is ASTNode =>
      isNode(n) && n.op === 'id' && watched.has(n.args) && !safe.has(n.args);
    const report = (n: ASTNode, usage: string): void => {
      out.push({ variable: n.args as string, usage, position: positionAt(source, n.start) });
    };
    switch (node.op) {
      case 'id':
        if (!tolerant && watched.has(node.args) && !safe.has(node.args)) report(node, 'value');
        return;
      case 'value':
        return;
      case '?:': {
        const [cond, then, otherwise] = node.args;
        visit(cond, safe, false);
        visit(then, union(safe, nonNullWhen(cond, true)), true);
        visit(otherwise, union(safe, nonNullWhen(cond, false)), true);
        return;
      }
      case '&&':
      case '||': {
        const [a, b] = node.args;
        visit(a, safe, false);
        visit(b, union(safe, nonNullWhen(a, node.op === '&&')), false);
        return;
      }
      case '==':
      case '!=':
        for (const a of node.args) visit(a, safe, true);
        return;
      case 'list':
        for (const a of node.args) visit(a, safe, true);
        return;
      case 'map':
        for (const [k, v] of node.args) {
          visit(k, safe, false);
          visit(v, safe, true);
        }
        return;
      case '.?':
      case '[?]': {
        const [receiver, field] = node.args;
        if (isNode(receiver)) visit(receiver, safe, true);
        if (isNode(field)) visit(field, safe, false);
        return;
      }
      case '.': {
        const [receiver, field] = node.args;
        if (isWatched(receiver)) report(receiver, `.${field}`);
        else visit(receiver, safe, false);
        return;
      }
      case '[]': {
        const [receiver, index] = node.args;
        if (isWatched(receiver)) report(receiver, '[…]');
        else visit(receiver, safe, false);
        visit(index, safe, false);
        return;
      }
      case 'call': {
        const [name, args] = node.args;
        // has(v.f) is false for a null v; dyn() and type() take any value
        const lenient = name === 'has' || name === 'dyn' || name === 'type';
        for (const a of args) {
          if (lenient) {
            if (name === 'has' && a.op === '.' && isNode(a.args[0])) visit(a.args[0], safe, true);
            else visit(a, safe, true);
          } else if (isWatched(a)) report(a, `${name}()`);
          else visit(a, safe, false);
        }
        return;
      }
      case 'rcall': {
        const [name, receiver, args] = node.args;
        if (isWatched(receiver)) report(receiver, `.${name}()`);
        else visit(receiver, safe, false);
        for (const a of args) visit(a, safe, false);
        return;
      }
      case '!_':
      case '-_': {
        const operand = node.args;
        if (isWatched(operand)) report(operand, node.op === '!_' ? '!' : '-');
        else visit(operand, safe, false);
        return;
      }
      default: {
        // binary operators: + - * / % < <= > >= in
        const [a, b] = node.args as [ASTNode, ASTNode];
        for (const side of [a, b]) {
          // `v in [..]` compares v by equality; the container must not be null
          if (node.op === 'in' && side === a) visit(side, safe, true);
          else if (isWatched(side)) report(side, node.op);
          else visit(side, safe, false);
        }
      }
    }
  };
  visit(ast, new Set(), true);
  return out;
}

function isNode(n: unknown): n is ASTNode {
  return typeof n === 'object' && n !== null && 'op' in n && 'args' in n;
}

function union(a: ReadonlySet<string>, b: readonly string[]): ReadonlySet<string> {
  return b.length === 0 ? a : new Set([...a, ...b]);
}

/** Variables a condition proves non-null when it evaluates to `outcome`. */
function nonNullWhen(cond: ASTNode, outcome: boolean): string[] {
  if (cond.op === '!_') return nonNullWhen(cond.args, !outcome);
  if (cond.op === '&&' && outcome) return cond.args.flatMap((c) => nonNullWhen(c, true));
  if (cond.op === '||' && !outcome) return cond.args.flatMap((c) => nonNullWhen(c, false));
  if (cond.op !== '==' && cond.op !== '!=') return [];
  const [a, b] = cond.args;
  const isNull = (n: ASTNode): boolean => n.op === 'value' && n.args === null;
  const variable = isNull(b) && a.op === 'id' ? a.args : isNull(a) && b.op === 'id' ? b.args : null;
  if (variable === null) return [];
  // `v != null` true, or `v == null` false, proves v non-null
  return (cond.op === '!=') === outcome ? [variable] : [];
}
