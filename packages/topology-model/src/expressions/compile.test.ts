import { describe, expect, it } from 'vitest';
import {
  checkExpression,
  compileExpression,
  ExpressionError,
  type RecordVariables,
} from './index.js';

const record = (value: unknown, extra: Partial<RecordVariables> = {}): RecordVariables => ({
  key: 'k1',
  value,
  timestamp: 1_700_000_000_123,
  headers: {},
  ...extra,
});

const mapValues = (source: string, value: unknown, extra?: Partial<RecordVariables>): unknown =>
  compileExpression(source, 'mapValues').evaluate(record(value, extra));

function thrown(fn: () => unknown): ExpressionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error as ExpressionError;
  }
  throw new Error('expected an ExpressionError');
}

describe('numbers from JSON', () => {
  it('treats an integral JSON number as int, so value.qty * 2 stays integral', () => {
    expect(mapValues('value.qty * 2', { qty: 3 })).toBe(6);
    expect(compileExpression('type(value.qty) == int', 'filter').evaluate(record({ qty: 3 }))).toBe(
      true,
    );
  });

  it('treats a fractional JSON number as double and still multiplies it by an int literal', () => {
    expect(mapValues('value.qty * 2', { qty: 2.5 })).toBe(5);
  });

  it('multiplies by a double literal whether the field arrived as int or double', () => {
    expect(mapValues('value.price * 1.5', { price: 2 })).toBe(3);
    expect(mapValues('value.price * 1.5', { price: 2.5 })).toBe(3.75);
  });

  it('supports every mixed int/double arithmetic operator with a double result', () => {
    expect(
      mapValues(
        '[value.i + 0.5, 0.5 + value.i, value.i - 0.5, value.d - 1, value.i * 0.5, value.i / 4.0, value.d / 2]',
        { i: 3, d: 2.5 },
      ),
    ).toEqual([3.5, 3.5, 2.5, 1.5, 1.5, 0.75, 1.25]);
    // Statically typed too: timestamp is an int variable.
    expect(mapValues('timestamp + 0.5', null, { timestamp: 10 })).toBe(10.5);
  });

  it('keeps CEL integer division for int / int (truncating), as documented', () => {
    expect(mapValues('value.qty / 2', { qty: 7 })).toBe(3);
    expect(mapValues('value.qty / 2.0', { qty: 7 })).toBe(3.5);
    expect(mapValues('double(value.qty) / 2', { qty: 7 })).toBe(3.5);
  });

  it('compares ints and doubles by numeric value', () => {
    const f = compileExpression('value.amount > 100', 'filter');
    expect(f.evaluate(record({ amount: 100.5 }))).toBe(true);
    expect(f.evaluate(record({ amount: 100 }))).toBe(false);
    expect(compileExpression('value.x == 2.0', 'filter').evaluate(record({ x: 2 }))).toBe(true);
    expect(compileExpression('value.x != 2.5', 'filter').evaluate(record({ x: 2 }))).toBe(true);
    expect(
      compileExpression('timestamp < 5.5', 'filter').evaluate(record(null, { timestamp: 5 })),
    ).toBe(true);
  });

  it('works inside macros over JSON lists', () => {
    expect(mapValues('value.items.map(i, i * 1.5)', { items: [1, 2.5] })).toEqual([1.5, 3.75]);
    expect(mapValues('value.items.exists(i, i == 2)', { items: [1, 2] })).toBe(true);
    expect(mapValues('value.items.filter(i, i > 1).size()', { items: [1, 2, 3.5] })).toBe(2);
  });

  it('has no double modulo, as in CEL', () => {
    expect(mapValues('value.n % 7', { n: 9 })).toBe(2);
    expect(thrown(() => mapValues('value.n % 7', { n: 2.5 })).message).toBe(
      'no such overload: double % int',
    );
  });

  it('treats integral numbers beyond 2^53 as doubles (JSON.parse has already rounded them)', () => {
    expect(
      compileExpression('type(value.n) == double', 'filter').evaluate(record({ n: 2 ** 60 })),
    ).toBe(true);
  });

  it('refuses to return an int that a JSON number cannot hold exactly', () => {
    const error = thrown(() => mapValues('9007199254740993', null));
    expect(error.kind).toBe('runtime');
    expect(error.message).toMatch(/9007199254740993 does not fit a JSON number/);
  });
});

