// The contexts added for the DSL's logic kinds: their variables and the result shapes the
// engine relies on (a {key, value} object for map, a list for flatMap(Values), …).
import { describe, expect, it } from 'vitest';
import {
  EXPRESSION_CONTEXTS,
  ExpressionError,
  compileExpression,
  variablesOf,
  type RecordVariables,
} from './index.js';

const record = (value: unknown, key: unknown = 'k'): RecordVariables => ({
  key,
  value,
  timestamp: 5,
  headers: { h: 'v' },
});

function runtimeError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    expect((error as ExpressionError).kind).toBe('runtime');
    return (error as ExpressionError).message;
  }
  throw new Error('expected a runtime error');
}

describe('record contexts', () => {
  it('keyValue returns {key, value} and refuses any other shape', () => {
    const m = compileExpression('{"key": value.user, "value": value.n * 2}', 'keyValue');
    expect(m.evaluate(record({ user: 'u1', n: 3 }))).toEqual({ key: 'u1', value: 6 });
    const dyn = compileExpression('value', 'keyValue');
    expect(dyn.evaluate(record({ key: 1, value: null }))).toEqual({ key: 1, value: null });
    expect(runtimeError(() => dyn.evaluate(record({ key: 1 })))).toBe(
      'a key-value mapper must return a map {"key": …, "value": …}, but it returned map with keys [key]',
    );
    expect(runtimeError(() => dyn.evaluate(record({ key: 1, value: 2, extra: 3 })))).toBe(
      'a key-value mapper must return a map {"key": …, "value": …}, but it returned map with keys [key, value, extra]',
    );
  });

  it('flatMap returns a list of {key, value}; flatMapValues a list', () => {
    const fm = compileExpression('value.map(v, {"key": key, "value": v})', 'flatMap');
    expect(fm.evaluate(record([1, 2], 'a'))).toEqual([
      { key: 'a', value: 1 },
      { key: 'a', value: 2 },
    ]);
    expect(runtimeError(() => compileExpression('value', 'flatMap').evaluate(record([1])))).toBe(
      'a flatMap expression must return a list of maps {"key": …, "value": …}, but it returned list',
    );
    const fmv = compileExpression('value.split(" ")', 'flatMapValues');
    expect(fmv.evaluate(record('a b'))).toEqual(['a', 'b']);
    expect(
      runtimeError(() => compileExpression('value', 'flatMapValues').evaluate(record(3))),
    ).toBe('a flatMapValues expression must return a list, but it returned number (3)');
  });

  it('selectKey returns any key; topicExtractor and print return strings', () => {
    expect(compileExpression('value.user', 'selectKey').evaluate(record({ user: 7 }))).toBe(7);
    const t = compileExpression('value.kind == "a" ? "topic-a" : "topic-b"', 'topicExtractor');
    expect(t.evaluate(record({ kind: 'a' }))).toBe('topic-a');
    expect(
      runtimeError(() => compileExpression('value', 'topicExtractor').evaluate(record(1))),
    ).toBe('a topic extractor must return string, but it returned int (1)');
    expect(
      compileExpression('key + ": " + string(timestamp)', 'print').evaluate(record(null)),
    ).toBe('k: 5');
  });
});

describe('aggregate contexts', () => {
  it('aggregators and reducers read key, value and agg (and nothing else)', () => {
    const agg = compileExpression('agg + value.amount', 'aggregator');
    expect(agg.evaluate({ key: 'k', value: { amount: 2.5 }, agg: 1 })).toBe(3.5);
    const reducer = compileExpression('key == "k" ? agg + value : agg', 'reducer');
    expect(reducer.evaluate({ key: 'k', value: 2, agg: 40 })).toBe(42);
    expect(() => compileExpression('timestamp', 'aggregator')).toThrow(
      'Unknown variable: timestamp',
    );
  });

  it('builds map aggregates without dyn(...) and keeps the input aggregate untouched', () => {
    const agg = compileExpression('{"count": agg.count + 1, "last": value}', 'aggregator');
    const before = { count: 1, last: 'x' };
    expect(agg.evaluate({ key: null, value: 'y', agg: before })).toEqual({ count: 2, last: 'y' });
    expect(before).toEqual({ count: 1, last: 'x' });
  });

  it('initializers have no variables', () => {
    expect(compileExpression('{"count": 0, "items": []}', 'initializer').evaluate({})).toEqual({
      count: 0,
      items: [],
    });
    expect(() => compileExpression('value', 'initializer')).toThrow('Unknown variable: value');
  });
});

it('documents the variables of every context', () => {
  expect(
    Object.fromEntries(EXPRESSION_CONTEXTS.map((c) => [c, Object.keys(variablesOf(c))])),
  ).toEqual({
    filter: ['key', 'value', 'timestamp', 'headers'],
    mapValues: ['key', 'value', 'timestamp', 'headers'],
    selectKey: ['key', 'value', 'timestamp', 'headers'],
    keyValue: ['key', 'value', 'timestamp', 'headers'],
    flatMap: ['key', 'value', 'timestamp', 'headers'],
    flatMapValues: ['key', 'value', 'timestamp', 'headers'],
    topicExtractor: ['key', 'value', 'timestamp', 'headers'],
    print: ['key', 'value', 'timestamp', 'headers'],
    generatorKey: ['seq', 'now'],
    generatorValue: ['seq', 'now'],
    initializer: [],
    aggregator: ['key', 'value', 'agg'],
    reducer: ['key', 'value', 'agg'],
    joiner: ['key', 'left', 'right'],
  });
});

it('compiles the examples docs/EXPRESSIONS.md gives per context', () => {
  const examples: [Parameters<typeof compileExpression>[1], string][] = [
    ['keyValue', '{"key": value.user, "value": value}'],
    ['flatMap', 'value.items.map(i, {"key": i.sku, "value": i})'],
    ['flatMapValues', 'value.split(" ")'],
    ['keyValue', '{"key": value.region, "value": value.amount}'],
    ['initializer', '{"count": 0, "total": 0}'],
    ['aggregator', '{"count": agg.count + 1, "total": agg.total + value.amount}'],
    ['reducer', 'agg + value'],
    ['reducer', 'agg - value'],
    ['topicExtractor', 'value.amount > 100 ? "large-orders" : "small-orders"'],
  ];
  for (const [context, source] of examples)
    expect(() => compileExpression(source, context)).not.toThrow();
  const flat = compileExpression('value.items.map(i, {"key": i.sku, "value": i})', 'flatMap');
  expect(flat.evaluate(record({ items: [{ sku: 'a' }] }))).toEqual([
    { key: 'a', value: { sku: 'a' } },
  ]);
});
