import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileExpression } from './index.js';
import { fromCel, toCel } from './values.js';

describe('JSON ⇄ CEL value conversion', () => {
  it('returns any JSON value unchanged through `value` (property)', () => {
    const identity = compileExpression('value', 'mapValues');
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        // JSON.parse gives the shape the json serde hands to the engine.
        const value = JSON.parse(JSON.stringify(json)) as unknown;
        const out = identity.evaluate({ key: null, value, timestamp: 0, headers: {} });
        expect(JSON.stringify(out)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('classifies numbers by value: safe integers become CEL ints, the rest doubles', () => {
    expect(toCel(3)).toBe(3n);
    expect(toCel(-0)).toBe(0n);
    expect(toCel(2.5)).toBe(2.5);
    expect(toCel(2 ** 53)).toBe(2 ** 53);
    expect(toCel({ a: [1, 1.5], b: { c: 7 } })).toEqual({ a: [1n, 1.5], b: { c: 7n } });
  });

  it('drops undefined properties like JSON.stringify does', () => {
    expect(toCel({ a: undefined, b: 1 })).toEqual({ b: 1n });
    const hasA = compileExpression('has(value.a)', 'filter');
    expect(hasA.evaluate({ key: null, value: { a: undefined }, timestamp: 0, headers: {} })).toBe(
      false,
    );
  });

  it('converts CEL maps with non-string keys to plain objects', () => {
    expect(
      fromCel(
        new Map<unknown, unknown>([
          [1n, 'a'],
          [true, 2n],
        ]),
      ),
    ).toEqual({ 1: 'a', true: 2 });
  });
});
