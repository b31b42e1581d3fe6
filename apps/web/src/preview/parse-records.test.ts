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
});
