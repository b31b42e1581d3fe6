// The full outage experiment of issue 20 (scripts/outage-test.mjs runs it): an application (count
// by key, --partitions partitions, --threads stream threads, at_least_once) on a broker of its
// own; records are produced and counted, the broker's JVM is killed, stays down --outage-ms
// (60 s), is started again as the same node; the application must resume by itself and count
// every record produced before and after. Prints one JSON report (docs/KAFKA_BACKEND.md,
// "Outages"); exits 1 when a record is missing or the application left RUNNING/REBALANCING.
//
//   node scripts/outage-test.mjs [--outage-ms 60000] [--threads 1] [--partitions 4]
//                                [--keys 100] [--rounds 20] [--session-timeout-ms 45000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBroker } from '@streamwright/kafka-broker';
import type { AppState } from '../../src/api.js';
import type { Backend } from '../../src/backend-spi.js';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { encode, readAll } from '../fixtures/records.js';
import { countPipeline } from '../fixtures/topologies.js';

const { values: opts } = parseArgs({
  options: {
    'outage-ms': { type: 'string', default: '60000' },
    threads: { type: 'string', default: '1' },
    partitions: { type: 'string', default: '4' },
    keys: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '20' },
    'session-timeout-ms': { type: 'string', default: '45000' },
  },
});
const OUTAGE_MS = Number(opts['outage-ms']);
const KEYS = Array.from({ length: Number(opts.keys) }, (_, i) => `k${i}`);
const ROUNDS = Number(opts.rounds);

const log = (msg: string) => process.stderr.write(`[outage ${new Date().toISOString()}] ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms: number,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const broker = await startBroker({ startTimeoutMs: 180_000 });
const stateDir = mkdtempSync(join(tmpdir(), 'streamwright-outage-'));
const servers = broker.bootstrapServers;
const lines: { level: string; msg: string; at: number }[] = [];
const at = (level: string) => (_: object, msg?: string) => {
  lines.push({ level, msg: msg ?? '', at: Date.now() });
  if (level !== 'info') log(`${level}: ${msg}`);
};
const logger = { info: at('info'), warn: at('warn'), error: at('error') };
let exitCode = 0;
try {
  const backend: Backend = await createKafkaBackend({
    bootstrapServers: [servers],
    sessionTimeoutMs: Number(opts['session-timeout-ms']),
  });
  const client: Backend = await createKafkaBackend({ bootstrapServers: [servers] });
  const app = createStreamsApp({
    topology: countPipeline(
      { 'num.stream.threads': Number(opts.threads) },
      Number(opts.partitions),
    ),
    backend,
    stateDir,
    logger,
  });
  const states: { state: AppState; at: number }[] = [];
  app.onStateChange((state) => states.push({ state, at: Date.now() }));
  const expected = new Map<string, number>();
  const produce = async (rounds: number) => {
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
  const counts = async () => {
    const latest = new Map<unknown, number>();
    const all = await readAll(client, 'counts', 'string', 'long');
    for (const r of all) latest.set(r.key, r.value as number);
    return { latest, updates: all.length };
  };
  const counted = async () => {
    const { latest } = await counts();
    return KEYS.every((k) => (latest.get(k) ?? 0) >= expected.get(k)!) ? true : undefined;
  };

  await app.start();
  await produce(ROUNDS);
  await until('the counts before the outage', counted, 120_000);
  log(`${ROUNDS * KEYS.length} records counted; killing the broker for ${OUTAGE_MS} ms`);

  const killedAt = Date.now();
  await broker.kill();
  const seen = new Set<AppState>();
  let waitingAt: number | null = null;
  let waitingFor: unknown = null;
  while (Date.now() - killedAt < OUTAGE_MS) {
    const s = app.status();
    seen.add(s.state);
    if (waitingAt === null && s.waitingFor.length > 0) {
      waitingAt = Date.now();
      waitingFor = s.waitingFor;
    }
    await sleep(250);
  }
  log('starting the broker again');
  const startAt = Date.now();
  await broker.start();
  const brokerUpAt = Date.now();
  const resumedAt = await until(
    'the application to wait for nothing again',
    () => {
      const s = app.status();
      seen.add(s.state);
      return s.waitingFor.length === 0 ? Date.now() : undefined;
    },
    300_000,
  );
  await produce(ROUNDS);
  await until('the counts after the outage', counted, 300_000);
  const countedAt = Date.now();

  const { latest, updates } = await counts();
  const produced = 2 * ROUNDS * KEYS.length;
  const missing = KEYS.reduce(
    (n, k) => n + Math.max(0, expected.get(k)! - (latest.get(k) ?? 0)),
    0,
  );
  const extra = KEYS.reduce((n, k) => n + Math.max(0, (latest.get(k) ?? 0) - expected.get(k)!), 0);
  const status = app.status();
  const report = {
    outageMs: OUTAGE_MS,
    threads: Number(opts.threads),
    partitions: Number(opts.partitions),
    sessionTimeoutMs: Number(opts['session-timeout-ms']),
    produced,
    missing,
    duplicatesCounted: extra,
    countUpdates: updates,
    statesDuringOutage: [...seen],
    stateChanges: states.map((s) => `${s.state}@${s.at - killedAt}ms`),
    waitingForAfterMs: waitingAt === null ? null : waitingAt - killedAt,
    waitingFor,
    brokerRestartMs: brokerUpAt - startAt,
    resumedAfterBrokerUpMs: resumedAt - brokerUpAt,
    allCountedAfterBrokerUpMs: countedAt - brokerUpAt,
    finalState: status.state,
    lastFailure: status.lastFailure,
    recoveries: status.recoveries.map((r) => ({
      kind: r.kind,
      durationMs: r.durationMs,
      brokers: r.brokers,
    })),
    warnings: lines.filter((l) => l.level === 'warn').map((l) => l.msg),
    infos: lines.filter((l) => /reachable again/.test(l.msg)).map((l) => l.msg),
    errors: lines.filter((l) => l.level === 'error').map((l) => l.msg),
  };
  console.log(JSON.stringify(report, null, 2));
  const ok =
    missing === 0 &&
    status.state === 'RUNNING' &&
    [...seen].every((s) => s === 'RUNNING' || s === 'REBALANCING') &&
    waitingAt !== null;
  if (!ok) exitCode = 1;
  await app.close();
  await client.close();
  await backend.close();
} catch (error) {
  log(`failed: ${(error as Error).stack ?? String(error)}`);
  exitCode = 1;
} finally {
  await broker.stop();
  rmSync(stateDir, { recursive: true, force: true });
}
process.exit(exitCode);
