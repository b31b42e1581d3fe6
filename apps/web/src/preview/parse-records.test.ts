import { describe, expect, it } from 'vitest';
import { parseRecordLines } from './parse-records.js';

describe('typed preview records', () => {
  it('reads `key: value` lines with JSON values and plain values with a null key', () => {
    expect(
      parseRecordLines(
        'alice: {"amount": 120}\n\n{"amount": 5, "note": "a: b"}\nbob: hello\n42',
        'orders',
      ),
    ).toEqual([
      { topic: 'orders', key: 'alice', value: { amount: 120 } },
      { topic: 'orders', key: null, value: { amount: 5, note: 'a: b' } },
      { topic: 'orders', key: 'bob', value: 'hello' },
      { topic: 'orders', key: null, value: 42 },
    ]);
  });

  it('sends the lines after `@topic` to that topic, in the order typed', () => {
    expect(parseRecordLines('@users\nu1: Ann\n@clicks\nu1: home\n@users\nu2: Bob', 'x')).toEqual([
      { topic: 'users', key: 'u1', value: 'Ann' },
      { topic: 'clicks', key: 'u1', value: 'home' },
      { topic: 'users', key: 'u2', value: 'Bob' },
    ]);
  });
});
