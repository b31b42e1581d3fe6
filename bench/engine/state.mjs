// State benchmarks of issue 5 on the BUILT engine and a durable embedded log in a temp dir
// (fsync per produce batch, the runtime's default):
//
//   pnpm --filter @streamwright/engine build
//   node --expose-gc bench/engine/state.mjs [--records 1000000] [--keys 10000] [--partitions 2] [--runs 3]
//                                          [--restore-records 1000000] [--cases alos,alos-memory,alos-nocache,eos,eos-memory,restore]
//
// - streamcount (SimpleBenchmark's case: groupByKey → count on integer keys from --keys, 100-byte
//   values) under at_least_once (commit.interval.ms 30000) and exactly_once_v2 (100 ms, one
//   transaction per commit), on the default store (`default.dsl.store` rocksDB = lmdb, as Kafka
//   Streams' default is persistent; cases alos, eos) and in memory (`in_memory`; alos-memory,
//   eos-memory): records/s from start() until every record is processed and committed, and the
//   process's CPU time per record. alos-nocache: in memory with the record cache off.
// - restore: a count store's changelog prefilled with --restore-records distinct keys; records/s
//   from start() until every task is RUNNING with everything restored, and the process's peak RSS
//   while those keys are held, for the in-memory store and the lmdb store.
//   On lmdb a record is a get and a put on a persistent store, the work of SimpleBenchmark's
//   streamprocesswithstatestore.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const dist = new URL('../../packages/engine/dist/index.js', import.meta.url);
if (!existsSync(fileURLToPath(dist))) {
  console.error(
    'packages/engine/dist is missing: run `pnpm --filter @streamwright/engine build` first',
  );
  process.exit(1);
}
const engine = await import(dist.href);
// As the runtime does: stream-thread workers without V8's memory reducer (the figures of record).
if (process.env.STREAMWRIGHT_WORKER_MEMORY_REDUCER !== 'on') engine.disableWorkerMemoryReducer();
const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    keys: { type: 'string', default: '10000' },
    partitions: { type: 'string', default: '2' },
    runs: { type: 'string', default: '3' },
    'restore-records': { type: 'string', default: '1000000' },
    /**
     * Which cases to run (all by default): alos and eos (the default store, lmdb), alos-memory and
     * eos-memory (in_memory), alos-nocache (in memory, statestore.cache.max.bytes 0: every update
     * forwarded), restore.
     */
    cases: { type: 'string', default: 'alos,alos-memory,alos-nocache,eos,eos-memory,restore' },
  },
});
const RECORDS = Number(values.records);
const KEYS = Number(values.keys);
const PARTITIONS = Number(values.partitions);
const RUNS = Number(values.runs);
const RESTORE = Number(values['restore-records']);
const SOURCE = 'simpleBenchmarkSourceTopic';
const CASES = new Set(values.cases.split(','));
const cpuPerRecord = [];
const gc = globalThis.gc ?? (() => undefined);

console.log(
  `# node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ` +
    `${RECORDS} records, ${KEYS} keys, ${PARTITIONS} partitions, ${RUNS} runs, durable log in ${tmpdir()}`,
);

