import { describe, expect, it } from 'vitest';
import { enforceCopartitioning } from './copartition.js';

describe('co-partitioning', () => {
  const partitions: Record<string, number> = { orders: 3, users: 3, items: 6, a: 2, b: 3 };
  const of = (t: string) => partitions[t];
  const repartition = (t: string) => t.endsWith('-repartition');

  it('fails with Kafka Streams’ message when user topics differ', () => {
    expect(() => enforceCopartitioning([['b', 'a']], of, repartition)).toThrow(
      'Invalid topology: Topics not co-partitioned: [{a=2, b=3}]',
    );
  });

  it('gives a repartition topic the partition count of the table it is joined with', () => {
    const forced = enforceCopartitioning(
      [
        ['orders', 'users'],
        ['app-by-item-repartition', 'items'],
      ],
      of,
      repartition,
    );
    expect(forced.get('app-by-item-repartition')).toBe(6);
  });
});
