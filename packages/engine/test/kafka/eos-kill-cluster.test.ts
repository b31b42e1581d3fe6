// The Kafka kill test on a 3-broker KRaft cluster (tools/kafka startCluster: replication factor
// 3, min.insync.replicas 2): besides the SIGKILLs of application instances, the leader of an
// output partition is SIGKILLed halfway through and started again, so producers, transactions
// and fetches move to new leaders (and the transaction or group coordinator may move with it).
// exactly_once_v2's read_committed output must still be exact.
import { startCluster, type RunningCluster } from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempStateDir } from '../fixtures/state-dir.js';
import { runKafkaKillTest } from './eos-kill/kill-harness.js';

describe('SIGKILLed instances and a killed partition leader on a 3-broker cluster', () => {
  let cluster: RunningCluster;
  beforeAll(async () => {
    cluster = await startCluster({ version: '4.1.1', startTimeoutMs: 240_000 });
  }, 300_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  it('exactly_once_v2: 0 duplicates, 0 missing, every final count exact', async () => {
    let restarted: Promise<void> = Promise.resolve();
    const report = await runKafkaKillTest({
      bootstrap: cluster.bootstrapServers,
      dir: tempStateDir(),
      guarantee: 'exactly_once_v2',
      records: 20_000,
      keys: 200,
      kills: 5,
      minGapMs: 3_000,
      maxGapMs: 7_000,
      maxRestartDelayMs: 4_000,
      finishTimeoutMs: 180_000,
      alsoBreak: async ({ output }) => {
        const leader = await cluster.leaderOf(output, 0);
        if (leader === null) return 'no leader to kill';
        await cluster.kill(leader);
        // Back a few seconds later, on its data dir, while the run goes on.
        restarted = new Promise((r) => setTimeout(r, 3_000)).then(() => cluster.start(leader));
        return `killed node ${leader}, the leader of ${output}-0`;
      },
      log: (line) => process.env.KILL_LOG && console.log(line),
    });
    await restarted;
    console.log(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.alsoBroken).toMatch(/^killed node \d+/);
    expect(report.duplicates).toBe(0);
    expect(report.missing).toBe(0);
    expect(report.wrongFinalCounts).toBe(0);
    expect(report.outputExact).toBe(true);
  }, 600_000);
});
