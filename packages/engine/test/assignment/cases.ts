// Random cluster states for the high-availability assignor: instances (process ids, threads),
// tasks of a few sub-topologies (some stateful), and per instance each stateful task's lag —
// LATEST_OFFSET where it ran the task, a checkpoint's lag for a standby or a left-over copy, or
// the whole changelog (no state).
import fc from 'fast-check';
import { ClientState, LATEST_OFFSET } from '../../src/assignment/client-state.js';

export interface AssignorCase {
  clients: { processId: string; capacity: number; lags: Record<string, number> }[];
  allTasks: string[];
  statefulTasks: string[];
  numStandbyReplicas: number;
  maxWarmupReplicas: number;
  acceptableRecoveryLag: number;
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** Process ids spread over the whole UUID space (signed halves matter for Java's order). */
const processIdArb = fc
  .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }))
  .map(
    ([a, b]) =>
      `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b & 0xfff, 3)}-8${hex(a & 0xfff, 3)}-${hex(b, 8)}${hex(a & 0xffff, 4)}`,
  );

export const caseArb: fc.Arbitrary<AssignorCase> = fc
  .record({
    processIds: fc.uniqueArray(processIdArb, { minLength: 1, maxLength: 6 }),
    capacities: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 6, maxLength: 6 }),
    partitions: fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }),
    statefulSubs: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    numStandbyReplicas: fc.integer({ min: 0, max: 2 }),
    maxWarmupReplicas: fc.integer({ min: 1, max: 3 }),
    acceptableRecoveryLag: fc.constantFrom(0, 100, 10_000),
    seed: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 200, maxLength: 200 }),
  })
  .map((r) => {
    const allTasks: string[] = [];
    const statefulTasks: string[] = [];
    r.partitions.forEach((count, sub) => {
      for (let p = 0; p < count; p++) {
        allTasks.push(`${sub}_${p}`);
        if (r.statefulSubs[sub]) statefulTasks.push(`${sub}_${p}`);
      }
    });
    let i = 0;
    const next = (): number => r.seed[i++ % r.seed.length]!;
    // One previous owner per stateful task (or none: a new task), standbys and leftovers elsewhere.
    const owner = new Map<string, number>();
    for (const t of statefulTasks) {
      const o = next() % (r.processIds.length + 1);
      if (o < r.processIds.length) owner.set(t, o);
    }
    const clients = r.processIds.map((processId, c) => {
      const lags: Record<string, number> = {};
      for (const t of statefulTasks) {
        const kind = next() % 4;
        lags[t] =
          owner.get(t) === c
            ? LATEST_OFFSET
            : kind === 0
              ? next() % 200 // a caught-up standby
              : kind === 1
                ? 5_000 + (next() % 20_000) // a stale copy
                : 50_000 + (next() % 1_000); // no state: the whole changelog
      }
      return { processId, capacity: r.capacities[c]!, lags };
    });
    return {
      clients,
      allTasks,
      statefulTasks,
      numStandbyReplicas: r.numStandbyReplicas,
      maxWarmupReplicas: r.maxWarmupReplicas,
      acceptableRecoveryLag: r.acceptableRecoveryLag,
    };
  });

export function clientStatesOf(c: AssignorCase): Map<string, ClientState> {
  return new Map(
    c.clients.map((cl) => [
      cl.processId,
      new ClientState(cl.processId, cl.capacity, new Map(Object.entries(cl.lags))),
    ]),
  );
}
