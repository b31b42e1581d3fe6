// What the worker pool (docs/ENGINE.md, "Worker pool") saves a user: a 2-thread app started on
// fresh workers against one started on workers an earlier app left idle, in the same process (a
// restart, a redeploy, the next app of a test suite), on the BUILT engine.
//
//   pnpm --filter @streamwright/engine build
//   node --expose-gc bench/engine/worker-start.mjs [--records 200000] [--rounds 5] [--threads 2]
//
// The source topic (4 partitions, integer keys, 100-byte values) is loaded once. Then rounds of
// two apps, alternating: "fresh" (drainWorkerPool() first, so both workers spawn; the code cache
// of the worker bundle is warm, as on any machine that ran the engine before) and "reused" (the
// workers the fresh app left). Each app reads the whole topic (source → peek, SimpleBenchmark's
// streamprocess) and is timed from start(): start() itself (spawn or assign, code, plan, group
// join), to its first processed record, and to the last; plus the CPU of the whole process per
// app. Medians are printed.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

const dist = new URL('../../packages/engine/dist/index.js', import.meta.url);
if (!existsSync(fileURLToPath(dist))) {
  console.error('packages/engine/dist is missing: run `pnpm --filter @streamwright/engine build`');
  process.exit(1);
}
const engine = await import(dist.href);
// As the runtime does: stream-thread workers without V8's memory reducer (the figures of record).
if (process.env.STREAMWRIGHT_WORKER_MEMORY_REDUCER !== 'on') engine.disableWorkerMemoryReducer();
const workerModule = new URL('./bench-functions.mjs', import.meta.url).href;
const { functions, progressTotal, resetThreadStats } = await import(workerModule);
const { median } = await import('./report.mjs');

const args = { records: 200_000, rounds: 5, threads: 2 };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in args)) throw new Error(`unknown option ${process.argv[i]}`);
  args[key] = Number(process.argv[i + 1]);
}
const SOURCE = 'workerStartSource';
const backend = await engine.createEmbeddedBackend({ retentionCheckIntervalMs: 3_600_000 });
await backend.createTopics([{ name: SOURCE, partitions: 4 }]);
const values = randomBytes(100 * 4096);
for (let i = 0; i < args.records; i += 10_000) {
  const batch = [];
  for (let j = i; j < Math.min(args.records, i + 10_000); j++) {
    const key = new Uint8Array(4);
    new DataView(key.buffer).setInt32(0, j % 10_000);
    const at = ((j * 7919) % 4096) * 100;
    batch.push({ topic: SOURCE, key, value: values.subarray(at, at + 100), timestamp: j });
  }
  await backend.produce(batch);
}

async function runApp(n) {
  const app = engine.createStreamsApp({
    topology: {
      schemaVersion: 1,
      application: {
        id: `worker-start-${n}-${Date.now()}`,
        config: { 'num.stream.threads': args.threads, 'commit.interval.ms': 30_000 },
      },
      topics: [{ name: SOURCE, partitions: 4, config: {} }],
      stores: [],
      nodes: [
        {
          id: 'src',
          kind: 'source',
          config: {
            topic: SOURCE,
            keySerde: 'integer',
            valueSerde: 'bytes',
            offsetReset: 'earliest',
          },
        },
        { id: 'peek', kind: 'peek', config: { action: { function: 'countRecords' } } },
      ],
      edges: [{ from: 'src', fromPort: 'out', to: 'peek', toPort: 'in' }],
      layout: { nodes: {} },
    },
    backend,
    stateDir: '/nonexistent',
    functions,
    workerModule,
  });
  resetThreadStats();
  globalThis.gc?.();
  const pool = engine.workerPoolStats();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await app.start();
  const started = performance.now() - t0;
  let first = null;
  for (;;) {
    const done = progressTotal();
    if (first === null && done > 0) first = performance.now() - t0;
    if (done >= args.records - 1024 * args.threads) {
      let total = 0;
      for (const t of Object.values(app.metrics().threads)) total += t['process-total'] ?? 0;
      if (total >= args.records) break;
    }
    if (app.state() === 'ERROR')
      throw new Error(`app failed: ${JSON.stringify(app.status().errors[0])}`);
    await new Promise((r) => setTimeout(r, 1));
  }
  const all = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const reused = engine.workerPoolStats().reused - pool.reused;
  await app.close();
  return { started, first, all, cpuMs: (used.user + used.system) / 1000, reused };
}

const runs = { fresh: [], reused: [] };
for (let r = 0; r < args.rounds; r++) {
  await engine.drainWorkerPool();
  runs.fresh.push(await runApp(`f${r}`));
  runs.reused.push(await runApp(`r${r}`));
}
await backend.close();
console.log(
  `${args.threads} threads, ${args.records} records, ${args.rounds} rounds (medians; ms from start())`,
);
for (const [mode, list] of Object.entries(runs)) {
  const m = (k) => median(list.map((x) => x[k])).toFixed(1);
  console.log(
    `  ${mode.padEnd(7)} start() ${m('started')} ms, first record ${m('first')} ms, all records ${m('all')} ms, ` +
      `process CPU ${m('cpuMs')} ms; workers from the pool: ${list.map((x) => x.reused).join(' ')}`,
  );
}
