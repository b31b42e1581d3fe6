import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../backend-spi.js';
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
      -1, // never idle: only the order is under test here
    );
    group.queue('a', 0)!.push([rec('a', 0, 5), rec('a', 1, 30)]);
    group.queue('b', 0)!.push([rec('b', 0, 10), rec('b', 1, 20)]);
    const order: string[] = [];
    for (let r = group.next(); r; r = group.next()) order.push(`${r.topic}@${r.timestamp}`);
    expect(order).toEqual(['a@5', 'b@10', 'b@20', 'a@30']);
  });

  // Kafka Streams' PartitionGroup#readyToProcess: an empty partition with unknown or positive lag
  // blocks the task; one known to be caught up gets an idle deadline of now + max.task.idle.ms,
  // which with the default 0 has already passed, so processing goes on and counts as enforced.
  it('max.task.idle.ms=0 waits for unfetched data but not for data not yet produced (enforced)', () => {
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
    expect(group.readiness(0)).toEqual({ ready: true, enforced: true });
    b.push([rec('b', 3, 7)]); // every partition buffered: not enforced
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

describe('PartitionGroup enforced processing', () => {
  it('counts each record processed while a caught-up partition is empty, and -1 never waits nor counts', () => {
    const tps = [
      { topic: 'a', partition: 0 },
      { topic: 'b', partition: 0 },
    ];
    const group = new PartitionGroup(tps, 0);
    group.queue('a', 0)!.push([rec('a', 0, 1), rec('a', 1, 2)]);
    Object.assign(group.queue('b', 0)!, { highWatermark: 0, position: 0 });
    expect(group.next(0)?.offset).toBe(0);
    expect(group.next(0)?.offset).toBe(1);
    expect(group.next(0)).toBeUndefined();
    expect(group.enforced).toBe(2);

    const never = new PartitionGroup(tps, -1);
    never.queue('a', 0)!.push([rec('a', 0, 1)]);
    // b's lag is unknown (never fetched): -1 still does not wait.
    expect(never.next(0)?.offset).toBe(0);
    expect(never.enforced).toBe(0);
  });

  it('restarts the idle deadline once a partition had data again', () => {
    const group = new PartitionGroup(
      [
        { topic: 'a', partition: 0 },
        { topic: 'b', partition: 0 },
      ],
      100,
    );
    const a = group.queue('a', 0)!;
    const b = group.queue('b', 0)!;
    a.push([rec('a', 0, 1), rec('a', 1, 2)]);
    Object.assign(a, { highWatermark: 2, position: 2 });
    Object.assign(b, { highWatermark: 0, position: 0 });
    expect(group.next(1000)).toBeUndefined(); // b idles until 1100
    b.push([rec('b', 0, 5)]);
    expect(group.next(1050)?.topic).toBe('a');
    expect(group.next(1050)?.topic).toBe('a');
    expect(group.enforced).toBe(0); // both partitions had data
    expect(group.next(1050)).toBeUndefined(); // now a idles until 1150
    expect(group.next(1150)?.topic).toBe('b');
    a.push([rec('a', 2, 9)]);
    expect(group.next(1200)).toBeUndefined(); // b drained: it idles until 1300, not the old 1100
    expect(group.next(1300)?.offset).toBe(2);
    expect(group.enforced).toBe(2);
  });
});
