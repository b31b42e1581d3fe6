import { describe, expect, it } from 'vitest';
import { lagColour, lagOf } from './lag.js';

describe('lag', () => {
  it('colours like NiFi back-pressure: green < 60 %, yellow < 85 %, red above', () => {
    expect([0, 0.59, 0.6, 0.84, 0.85, 2].map(lagColour)).toEqual([
      'green',
      'green',
      'yellow',
      'yellow',
      'red',
      'red',
    ]);
  });
  it('sums the known lag of matching partitions', () => {
    const by = { 'a-0': 3, 'a-1': null, 'ab-0': 100, 'b-0': 7 };
    expect(lagOf(by, (k) => k.startsWith('a-'))).toBe(3);
    expect(lagOf(by, (k) => k === 'a-1')).toBeNull();
  });
});