describe('mapValues results', () => {
  it('builds a mixed-type map literal without dyn(...)', () => {
    expect(
      mapValues('{"user": value.user, "total": value.qty * 2}', { user: 'u1', qty: 3 }),
    ).toEqual({ user: 'u1', total: 6 });
  });

  it('returns plain objects, arrays, bytes and JSON-friendly scalars', () => {
    const out = mapValues(
      '{"list": [1, 2.5, "x", null, true], "nested": {"a": {"b": 1}}, "bytes": b"hi", "ints": {1: "one"}}',
      null,
    );
    expect(out).toEqual({
      list: [1, 2.5, 'x', null, true],
      nested: { a: { b: 1 } },
      bytes: new Uint8Array([104, 105]),
      ints: { 1: 'one' },
    });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('maps timestamps, durations and types to their protobuf JSON strings', () => {
    expect(mapValues('timestamp("2024-01-01T00:00:00Z")', null)).toBe('2024-01-01T00:00:00.000Z');
    expect(mapValues('duration("90s")', null)).toBe('90s');
    expect(mapValues('type(value)', 'x')).toBe('string');
  });

  it('passes the record value through unchanged and does not mutate the input', () => {
    const input = { a: 1, b: [1.5, { c: 2 }], s: 'x' };
    const copy = structuredClone(input);
    expect(mapValues('value', input)).toEqual(copy);
    expect(input).toEqual(copy);
  });

  it('keeps a "__proto__" JSON key as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": 1}, "a": 1}') as Record<string, unknown>;
    const out = mapValues('value', input) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads key, timestamp and headers', () => {
    expect(
      mapValues('[key, timestamp, headers["h"]]', null, {
        key: 'user-1',
        timestamp: 42,
        headers: { h: 'v' },
      }),
    ).toEqual(['user-1', 42, 'v']);
  });

  it('defaults a missing field with optional chaining or has()', () => {
    expect(mapValues('value.?qty.orValue(0)', {})).toBe(0);
    expect(mapValues('has(value.qty) ? value.qty : -1', {})).toBe(-1);
  });
});

describe('filters', () => {
  it('evaluates the documented example', () => {
    const f = compileExpression('value.amount > 100 && value.user != "u3"', 'filter');
    expect(f.resultType).toBe('bool');
    expect(f.evaluate(record({ amount: 150, user: 'u1' }))).toBe(true);
    expect(f.evaluate(record({ amount: 150, user: 'u3' }))).toBe(false);
    expect(f.evaluate(record({ amount: 50, user: 'u1' }))).toBe(false);
  });

  it('refuses a statically non-bool filter at compile time', () => {
    const error = thrown(() => compileExpression('1 + 2', 'filter'));
    expect(error.kind).toBe('type');
    expect(error.message).toBe('a filter must return bool, but this expression returns int');
  });

  it('fails at run time when a dyn filter yields a non-bool', () => {
    const f = compileExpression('value.flag', 'filter');
    expect(f.evaluate(record({ flag: true }))).toBe(true);
    const error = thrown(() => f.evaluate(record({ flag: 1 })));
    expect(error.kind).toBe('runtime');
    expect(error.message).toBe('a filter must return bool, but it returned int (1)');
  });
});

describe('generators', () => {
  it('evaluates seq and now as ints', () => {
    const value = compileExpression(
      '{"user": "u" + string(seq % 7), "amount": (seq * 37) % 250, "at": now}',
      'generatorValue',
    );
    expect(value.evaluate({ seq: 9, now: 1000 })).toEqual({ user: 'u2', amount: 83, at: 1000 });
    expect(
      compileExpression('"u" + string(seq % 7)', 'generatorKey').evaluate({ seq: 3, now: 0 }),
    ).toBe('u3');
  });

  it('does not know record variables', () => {
    const error = thrown(() => compileExpression('value.x', 'generatorValue'));
    expect(error.kind).toBe('type');
    expect(error.message).toMatch(/value/);
  });
});

describe('errors', () => {
  it('reports a syntax error with line, column and offset', () => {
    const error = thrown(() => compileExpression('value.qty +\n  ', 'mapValues'));
    expect(error.kind).toBe('syntax');
    expect(error.position).toEqual({ line: 2, column: 3, offset: 14 });
    expect(error.message).toMatch(/Unexpected token/);
  });

  it('reports a type error with its position', () => {
    const error = thrown(() => compileExpression('value.a &&\n  1 + "x" == "y"', 'filter'));
    expect(error.kind).toBe('type');
    expect(error.message).toBe('no such overload: int + string');
    expect(error.position).toEqual({ line: 2, column: 3, offset: 13 });
  });

  it('names the missing field at run time', () => {
    const f = compileExpression('value.qty * 2', 'mapValues');
    const error = thrown(() => f.evaluate(record({ amount: 1 })));
    expect(error.kind).toBe('runtime');
    expect(error.message).toBe('no such key: qty');
    expect(error.position.offset).toBe(6);
  });

  it('hides the dyn wrapper in overload errors', () => {
    const error = thrown(() => mapValues('key + 1', null, { key: null }));
    expect(error.message).toBe('no such overload: null + int');
  });

  it('checkExpression reports without throwing', () => {
    expect(checkExpression('value.a > 1', 'filter')).toEqual({ ok: true, resultType: 'bool' });
    expect(checkExpression('value.amount >', 'filter')).toEqual({
      ok: false,
      kind: 'syntax',
      message: 'Unexpected token: EOF',
      position: { line: 1, column: 15, offset: 14 },
    });
    expect(checkExpression('nope', 'mapValues')).toMatchObject({ ok: false, kind: 'type' });
  });
});
