// The small kill test `npm test` runs (the full 1M-record run: scripts/kill-test.mjs, results in
// docs/STATE.md). A child process is SIGKILLed at random moments while it processes a stateful
// topology; see kill-harness.ts for what is checked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKillTest, type Guarantee } from './kill-harness.js';

const KILLS = Number(process.env.ENGINE_KILLS ?? 10);

async function run(
  guarantee: Guarantee,
  persistent: boolean,
  records: number,
  maxKillDelayMs: number,
) {
  const dir = mkdtempSync(join(tmpdir(), `streamwright-kill-${guarantee}-`));
  try {
    return await runKillTest({
      dir,
      guarantee,
      records,
      keys: 500,
      kills: KILLS,
      minKillsWithOpenTransaction: guarantee === 'exactly_once_v2' ? 1 : 0,
      maxKillDelayMs,
      finishTimeoutMs: 60_000,
      persistentStores: persistent,
      wipeStateBeforeFinal: persistent,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('SIGKILL at random moments', () => {
  it('exactly_once_v2 with lmdb stores (state dir wiped before the last run): the read_committed output is exactly the expected per-partition sequence, the store exact', async () => {
    // Enough input that the child never finishes between kills (each run processes a few thousand).
    // Kills up to 700 ms in: with polls no longer held up by a parked prefetch, commits come
    // promptly and kills within 300 ms of start-up rarely found a transaction open (0 of 10).
    const report = await run('exactly_once_v2', true, 150_000, 700);
    console.info(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.kills).toBeGreaterThanOrEqual(KILLS);
    // Some kills land while a transaction holds written output (recovery then aborts it).
    expect(report.killsWithOpenTransaction).toBeGreaterThanOrEqual(1);
    expect(report.outputCorrect).toBe(true);
    expect(report.duplicates).toBe(0);
    expect(report.missing).toBe(0);
    expect(report.storeCorrect).toBe(true);
  }, 180_000);

  it('at_least_once: nothing is lost', async () => {
    const report = await run('at_least_once', false, 80_000, 500);
    console.info(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.missing).toBe(0);
    expect(report.storeCorrect).toBe(true);
  }, 180_000);
});
