import { describe, expect, it } from 'vitest';
import { LogErrorCode } from '../errors.js';
import { Log } from '../log.js';
import type { TopicPartition } from '../types.js';
import { bytes, openTestLog, tmpDir } from '../../test/helpers.js';
import { rangeAssignor, roundRobinAssignor } from './assignors.js';
import { javaStringHash } from './offsets-store.js';

const tps = (list: TopicPartition[]) => list.map((tp) => `${tp.topic}-${tp.partition}`).sort();

describe('assignors (Kafka semantics)', () => {
  const members = [
    { memberId: 'c1', topics: ['t0', 't1'] },
    { memberId: 'c0', topics: ['t0', 't1'] },
  ];
  const sizes = new Map([
    ['t0', 3],
    ['t1', 3],
  ]);
  it('range: contiguous ranges per topic, extra partitions to the first members', () => {
    // As RangeAssignorTest.testTwoConsumersTwoTopicsSixPartitions: c0 gets t0-0,1 and t1-0,1.
    const a = rangeAssignor.assign(members, sizes);
    expect(tps(a.get('c0')!)).toEqual(['t0-0', 't0-1', 't1-0', 't1-1']);
    expect(tps(a.get('c1')!)).toEqual(['t0-2', 't1-2']);
  });
  it('roundrobin: all partitions dealt in turn', () => {
    // As RoundRobinAssignorTest.testTwoConsumersTwoTopicsSixPartitions.
    const a = roundRobinAssignor.assign(members, sizes);
    expect(tps(a.get('c0')!)).toEqual(['t0-0', 't0-2', 't1-1']);
    expect(tps(a.get('c1')!)).toEqual(['t0-1', 't1-0', 't1-2']);
  });
  it('hashes group ids like Java String.hashCode', () => {
    expect(javaStringHash('hello')).toBe(99162322);
    // The classic collision of Java's hash: "Aa" and "BB" are both 2112.
    expect([javaStringHash('Aa'), javaStringHash('BB'), javaStringHash('')]).toEqual([
      2112, 2112, 0,
    ]);
  });
});

