// An instance's tasks split between its stream threads (group members), as Kafka Streams'
// StreamsPartitionAssignor does after the instance-level assignment: balanced (thread counts
// differ by at most one), and sticky — a thread first keeps the tasks it had, up to its share.
import { compareTaskIds } from './java-order.js';

export interface ThreadOfInstance {
  memberId: string;
  /** Tasks this thread ran as actives (LATEST_OFFSET in its subscription). */
  previousActive: ReadonlySet<string>;
  /** Tasks whose state this thread reported (standbys, state on disk). */
  previousStandby: ReadonlySet<string>;
}

/** Splits `tasks` over `threads`: each keeps up to ⌊n/threads⌋ of its `previous`, the rest go to the least loaded. */
export function spreadOverThreads(
  threads: readonly ThreadOfInstance[],
  tasks: readonly string[],
  previous: (thread: ThreadOfInstance) => ReadonlySet<string>,
): Map<string, string[]> {
  const ordered = [...threads].sort((a, b) => (a.memberId < b.memberId ? -1 : 1));
  const out = new Map<string, string[]>(ordered.map((t) => [t.memberId, []]));
  if (ordered.length === 0) return out;
  const sorted = [...tasks].sort(compareTaskIds);
  const base = Math.floor(sorted.length / ordered.length);
  const left = new Set(sorted);
  for (const thread of ordered) {
    const mine = out.get(thread.memberId)!;
    for (const task of sorted) {
      if (mine.length >= base) break;
      if (left.has(task) && previous(thread).has(task)) {
        mine.push(task);
        left.delete(task);
      }
    }
  }
  for (const task of sorted) {
    if (!left.has(task)) continue;
    let best: ThreadOfInstance | null = null;
    for (const thread of ordered) {
      if (best === null) {
        best = thread;
        continue;
      }
      const n = out.get(thread.memberId)!.length;
      const bestN = out.get(best.memberId)!.length;
      if (n < bestN || (n === bestN && previous(thread).has(task) && !previous(best).has(task)))
        best = thread;
    }
    out.get(best!.memberId)!.push(task);
  }
  return out;
}
