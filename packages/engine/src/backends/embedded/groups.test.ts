import { describe, expect, it } from 'vitest';
import type { TopicPartition } from '../../backend-spi.js';
import { createEmbeddedBackend } from './embedded-backend.js';

const names = (tps: TopicPartition[]) => tps.map((tp) => `${tp.topic}-${tp.partition}`).sort();

describe('embedded backend: consumer groups', () => {
  it('range-assigns partitions, rebalances on join and leave, and revokes before reassigning', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([
      { name: 'a', partitions: 3 },
      { name: 'b', partitions: 3 },
    ]);
    const events: string[] = [];
    const m1 = await backend.joinGroup('g', ['a', 'b'], { clientId: 'c1' });
    expect(names(m1.assignment())).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1', 'b-2']);
    m1.onRevocation(async (revoked) => {
      events.push(`revoke ${names(revoked).join(',')}`);
      await new Promise((r) => setTimeout(r, 10));
      events.push('revoked');
    });
    m1.onAssignment((assigned) => events.push(`assign ${names(assigned).join(',')}`));

    const m2 = await backend.joinGroup('g', ['a', 'b'], { clientId: 'c2' });
    const [first, second] = [m1, m2].sort((x, y) => (x.memberId < y.memberId ? -1 : 1));
    // RangeAssignor: the first member (sorted by id) gets the extra partition of each topic.
    expect(names(first!.assignment())).toEqual(['a-0', 'a-1', 'b-0', 'b-1']);
    expect(names(second!.assignment())).toEqual(['a-2', 'b-2']);
    expect(m2.generation()).toBe(m1.generation());
    // m1 gave up its partitions (and finished) before anything was reassigned.
    expect(events[0]).toMatch(/^revoke /);
    expect(events[1]).toBe('revoked');
    expect(events[2]).toMatch(/^assign /);

    await m2.leave();
    expect(names(m1.assignment())).toEqual(['a-0', 'a-1', 'a-2', 'b-0', 'b-1', 'b-2']);
    await backend.close();
  });

  it('a listener given at join time sees the first assignment and every later change', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 't', partitions: 2 }]);
    const seen: string[][] = [];
    const first = backend.joinGroup('g', ['t'], {
      listener: { onPartitionsAssigned: (a) => void seen.push(names(a)) },
    });
    // A second member joins before the first one's join has even been awaited.
    const second = backend.joinGroup('g', ['t']);
    const [m1] = await Promise.all([first, second]);
    // Both joins land in the same rebalance window (as in Kafka): the listener saw the outcome.
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.at(-1)).toEqual(names(m1.assignment()));
    expect(m1.assignment()).toHaveLength(1);
    await backend.close();
  });

  it('assigns a topic created after joining', async () => {
    const backend = await createEmbeddedBackend();
    const m = await backend.joinGroup('g', ['later']);
    expect(m.assignment()).toEqual([]);
    // The rebalance a new topic triggers runs on the group's next turn (as a metadata change does in
    // Kafka), so wait for the assignment it hands out rather than reading it right away.
    const assigned = new Promise<TopicPartition[]>((resolve) => m.onAssignment(resolve));
    await backend.createTopics([{ name: 'later', partitions: 2 }]);
    expect(names(await assigned)).toEqual(['later-0', 'later-1']);
    expect(names(m.assignment())).toEqual(['later-0', 'later-1']);
    await backend.close();
  });

  it('accepts a custom assignor, as Kafka Streams plugs in its task assignor', async () => {
    const backend = await createEmbeddedBackend();
    await backend.createTopics([{ name: 't', partitions: 4 }]);
    const evenOdd = {
      name: 'even-odd',
      assign(members: { memberId: string }[], partitions: ReadonlyMap<string, number>) {
        const sorted = members.map((m) => m.memberId).sort();
        const out = new Map(sorted.map((id) => [id, [] as TopicPartition[]]));
        for (let p = 0; p < (partitions.get('t') ?? 0); p++)
          out.get(sorted[p % sorted.length]!)!.push({ topic: 't', partition: p });
        return out;
      },
    };
    const m1 = await backend.joinGroup('g', ['t'], { assignor: evenOdd });
    const m2 = await backend.joinGroup('g', ['t'], { assignor: evenOdd });
    const [first] = [m1, m2].sort((x, y) => (x.memberId < y.memberId ? -1 : 1));
    expect(names(first!.assignment())).toEqual(['t-0', 't-2']);
    await backend.close();
  });
});
