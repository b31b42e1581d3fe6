import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../api.js';
import { PartitionGroup } from './partition-group.js';

const rec = (topic: string, offset: number, timestamp: number): StoredRecord => ({
  topic,
  partition: 0,
  offset,
  timestamp,
  key: null,
  value: null,
  headers: {},
});

describe('PartitionGroup', () => {
  it('always picks the buffered head with the lowest timestamp', () => {
    const group = new PartitionGroup(
      [
        { topic: 'a', partition: 0 },
        { topic: 'b', partition: 0 },
      ],
      0,
    );
    group.queue('a', 0)!.push([rec('a', 0, 5), rec('a', 1, 30)]);
    group.queue('b', 0)!.push([rec('b', 0, 10), rec('b', 1, 20)]);
    const order: string[] = [];
    for (let r = group.next(); r; r = group.next()) order.push(`${r.topic}@${r.timestamp}`);
    expect(order).toEqual(['a@5', 'b@10', 'b@20', 'a@30']);
  });

  it('max.task.idle.ms=0 waits for unfetched data but not for data not yet produced', () => {
    const group = new PartitionGroup(
      [
        { topic: 'a', partition: 0 },
        { topic: 'b', partition: 0 },
      ],
      0,
    );
    group.queue('a', 0)!.push([rec('a', 0, 5)]);
    const b = group.queue('b', 0)!;
    b.highWatermark = 3;
    b.position = 1; // two records on the broker, not fetched yet
    expect(group.readiness(0).ready).toBe(false);
    b.position = 3; // caught up: nothing to wait for
    expect(group.readiness(0)).toEqual({ ready: true, enforced: false });
  });

  it('max.task.idle.ms>0 waits for new data, then enforces processing', () => {
    const group = new PartitionGroup(
      [
        { topic: 'a', partition: 0 },
        { topic: 'b', partition: 0 },
      ],
      100,
    );
    group.queue('a', 0)!.push([rec('a', 0, 5)]);
    Object.assign(group.queue('b', 0)!, { highWatermark: 0, position: 0 });
    expect(group.readiness(1000).ready).toBe(false);
    expect(group.readiness(1100)).toEqual({ ready: true, enforced: true });
  });
});
