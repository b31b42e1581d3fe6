// One error type for every way an expression can fail, so callers (validation, the engine's
// processing-exception handler, the designer's inline errors) need a single `instanceof` check
// and always get a position they can point at.

export type ExpressionErrorKind = 'syntax' | 'type' | 'runtime';

/** `line` and `column` are 1-based (as editors show them); `offset` is a 0-based UTF-16 index. */
export interface SourcePosition {
  line: number;
  column: number;
  offset: number;
}

export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
  readonly kind: ExpressionErrorKind;
  readonly position: SourcePosition;
  /** The expression's source text. */
  readonly source: string;
  /** The underlying CEL error code (e.g. `no_such_key`, `unexpected_token`), for programs. */
  readonly celCode: string;

  constructor(init: {
    kind: ExpressionErrorKind;
    message: string;
    source: string;
    offset: number;
    celCode: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.source = init.source;
    this.celCode = init.celCode;
    this.position = positionAt(init.source, init.offset);
  }
}

export function positionAt(source: string, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (source.charCodeAt(i) === 10 /* \n */) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: clamped - lineStart + 1, offset: clamped };
}

/**
 * `cond ? null : "x"` is refused on purpose (docs/EXPRESSIONS.md, "null in a conditional"): CEL
 * types `_?_:_` as (bool, A, A) → A and null is a value of null_type, dyn, JSON and wrapper types
 * only, not of string, int or the other primitives. cel-go and cel-java (Kafka Streams' side of
 * the oracle) refuse it alike ("found no matching overload for '_?_:_' applied to '(bool, null,
 * string)'"). The fix is a dyn branch, which is what the value is at run time anyway.
 */
export function nullBranchHint(message: string): string {
  if (!/^Ternary branches must have the same type, got '(null'|.*' and 'null')/.test(message))
    return '';
  return '; CEL has no nullable string, int or other primitive type: wrap the other branch in dyn(...), e.g. cond ? null : dyn(x)';
}
