// A broker outage of ~20 s (issue 20: one of ~21 s used to put the application in ERROR for good,
// KafkaJSNumberOfRetriesExceeded): the application keeps its state (RUNNING or REBALANCING),
// app.status' waitingFor names the broker while it is gone, and once it is back the application
// resumes by itself — no start() — and counts every record produced before and after.
//
// The broker is this file's own (tools/kafka's restartable broker: killed, then started again as
// the same node on the same port and data dir), so the shared broker of the other files stays up.
// Two stream threads (in worker threads), so a worker's transient failures cross to the main
// thread as they do in production (thread/worker/port-calls.ts).
//
// What is asserted about the counts, and why it is exact: before the kill every input record is
// counted and its offset committed (committed offset = log end on every partition), so nothing
// before the outage can be processed twice; the records after it are produced once the
// application has been RUNNING, waiting for nothing, for longer than the session timeout (so a
// member the coordinator expelled during the outage has rejoined and committed before they
// arrive). At least once allows duplicates in general; here none are possible, so every key's
// final count must equal the number of records produced for it (0 missing, 0 duplicates).
import { startBroker, type RunningBroker } from '@streamwright/kafka-broker';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AppState, EngineLogger } from '../../src/api.js';
import type { Backend } from '../../src/backend-spi.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { encode, readAll } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { countPipeline } from '../fixtures/topologies.js';
import { waitFor } from '../fixtures/wait.js';

const KEYS = Array.from({ length: 12 }, (_, i) => `k${i}`);
const PARTITIONS = 3;
const OUTAGE_MS = 20_000;
const SESSION_TIMEOUT_MS = 6_000;

/** Log lines the application wrote, for the WARN-once / INFO-after assertions. */
function recordingLogger(): EngineLogger & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: object, msg?: string) =>
    lines.push({ level, msg: msg ?? '' });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

describe('a Kafka broker outage', () => {
  let broker: RunningBroker;
  beforeAll(async () => {
    broker = await startBroker({ startTimeoutMs: 180_000 });
  });
  afterAll(async () => {
    await broker?.stop();
  });

  it('is waited out in RUNNING/REBALANCING with waitingFor naming the broker; the app resumes by itself and counts every record', async () => {
    const servers = broker.bootstrapServers;
    const backendOptions = {
      bootstrapServers: [servers],
      sessionTimeoutMs: SESSION_TIMEOUT_MS,
      heartbeatIntervalMs: 1_000,
      rebalanceTimeoutMs: 60_000,
    };
    const backend: Backend = await createKafkaBackend(backendOptions);
    onTestFinished(() => backend.close());
    // The test's own producer and reader: a client of its own, as any other producer would be.
    const client: Backend = await createKafkaBackend({ bootstrapServers: [servers] });
    onTestFinished(() => client.close());

    const logger = recordingLogger();
    const app = createStreamsApp({
      topology: countPipeline({ 'num.stream.threads': 2 }, PARTITIONS),
      backend,
      stateDir: tempStateDir(),
      logger,
    });
    const states: AppState[] = [];
    app.onStateChange((next) => states.push(next));
    onTestFinished(() => app.close());

    const expected = new Map<string, number>();
    const produceRounds = async (rounds: number) => {
      for (let r = 0; r < rounds; r++) {
        await client.produce(
          KEYS.map((k) => ({
            topic: 'words',
            key: encode('string', k),
            value: encode('string', 'x'),
          })),
        );
        for (const k of KEYS) expected.set(k, (expected.get(k) ?? 0) + 1);
      }
    };
    const latestCounts = async () => {
      const latest = new Map<unknown, unknown>();
      for (const r of await readAll(client, 'counts', 'string', 'long')) latest.set(r.key, r.value);
      return latest;
    };
    const allCounted = async () => {
      const latest = await latestCounts();
      return KEYS.every((k) => latest.get(k) === expected.get(k));
    };
    const allCommitted = async () => {
      const desc = await client.describeTopic('words');
      const tps = desc!.offsets.map((o) => ({ topic: 'words', partition: o.partition }));
      const committed = await client.committedOffsets('count-app', tps);
      return desc!.offsets.every((o) => committed.get(`words:${o.partition}`) === o.latest);
    };

    await app.start();
    await produceRounds(5);
    await waitFor(allCounted, 60_000, 'the counts before the outage');
    await waitFor(allCommitted, 30_000, 'the offsets committed before the outage');
    expect(app.status().waitingFor).toEqual([]);

    // The outage: the broker's JVM is killed; it comes back OUTAGE_MS later.
    const killedAt = Date.now();
    await broker.kill();
    const waiting = await waitFor(
      () => {
        const s = app.status();
        return s.waitingFor.length > 0 ? s : undefined;
      },
      OUTAGE_MS,
      'waitingFor to name the broker while it is down',
    );
    expect(['RUNNING', 'REBALANCING']).toContain(waiting.state);
    expect(waiting.waitingFor).toEqual([
      expect.objectContaining({ kind: 'brokers', brokers: [servers], reason: expect.any(String) }),
    ]);
    expect(waiting.waitingFor[0]!.since).toBeGreaterThanOrEqual(killedAt);
    await new Promise((r) => setTimeout(r, Math.max(0, killedAt + OUTAGE_MS - Date.now())));
    // Still waiting, in the same states, at the end of the outage.
    const before = app.status();
    expect(['RUNNING', 'REBALANCING']).toContain(before.state);
    expect(before.waitingFor.map((w) => w.brokers)).toEqual([[servers]]);
    expect(before.lastFailure).toBeNull();

    await broker.start();
    // Resumed by itself: waiting for nothing, RUNNING, and it stays so past a session timeout
    // (any expulsion during the outage has been dealt with).
    let steadySince = 0;
    await waitFor(
      () => {
        const s = app.status();
        const steady = s.state === 'RUNNING' && s.waitingFor.length === 0;
        if (!steady) steadySince = 0;
        else if (steadySince === 0) steadySince = Date.now();
        return steady && Date.now() - steadySince > SESSION_TIMEOUT_MS + 2_000;
      },
      120_000,
      'the application RUNNING and waiting for nothing after the broker returned',
    );
    await produceRounds(5);
    await waitFor(allCounted, 60_000, 'the counts after the outage');

    const latest = await latestCounts();
    for (const k of KEYS) expect(latest.get(k), k).toBe(10);
    const status = app.status();
    expect(status.state).toBe('RUNNING');
    expect(status.lastFailure).toBeNull();
    expect(status.errors).toEqual([]);
    expect(states).not.toContain('ERROR');
    expect(states).not.toContain('PENDING_ERROR');
    // The outage is a recovery, with its brokers and duration.
    const reconnected = status.recoveries.filter((r) => r.kind === 'reconnected');
    expect(reconnected.length).toBeGreaterThanOrEqual(1);
    expect(reconnected[0]!.brokers).toEqual([servers]);
    expect(reconnected.at(-1)!.durationMs).toBeGreaterThanOrEqual(OUTAGE_MS - 2_000);
    expect(status.recoveryCounts.reconnected).toBe(reconnected.length);
    // One WARN when the outage began (per outage seen), one INFO when it was over.
    const warned = logger.lines.filter(
      (l) => l.level === 'warn' && /cannot reach Kafka brokers/.test(l.msg),
    );
    const back = logger.lines.filter(
      (l) => l.level === 'info' && /reachable again after/.test(l.msg),
    );
    expect(warned.length).toBe(reconnected.length);
    expect(back.length).toBe(reconnected.length);
    expect(warned[0]!.msg).toContain(servers);
  });
});
