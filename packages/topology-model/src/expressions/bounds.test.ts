// Expressions in bounded time: RE2 semantics for matches() (linear, no lookarounds or
// backreferences) and a cost budget per evaluation counted in evaluation steps.
import { describe, expect, it } from 'vitest';
import {
  compileExpression,
  DEFAULT_COST_BUDGET,
  ExpressionError,
  type RecordVariables,
} from './index.js';

const record = (value: unknown): RecordVariables => ({
  key: 'k',
  value,
  timestamp: 0,
  headers: {},
});

function thrown(fn: () => unknown): ExpressionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error as ExpressionError;
  }
  throw new Error('expected an ExpressionError');
}

describe('matches() with RE2 semantics', () => {
  it('answers catastrophic patterns at once (a backtracking engine takes minutes)', () => {
    // JavaScript's RegExp needs about 2^n steps here: 51 s for 32 a's on this machine.
    const f = compileExpression('value.s.matches("^(a+)+$")', 'filter');
    expect(f.evaluate(record({ s: `${'a'.repeat(34)}!` }))).toBe(false);
    expect(f.evaluate(record({ s: 'a'.repeat(100_000) }))).toBe(true);
    const g = compileExpression('value.s.matches(value.p)', 'filter');
    expect(g.evaluate(record({ s: 'x'.repeat(5000), p: '(x+x+)+y' }))).toBe(false);
  });

  it('matches a substring, as CEL specifies', () => {
    const f = compileExpression('value.s.matches("b+c")', 'filter');
    expect(f.evaluate(record({ s: 'abbbcd' }))).toBe(true);
    expect(f.evaluate(record({ s: 'abd' }))).toBe(false);
  });

  it('refuses what RE2 does not have: a literal pattern at compile time, with its position', () => {
    const err = thrown(() => compileExpression('value.s.matches("a(?=b)")', 'filter'));
    expect(err.celCode).toBe('invalid_regular_expression');
    expect(err.message).toMatch(/RE2/);
    expect(err.position.offset).toBe('value.s.matches('.length);
    // A pattern computed per record fails that evaluation.
    const f = compileExpression('value.s.matches(value.p)', 'filter');
    const run = thrown(() => f.evaluate(record({ s: 'aa', p: '(a)\\1' })));
    expect(run.kind).toBe('runtime');
    expect(run.celCode).toBe('invalid_regular_expression');
  });
});

describe('the cost budget', () => {
  it('stops an evaluation that would visit millions of nodes, naming the budget', () => {
    const list = `[${Array.from({ length: 1000 }, (_, i) => i).join(',')}]`;
    const f = compileExpression(`${list}.all(x, ${list}.all(y, x + y >= 0))`, 'filter');
    const err = thrown(() => f.evaluate(record({})));
    expect(err.kind).toBe('runtime');
    expect(err.celCode).toBe('cost_budget_exceeded');
    expect(err.message).toContain(String(DEFAULT_COST_BUDGET));
  });

  it('counts per evaluation, comprehension iterations included', () => {
    const f = compileExpression('value.xs.all(x, x > 0)', 'filter', { costBudget: 50 });
    expect(f.evaluate(record({ xs: [1, 2, 3] }))).toBe(true);
    expect(f.evaluate(record({ xs: [1, 2, 3] }))).toBe(true); // a fresh budget each time
    const err = thrown(() => f.evaluate(record({ xs: Array.from({ length: 100 }, () => 1) })));
    expect(err.celCode).toBe('cost_budget_exceeded');
  });
});
