// Cooperative rebalancing on a real broker (KIP-429, Kafka Streams' default protocol): a count
// application scales 1 → 2 → 3 → 2 instances (child processes) while input flows to its 6
// partitions every 20 ms. In each step the tasks that stay on their instance never stop: their
// longest processing gap stays under max(2 × commit.interval.ms, 1 s) — the bound —
// while the moved ones pause until their old owner revoked them and the new one restored them.
// No record is lost (at least once: every key's final count is at least what was written).
// Full sizes and the eager protocol's figures: scripts/scale-out.mjs, docs/KAFKA_BACKEND.md.
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { tempStateDir } from '../fixtures/state-dir.js';
import { kafkaBackend } from './kafka-fixtures.js';
import { runScaleOut } from './scale-out-run.js';

const COMMIT_INTERVAL_MS = 1_000;
const BOUND_MS = Math.max(2 * COMMIT_INTERVAL_MS, 1_000);

describe('cooperative rebalancing on Kafka', () => {
  it('scales 1 → 2 → 3 → 2 instances; tasks that do not move never stop', async () => {
    const backend = await kafkaBackend();
    onTestFinished(() => backend.close());
    const result = await runScaleOut({
      bootstrap: inject('kafkaBootstrapServers'),
      backend,
      stateDir: tempStateDir,
      partitions: 6,
      keysPerPartition: 50,
      recordsPerTick: 1,
      tickMs: 20,
      preloadPerPartition: 200,
      settleMs: 2_000,
      config: { 'commit.interval.ms': COMMIT_INTERVAL_MS },
      log: (line) => console.log(`cooperative scale-out: ${line}`),
      runId: `t${Date.now()}`,
    });
    expect(result.steps.map((s) => s.step)).toEqual([
      '1→2 (B joins)',
      '2→3 (C joins)',
      '3→2 (A stops)',
    ]);
    for (const step of result.steps) {
      const unmoved = step.tasks.filter((t) => !t.moved);
      const moved = step.tasks.filter((t) => t.moved);
      // Every step moves some tasks and keeps others where they were (6 tasks over 1–3 instances).
      expect(moved.length, step.step).toBeGreaterThan(0);
      expect(unmoved.length, step.step).toBeGreaterThan(0);
      // Never revoked (eager closes and reopens every task in each rebalance), never paused.
      expect(
        unmoved.filter((t) => t.interrupted),
        step.step,
      ).toEqual([]);
      expect(step.maxGapUnmovedMs, `${step.step}: ${JSON.stringify(unmoved)}`).toBeLessThan(
        BOUND_MS,
      );
    }
    expect(result.lostRecords).toBe(0);
    console.log(
      `cooperative scale-out: ${result.produced} records, ${result.lostRecords} lost, ` +
        `${result.duplicatedRecords} counted twice`,
    );
  });
});
