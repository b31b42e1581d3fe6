// Issue 20's "must show" for exactly-once on Kafka: two instances of a count-by-word application
// (a repartition topic, 4 partitions) in child processes, one of them SIGKILLed at random moments
// five times and restarted on its state dir within 5 s, while the input is produced. The
// read_committed output is then compared with the input (eos-kill/kill-harness.ts): under
// exactly_once_v2 no duplicate and nothing missing, every word's final count exact; under
// at_least_once nothing missing. With num.stream.threads=2 each instance's threads run in
// workers, each owning its transactional producer (backends/kafka/worker-clients.ts): the same
// exactly_once_v2 checks. The full-size run is scripts/kafka-eos-kill.mjs.
import { describe, expect, inject, it } from 'vitest';
import { tempStateDir } from '../fixtures/state-dir.js';
import { runKafkaKillTest, type Guarantee } from './eos-kill/kill-harness.js';

const run = (guarantee: Guarantee, threads = 1) =>
  runKafkaKillTest({
    bootstrap: inject('kafkaBootstrapServers'),
    dir: tempStateDir(),
    guarantee,
    threads,
    records: 20_000,
    keys: 200,
    kills: 5,
    minGapMs: 3_000,
    maxGapMs: 7_000,
    maxRestartDelayMs: 4_000,
    finishTimeoutMs: 120_000,
    log: (line) => process.env.KILL_LOG && console.log(line),
  });

describe('SIGKILLed instances on Kafka', () => {
  it('exactly_once_v2: 0 duplicates, 0 missing, every final count exact', async () => {
    const report = await run('exactly_once_v2');
    console.log(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.kills).toBe(5);
    expect(report.duplicates).toBe(0);
    expect(report.missing).toBe(0);
    expect(report.wrongFinalCounts).toBe(0);
    expect(report.outputExact).toBe(true);
  }, 300_000);

  it('exactly_once_v2 with 2 stream threads per instance: 0 duplicates, 0 missing', async () => {
    const report = await run('exactly_once_v2', 2);
    console.log(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.kills).toBe(5);
    expect(report.duplicates).toBe(0);
    expect(report.missing).toBe(0);
    expect(report.wrongFinalCounts).toBe(0);
    expect(report.outputExact).toBe(true);
  }, 300_000);

  it('at_least_once: 0 missing', async () => {
    const report = await run('at_least_once');
    console.log(JSON.stringify(report));
    expect(report.problems).toEqual([]);
    expect(report.kills).toBe(5);
    expect(report.missing).toBe(0);
    expect(report.wrongFinalCounts).toBe(0);
  }, 300_000);
});
