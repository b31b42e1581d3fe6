// The high-availability assignor's properties over random cluster states (fast-check), and its
// assignments next to Kafka Streams 4.1's own HighAvailabilityTaskAssignor on the same inputs
// (tools/java-peer's AssignorCheck): the same task → instance map, case for case.
import fc from 'fast-check';
import { runPeer } from '@streamwright/java-peer';
import { describe, expect, it } from 'vitest';
import { LATEST_OFFSET } from '../../src/assignment/client-state.js';
import { assignHighAvailability } from '../../src/assignment/high-availability-assignor.js';
import { caseArb, clientStatesOf, type AssignorCase } from './cases.js';

function run(c: AssignorCase) {
  const clients = clientStatesOf(c);
  const probing = assignHighAvailability(clients, c.allTasks, c.statefulTasks, c);
  return { clients, probing };
}

describe('high-availability assignor: properties', () => {
  it('every task is active on exactly one instance; no instance holds a task twice', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { clients } = run(c);
        for (const t of c.allTasks) {
          const owners = [...clients.values()].filter((s) => s.active.has(t));
          expect(owners).toHaveLength(1);
        }
        for (const s of clients.values())
          for (const t of s.standby) expect(s.active.has(t)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('a stateful active is on a caught-up instance whenever one exists (stickiness)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { clients } = run(c);
        for (const t of c.statefulTasks) {
          const caughtUp = c.clients.filter(
            (cl) =>
              cl.lags[t] === LATEST_OFFSET ||
              (cl.lags[t]! >= 0 && cl.lags[t]! <= c.acceptableRecoveryLag),
          );
          if (caughtUp.length === 0) continue;
          const owner = [...clients.values()].find((s) => s.active.has(t))!;
          expect(caughtUp.map((cl) => cl.processId)).toContain(owner.processId);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('with no state anywhere, actives are balanced over threads', () => {
    fc.assert(
      fc.property(caseArb, (c0) => {
        // Every task stateful, equal lags everywhere, no standbys: nothing pins a task, so only
        // the balance decides.
        const c: AssignorCase = {
          ...c0,
          numStandbyReplicas: 0,
          statefulTasks: c0.allTasks,
          clients: c0.clients.map((cl) => ({
            ...cl,
            lags: Object.fromEntries(c0.allTasks.map((t) => [t, 50_000])),
          })),
        };
        const { clients, probing } = run(c);
        expect(probing).toBe(false);
        // Kafka Streams' balanceTasksOverThreads: no move of a task from a busier instance (per
        // thread) to another would reduce the skew between them.
        const loads = [...clients.values()].map((s) => s.assignedTaskLoad);
        for (const a of clients.values())
          for (const b of clients.values()) {
            const skew = a.assignedTaskLoad - b.assignedTaskLoad;
            if (skew <= 0) continue;
            const after =
              (a.assignedTaskCount - 1) / a.capacity - (b.assignedTaskCount + 1) / b.capacity;
            expect(after < 0 || after >= skew, `loads ${loads.join(' ')}`).toBe(true);
          }
        // And so, with equal threads everywhere, counts differ by at most one.
        if (new Set(c.clients.map((cl) => cl.capacity)).size === 1) {
          const counts = [...clients.values()].map((s) => s.active.size);
          expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('standbys: up to num.standby.replicas per stateful task, on other instances', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { clients } = run(c);
        for (const t of c.statefulTasks) {
          const holders = [...clients.values()].filter((s) => s.standby.has(t)).length;
          // Warm-ups are standbys too: at most max.warmup.replicas more over the whole group.
          expect(holders).toBeGreaterThanOrEqual(
            Math.min(c.numStandbyReplicas, clients.size - 1) - c.maxWarmupReplicas,
          );
          expect(holders).toBeLessThanOrEqual(
            Math.min(clients.size - 1, c.numStandbyReplicas + c.maxWarmupReplicas),
          );
        }
        for (const s of clients.values())
          for (const t of s.standby) expect(c.statefulTasks).toContain(t);
      }),
      { numRuns: 400 },
    );
  });
});

/**
 * test/kafka/standby-failover.test.ts's cluster when its second instance B joins: one stateful
 * task, A running it (LATEST_OFFSET), B with no state at all (its lag is the changelog's length),
 * B first in process-id order, one standby replica.
 */
const B_FIRST = '10000000-0000-4000-8000-00000000000b';
const A_SECOND = '20000000-0000-4000-8000-00000000000a';
function failoverCase(changelogRecords: number): AssignorCase {
  return {
    clients: [
      { processId: B_FIRST, capacity: 1, lags: { '0_0': changelogRecords } },
      { processId: A_SECOND, capacity: 1, lags: { '0_0': LATEST_OFFSET } },
    ],
    allTasks: ['0_0'],
    statefulTasks: ['0_0'],
    numStandbyReplicas: 1,
    maxWarmupReplicas: 2,
    acceptableRecoveryLag: 10_000,
  };
}

describe('high-availability assignor: next to Kafka Streams 4.1', () => {
  it('gives the same task → instance maps as Kafka Streams on 300 random cluster states', async () => {
    // And on the standby failover test's cluster with a changelog of 10,000 and of 20,000 records.
    const failoverCases = [failoverCase(10_000), failoverCase(20_000)];
    const cases = [...fc.sample(caseArb, { numRuns: 300, seed: 441 }), ...failoverCases];
    const java = JSON.parse(
      await runPeer('AssignorCheck', {
        input: JSON.stringify(cases),
        jvmArgs: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
      }),
    ) as { probing: boolean; clients: Record<string, { active: string[]; standby: string[] }> }[];
    expect(java).toHaveLength(cases.length);
    let differing = 0;
    cases.forEach((c, i) => {
      const { clients, probing } = run(c);
      const ours = {
        probing,
        clients: Object.fromEntries(
          [...clients].map(([id, s]) => [
            id,
            { active: s.sortedActive(), standby: s.sortedStandby() },
          ]),
        ),
      };
      if (
        JSON.stringify(ours) !==
        JSON.stringify({
          probing: java[i]!.probing,
          clients: sortKeys(java[i]!.clients, ours.clients),
        })
      )
        differing++;
      expect({ case: i, ...ours }).toEqual({
        case: i,
        probing: java[i]!.probing,
        clients: java[i]!.clients,
      });
    });
    expect(differing).toBe(0);
    // What Kafka Streams does there (checked above against its own assignor): an instance with no
    // state is caught up while its lag is within acceptable.recovery.lag, so the round robin's
    // choice stands and B gets the active — the whole changelog to restore — and A the standby.
    // One record more and B is not caught up: the active goes back to A, swapping with A's
    // standby, and a probing rebalance is due (a move was needed).
    const [within, beyond] = failoverCases.map((c) => run(c));
    expect(within!.clients.get(B_FIRST)!.sortedActive()).toEqual(['0_0']);
    expect(within!.clients.get(A_SECOND)!.sortedStandby()).toEqual(['0_0']);
    expect(within!.probing).toBe(false);
    expect(beyond!.clients.get(A_SECOND)!.sortedActive()).toEqual(['0_0']);
    expect(beyond!.clients.get(B_FIRST)!.sortedStandby()).toEqual(['0_0']);
    expect(beyond!.probing).toBe(true);
  }, 120_000);
});

function sortKeys<T>(o: Record<string, T>, like: Record<string, unknown>): Record<string, T> {
  return Object.fromEntries(Object.keys(like).map((k) => [k, o[k]!]));
}