describe('consumer groups', () => {
  it('members joining in the same turn of the event loop share one rebalance', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 4);
    const revoked: string[] = [];
    const join = (clientId: string) =>
      log.joinGroup('g', {
        topics: ['t'],
        clientId,
        onRevoked: (p) => void (p.length > 0 && revoked.push(clientId)),
      });
    const [a, b] = await Promise.all([join('a'), join('b')]);
    expect(log.describeGroup('g').generation).toBe(1);
    expect(a.generation).toBe(1);
    expect(a.assignment()).toHaveLength(2);
    expect(b.assignment()).toHaveLength(2);
    expect(tps([...a.assignment(), ...b.assignment()])).toEqual(['t-0', 't-1', 't-2', 't-3']);
    expect(revoked).toEqual([]);
    await log.close();
  });
  it('shares partitions among members (a queue) and gives each group everything (pub/sub)', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 4);
    const a = await log.joinGroup('g', { topics: ['t'], clientId: 'a' });
    expect(a.assignment()).toHaveLength(4);
    const gen1 = a.generation;
    const seen: TopicPartition[][] = [];
    a.onAssignment((p) => seen.push(p));
    const b = await log.joinGroup('g', { topics: ['t'], clientId: 'b' });
    expect(a.generation).toBe(gen1 + 1);
    expect(a.assignment()).toHaveLength(2);
    expect(b.assignment()).toHaveLength(2);
    expect(tps([...a.assignment(), ...b.assignment()])).toEqual(['t-0', 't-1', 't-2', 't-3']);
    expect(seen).toHaveLength(1);
    const other = await log.joinGroup('other', { topics: ['t'] });
    expect(other.assignment()).toHaveLength(4);
    await b.leave();
    expect(a.assignment()).toHaveLength(4);
    expect(log.describeGroup('g').members).toHaveLength(1);
  });

  it('revokes before assigning (eager) and rebalances when partitions are added', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    const events: string[] = [];
    await log.joinGroup('g', {
      topics: ['t'],
      onRevoked: (p) => void events.push(`revoked ${p.length}`),
      onAssigned: (p) => void events.push(`assigned ${p.length}`),
    });
    await log.createPartitions('t', 3);
    // The rebalance runs on its own, after an fsynced write of the generation: wait for it.
    for (let waited = 0; events.length < 3 && waited < 2000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    expect(events).toEqual(['assigned 2', 'revoked 2', 'assigned 3']);
  });

  it('accepts a fenced commit from a revoking member (PreparingRebalance), as Kafka does', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    let revokeCommit: Promise<void> | null = null;
    const a = await log.joinGroup('g', { topics: ['t'] });
    a.onRevocation(() => {
      // Like a stream thread: the commit comes after some asynchronous work (flushing output).
      revokeCommit = new Promise((r) => setTimeout(r, 10)).then(() =>
        a.commit([{ topic: 't', partition: 0, offset: 5 }]),
      );
      return revokeCommit;
    });
    await log.joinGroup('g', { topics: ['t'] });
    expect(revokeCommit).not.toBeNull();
    await revokeCommit;
    expect(log.describeGroup('g').members).toHaveLength(2);
    expect(log.describeGroup('g').offsets).toContainEqual(
      expect.objectContaining({ topic: 't', partition: 0, committed: 5 }),
    );
  });

  it('waits for revocation listeners registered after joining before partitions move', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    const a = await log.joinGroup('g', { topics: ['t'] });
    const order: string[] = [];
    a.onRevocation(async (revoked) => {
      order.push(`a revokes ${revoked.length}`);
      await new Promise((r) => setTimeout(r, 50));
      order.push('a committed');
    });
    await log.joinGroup('g', {
      topics: ['t'],
      onAssigned: (p) => void order.push(`b gets ${p.length}`),
    });
    expect(order).toEqual(['a revokes 2', 'a committed', 'b gets 1']);
  });

  it('removes a member that stops heartbeating after session.timeout.ms and fences its commits', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 2);
    const quiet = await log.joinGroup('g', {
      topics: ['t'],
      sessionTimeoutMs: 150,
      autoHeartbeat: false,
    });
    const alive = await log.joinGroup('g', { topics: ['t'], sessionTimeoutMs: 5000 }); // roomy: CI can stall
    const staleGeneration = quiet.generation;
    // The session check runs on a timer; on a loaded machine it may come late: wait for it.
    const deadline = Date.now() + 10_000;
    while (alive.assignment().length !== 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(alive.assignment()).toHaveLength(2);
    expect(() => quiet.heartbeat()).toThrow(
      expect.objectContaining({ code: LogErrorCode.UNKNOWN_MEMBER_ID }),
    );
    await expect(quiet.commit([{ topic: 't', partition: 0, offset: 1 }])).rejects.toMatchObject({
      code: LogErrorCode.UNKNOWN_MEMBER_ID,
    });
    expect(alive.generation).toBeGreaterThan(staleGeneration);
    // REBALANCE_IN_PROGRESS is retriable (as in Kafka): the survivor may still be syncing.
    for (;;) {
      try {
        await alive.commit([{ topic: 't', partition: 0, offset: 0 }]);
        break;
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        if (code !== LogErrorCode.REBALANCE_IN_PROGRESS || Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });

  it('refuses a member asking for a different assignor', async () => {
    const log = await openTestLog();
    await log.createTopic('t', 1);
    await log.joinGroup('g', { topics: ['t'], assignor: 'range' });
    await expect(
      log.joinGroup('g', { topics: ['t'], assignor: 'roundrobin' }),
    ).rejects.toMatchObject({
      code: LogErrorCode.INCONSISTENT_GROUP_PROTOCOL,
    });
  });

  it('stores committed offsets durably, resets by policy and reports lag', async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('t', 2);
    for (let i = 0; i < 10; i++)
      await log.produce([{ topic: 't', partition: i % 2, key: null, value: bytes(String(i)) }]);
    const m = await log.joinGroup('g', { topics: ['t'] });
    expect(m.startingOffsets('earliest').map((p) => p.offset)).toEqual([0, 0]);
    expect(m.startingOffsets('latest').map((p) => p.offset)).toEqual([5, 5]);
    await m.commit([{ topic: 't', partition: 0, offset: 3, metadata: 'm' }]);
    await log.commitOffsets('g', [{ topic: 't', partition: 1, offset: 5 }]);
    expect(m.startingOffsets('earliest').map((p) => p.offset)).toEqual([3, 5]);
    const d = log.describeGroup('g');
    expect(d.totalLag).toBe(2);
    await log.close();
    const again = await Log.open({ dataDir: dir, background: false });
    try {
      expect(again.committedOffsets('g').map((c) => [c.partition, c.offset, c.metadata])).toEqual([
        [0, 3, 'm'],
        [1, 5, ''],
      ]);
      const listed = again.listGroups().find((g) => g.groupId === 'g')!;
      expect(listed.state).toBe('Empty');
      expect(listed.totalLag).toBe(2);
      expect(listed.generation).toBeGreaterThan(0);
      await again.deleteGroup('g');
      expect(again.committedOffsets('g')).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('deleteOffsets forgets the given partitions only, durably (Kafka OffsetDelete)', async () => {
    const dir = tmpDir();
    const log = await Log.open({ dataDir: dir, background: false });
    await log.createTopic('t', 2);
    await log.commitOffsets('g', [
      { topic: 't', partition: 0, offset: 4 },
      { topic: 't', partition: 1, offset: 7 },
    ]);
    await log.deleteOffsets('g', [
      { topic: 't', partition: 0 },
      { topic: 'unknown', partition: 3 },
    ]);
    expect(log.committedOffsets('g').map((c) => [c.partition, c.offset])).toEqual([[1, 7]]);
    await log.close();
    const again = await Log.open({ dataDir: dir, background: false });
    try {
      expect(again.committedOffsets('g').map((c) => [c.partition, c.offset])).toEqual([[1, 7]]);
    } finally {
      await again.close();
    }
  });
});
