import { describe, expect, it } from 'vitest';
import { streamsTaskAssignor, tasksFor } from './task-assignor.js';

const members = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    memberId: `app-StreamThread-${i + 1}-consumer-${i}`,
    topics: ['a', 'b', 'r'],
  }));

describe('streams task assignor', () => {
  // Sub-topology 0 reads a and b (co-partitioned, 4 partitions), sub-topology 1 reads r (4).
  const subs = [
    { id: 0, sourceTopics: ['a', 'b'] },
    { id: 1, sourceTopics: ['r'] },
  ];
  const partitions = new Map([
    ['a', 4],
    ['b', 4],
    ['r', 4],
  ]);

  it('gives every partition of a task, and every task of one partition number, to the same member', () => {
    const assignment = streamsTaskAssignor(subs).assign(members(2), partitions);
    const owner = new Map<string, string>();
    for (const [member, tps] of assignment)
      for (const tp of tps) owner.set(`${tp.topic}-${tp.partition}`, member);
    expect(owner.size).toBe(12);
    for (let p = 0; p < 4; p++) {
      expect(new Set([owner.get(`a-${p}`), owner.get(`b-${p}`), owner.get(`r-${p}`)]).size).toBe(1);
    }
    // balanced: 2 partition numbers (6 topic-partitions) each
    expect([...assignment.values()].map((tps) => tps.length)).toEqual([6, 6]);
  });

  it('balances task counts when sub-topologies have different partition counts', () => {
    const counts = new Map([
      ['a', 5],
      ['b', 5],
      ['r', 1],
    ]);
    const tasks = tasksFor(subs, counts).map((t) => t.taskId);
    expect(tasks).toEqual(['0_0', '0_1', '0_2', '0_3', '0_4', '1_0']);
    const assignment = streamsTaskAssignor(subs).assign(members(3), counts);
    const tasksPerMember = [...assignment.values()].map(
      (tps) => new Set(tps.map((tp) => `${tp.topic === 'r' ? 1 : 0}_${tp.partition}`)).size,
    );
    expect(tasksPerMember.sort()).toEqual([2, 2, 2]);
  });

  it('assigns nothing to nobody', () => {
    expect(streamsTaskAssignor(subs).assign([], partitions).size).toBe(0);
  });
});
