// The log's background jobs (retention, checkpoint, cleaner) run on timers: a failing pass, thrown
// or rejected, is logged at WARN with the job's name and counted, and the next tick tries again —
// it never becomes an unhandled rejection.
import { describe, expect, it } from 'vitest';
import { openTestLog } from './helpers.js';

describe('background jobs', () => {
  it('counts every running job from 0, so a scrape shows it before its first failure', async () => {
    const log = await openTestLog({ background: true });
    try {
      expect(Object.fromEntries(log.backgroundFailures)).toEqual({
        retention: 0,
        checkpoint: 0,
        cleaner: 0,
      });
    } finally {
      await log.close();
    }
  });

  it('a failing cleaner pass is warned about and counted on every tick', async () => {
    const warns: { obj: object; msg: string | undefined }[] = [];
    const log = await openTestLog({
      background: true,
      cleanerBackoffMs: 20,
      logger: { warn: (obj, msg) => warns.push({ obj, msg }) },
    });
    let calls = 0;
    log.maintenanceHooks.push(() => {
      calls++;
      return Promise.reject(new Error('disk on fire'));
    });
    const deadline = Date.now() + 10_000;
    while (calls < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(log.backgroundFailures.get('cleaner')).toBeGreaterThanOrEqual(2);
    // Throttled to one WARN a minute per job.
    expect(warns.filter((w) => w.msg?.includes('cleaner'))).toHaveLength(1);
    expect(warns[0]!.msg).toBe('log cleaner failed (retried on its timer): disk on fire');
  });
});