const dir = mkdtempSync(join(tmpdir(), 'streamwright-state-bench-'));
try {
  const backend = await engine.createEmbeddedBackend({
    dataDir: join(dir, 'log'),
    retentionCheckIntervalMs: 3_600_000,
  });
  await backend.createTopics([{ name: SOURCE, partitions: PARTITIONS }]);
  await preload(backend);
  for (const [name, guarantee, lmdb, noCache] of [
    ['alos', 'at_least_once', true, false],
    ['alos-memory', 'at_least_once', false, false],
    ['alos-nocache', 'at_least_once', false, true],
    ['eos', 'exactly_once_v2', true, false],
    ['eos-memory', 'exactly_once_v2', false, false],
  ]) {
    if (!CASES.has(name)) continue;
    const rates = [];
    cpuPerRecord.length = 0;
    for (let r = 0; r < RUNS; r++) {
      gc();
      rates.push(await streamcount(backend, guarantee, r, lmdb, noCache));
    }
    const label = `${guarantee}, ${lmdb ? 'default store (lmdb)' : 'in_memory'}${noCache ? ', no record cache' : ''}`;
    report(`streamcount ${label}`, rates, cpuPerRecord);
  }
  for (const lmdb of CASES.has('restore') ? [false, true] : []) {
    gc();
    await restore(backend, lmdb);
  }
  await backend.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function countTopology(appId, guarantee, topics, lmdb, noCache = false) {
  return {
    schemaVersion: 1,
    application: {
      id: appId,
      config: {
        'processing.guarantee': guarantee,
        'default.dsl.store': lmdb ? 'rocksDB' : 'in_memory',
        ...(noCache ? { 'statestore.cache.max.bytes': 0 } : {}),
      },
    },
    topics: topics.map((name) => ({ name, partitions: PARTITIONS, config: {} })),
    stores: [],
    nodes: [
      {
        id: 'source',
        kind: 'source',
        config: {
          topic: topics[0],
          keySerde: 'integer',
          valueSerde: 'bytes',
          offsetReset: 'earliest',
        },
      },
      { id: 'group', kind: 'groupByKey', config: {} },
      { id: 'count', kind: 'count', config: { store: 'count-store' } },
    ],
    edges: [
      { from: 'source', fromPort: 'out', to: 'group', toPort: 'in' },
      { from: 'group', fromPort: 'out', to: 'count', toPort: 'in' },
    ],
    layout: { nodes: {} },
  };
}

async function preload(backend) {
  const pool = randomBytes(100 * 4096);
  let batch = [];
  for (let i = 0; i < RECORDS; i++) {
    const key = new Uint8Array(4);
    new DataView(key.buffer).setInt32(0, i % KEYS);
    const at = ((i * 7919) % 4096) * 100;
    batch.push({ topic: SOURCE, key, value: pool.subarray(at, at + 100), timestamp: i });
    if (batch.length === 10_000) {
      await backend.produce(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await backend.produce(batch);
}

async function streamcount(backend, guarantee, run, lmdb, noCache) {
  const appId = `bench-count-${guarantee}-${lmdb ? 'lmdb-' : ''}${noCache ? 'nocache-' : ''}${run}`;
  const app = engine.createStreamsApp({
    topology: countTopology(appId, guarantee, [SOURCE], lmdb, noCache),
    backend,
    stateDir: join(dir, 'state'),
  });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await app.start();
  const tps = Array.from({ length: PARTITIONS }, (_, partition) => ({ topic: SOURCE, partition }));
  for (;;) {
    const m = app.metrics();
    let processed = 0;
    for (const t of Object.values(m.threads)) processed += t['process-total'] ?? 0;
    if (processed >= RECORDS) {
      // Under exactly_once_v2 the count is done once its transaction (offsets included) commits.
      const committed = await backend.committedOffsets(appId, tps);
      if (
        guarantee === 'at_least_once' ||
        tps.reduce((n, tp) => n + (committed.get(`${tp.topic}:${tp.partition}`) ?? 0), 0) >= RECORDS
      )
        break;
    }
    if (app.state() === 'ERROR')
      throw new Error(`app failed: ${JSON.stringify(app.status().errors[0])}`);
    await new Promise((r) => setTimeout(r, 2));
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await app.close();
  // CPU of the whole process (engine, log, fsync syscalls) per record: independent of the load.
  cpuPerRecord.push(((cpu.user + cpu.system) * 1000) / RECORDS);
  return (RECORDS / ms) * 1000;
}

async function restore(backend, lmdb) {
  const appId = `bench-restore-${lmdb ? 'lmdb' : 'memory'}`;
  const input = `restore-input-${lmdb ? 'lmdb' : 'memory'}`;
  const changelog = `${appId}-count-store-changelog`;
  await backend.createTopics([
    { name: input, partitions: PARTITIONS },
    {
      name: changelog,
      partitions: PARTITIONS,
      config: { 'cleanup.policy': 'compact' },
      internal: true,
    },
  ]);
  let batch = [];
  for (let i = 0; i < RESTORE; i++) {
    const key = new Uint8Array(4);
    new DataView(key.buffer).setInt32(0, i);
    const value = new Uint8Array(8);
    new DataView(value.buffer).setBigInt64(0, 1n);
    batch.push({ topic: changelog, key, value, timestamp: i });
    if (batch.length === 10_000) {
      await backend.produce(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await backend.produce(batch);
  gc();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const app = engine.createStreamsApp({
    topology: countTopology(appId, 'at_least_once', [input], lmdb),
    backend,
    stateDir: join(dir, 'state'),
  });
  const started = performance.now();
  await app.start();
  for (;;) {
    const tasks = app.status().tasks;
    if (tasks.length === PARTITIONS && tasks.every((t) => t.state === 'RUNNING')) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  const ms = performance.now() - started;
  const restored = Object.values(app.metrics().tasks).reduce(
    (n, t) => n + (t['restore-total'] ?? 0),
    0,
  );
  const entries = app.store('count-store')?.approximateNumEntries() ?? 0;
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  await app.close();
  console.log(
    `restore (${lmdb ? 'lmdb' : 'in-memory'} store): ${restored} changelog records (${entries} keys in the store) in ${(ms / 1000).toFixed(2)} s = ${(((restored / ms) * 1000) / 1e6).toFixed(3)} M records/s; ` +
      `peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB (${((peak - rssBefore) / 2 ** 20).toFixed(0)} MiB above the process before restoring)`,
  );
}

function report(name, rates, cpu = []) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cpuNote =
    cpu.length > 0 ? `; CPU ${median(cpu).toFixed(0)} ns/record (median; whole process)` : '';
  console.log(
    `${name}: median ${(median(rates) / 1e6).toFixed(3)} M records/s (runs: ${rates.map((r) => (r / 1e6).toFixed(3)).join(', ')})${cpuNote}`,
  );
}
