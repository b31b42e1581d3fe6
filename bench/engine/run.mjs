// Kafka Streams' SimpleBenchmark, on Streamwright's engine (the BUILT dist) and the embedded
// backend without a data dir (@streamwright/log in a temporary directory, no fsync).
//
//   pnpm --filter @streamwright/engine build
//   node bench/engine/run.mjs [case...] [--records 2000000] [--runs 3] [--threads 1,2]
//                             [--partitions 4] [--value-size 100] [--keys 10000] [--json]
//                             [--fresh-process] [--idle-ms 0]
//
// Cases (SimpleBenchmark's names): streamprocess (source → peek), streamprocesswithsink
// (source → peek → to), streamcount (groupByKey → count). Default: streamprocess and
// streamprocesswithsink.
//
// Per case the source topic is loaded once (not timed) with --records records: integer keys
// (Java IntegerSerializer, 4 bytes big-endian) drawn from --keys, random --value-size byte values.
// A run starts a fresh application (its own application.id, so it reads from offset 0). It is
// timed end to end, from start() until every record is processed (and, with a sink, written), as
// SimpleBenchmark does, and in steady state, from the first processed record on (so without
// thread start-up: loading a worker's modules, joining the group). The CPU time of the whole
// process (main thread and workers) per record is reported too: it does not depend on what else
// the machine runs; so does the CPU of each thread (stream threads, the main thread, the
// process's other threads such as V8's GC helpers), read from /proc/thread-self/schedstat by
// bench-functions.mjs, which also reports how long each thread waited for a core, its start-up
// CPU and how the records were split between threads. Each configuration runs --runs times;
// medians are reported. The end is detected from progress slots the threads write into shared
// memory (bench-functions.mjs) and confirmed with the app's metrics() once they are within 1024
// records per thread of it, so the check costs the threads almost nothing. The "plain" loop does the same work on the same records without the
// engine: fetch in batches of 1000 per partition, deserialize key and value, call the same peek
// function (and serialize and produce in batches for the sink case), so engine/plain shows what
// the engine's machinery costs.
//
// --fresh-process runs every engine run in a process of its own (as Kafka's SimpleBenchmark runs
// each test in a fresh JVM), alternating 1 and 2 threads: then the 1-thread runs start as cold as
// the 2-thread runs' workers do. Without it, the 1-thread runs use the main thread, whose JIT the
// plain loop and the earlier runs have warmed, and the first 2-thread run of a case spawns its
// workers, which the later ones take from the process's pool (docs/ENGINE.md, "Worker pool"),
// warm as the main thread is; STREAMWRIGHT_WORKER_POOL=off spawns them for every run. The
// source topic is loaded in each child before its timed run; no plain loop runs there.
//
// --idle-ms N waits N ms before each configuration's runs: the pool's workers then sit idle that
// long before the 2-thread runs take them, as between two deploys (commit bf799d2
// measured it). A case may be named twice (`streamprocesswithsink
// streamprocesswithsink`): the second one's 2-thread runs then take the first one's workers.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { BroadcastChannel } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

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
const { median, print, summary, threadReport, threadSummary } = await import('./report.mjs');
const workerModule = new URL('./bench-functions.mjs', import.meta.url).href;
const { functions, threadStats, resetThreadStats, progressTotal, PROGRESS_CHUNK, STATS_CHANNEL } =
  await import(workerModule);

const args = parseArgs(process.argv.slice(2));
const SOURCE = 'simpleBenchmarkSourceTopic';
const SINK = 'simpleBenchmarkSinkTopic';

const CASES = {
  streamprocess: {
    nodes: () => [source(), peek()],
    edges: [['source', 'peek']],
    sink: false,
  },
  streamprocesswithsink: {
    nodes: () => [
      source(),
      peek(),
      {
        id: 'sink',
        kind: 'sink',
        config: { topic: SINK, keySerde: 'integer', valueSerde: 'bytes' },
      },
    ],
    edges: [
      ['source', 'peek'],
      ['peek', 'sink'],
    ],
    sink: true,
  },
  streamcount: {
    nodes: () => [
      source(),
      { id: 'group', kind: 'groupByKey', config: {} },
      { id: 'count', kind: 'count', config: { store: 'count-store' } },
    ],
    edges: [
      ['source', 'group'],
      ['group', 'count'],
    ],
    sink: false,
    plainCount: true,
  },
};

function source() {
  return {
    id: 'source',
    kind: 'source',
    config: { topic: SOURCE, keySerde: 'integer', valueSerde: 'bytes', offsetReset: 'earliest' },
  };
}
function peek() {
  return { id: 'peek', kind: 'peek', config: { action: { function: 'countRecords' } } };
}

const cases = args._.length > 0 ? args._ : ['streamprocess', 'streamprocesswithsink'];
for (const c of cases) {
  if (!CASES[c]) {
    console.error(`unknown case ${c}; known: ${Object.keys(CASES).join(', ')}`);
    process.exit(1);
  }
}

const results = [];
let steady = [];
let cpuCost = [];
let threadRuns = [];
if (!args.child)
  console.error(
    `# node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ` +
      `${args.records} records, ${args.valueSize}-byte values, ${args.keys} keys, ${args.partitions} partitions, ${args.runs} runs`,
  );
if (args.child) {
  // One timed engine run in this fresh process; its figures as one JSON line for the parent.
  const name = cases[0];
  const spec = CASES[name];
  const backend = await engine.createEmbeddedBackend({ retentionCheckIntervalMs: 3_600_000 });
  await backend.createTopics([{ name: SOURCE, partitions: args.partitions }]);
  await preload(backend);
  gc();
  const threads = args.threads[0];
  const rate = await runEngine(backend, spec, name, threads, 0);
  await backend.close();
  console.log(JSON.stringify({ rate, steady: steady[0], cpu: cpuCost[0], thread: threadRuns[0] }));
  process.exit(0);
}
if (args.freshProcess) {
  for (const name of cases) {
    const bytes = args.records * (4 + args.valueSize);
    const row = { case: name, records: args.records, runs: {}, steady: {}, fresh: true };
    const byThreads = new Map(args.threads.map((t) => [t, []]));
    for (let r = 0; r < args.runs; r++)
      for (const threads of args.threads)
        byThreads.get(threads).push(await runChild(name, threads));
    for (const [threads, runs] of byThreads) {
      row.runs[threads] = summary(
        runs.map((x) => x.rate),
        bytes,
        args.records,
      );
      row.steady[threads] = summary(
        runs.map((x) => x.steady),
        bytes,
        args.records,
      );
      row.cpuNsPerRecord ??= {};
      row.cpuNsPerRecord[threads] = median(runs.map((x) => x.cpu));
      row.threadCpu ??= {};
      row.threadCpu[threads] = threadSummary(runs.map((x) => x.thread));
    }
    if (row.runs[1] && row.runs[2]) {
      row.twoVsOne = row.runs[2].median / row.runs[1].median;
      row.twoVsOneSteady = row.steady[2].median / row.steady[1].median;
      row.cpuTwoVsOne = row.cpuNsPerRecord[2] / row.cpuNsPerRecord[1];
    }
    results.push(row);
    print(row);
  }
  if (args.json) console.log(JSON.stringify(results));
  process.exit(0);
}
for (const name of cases) {
  const spec = CASES[name];
  const backend = await engine.createEmbeddedBackend({ retentionCheckIntervalMs: 3_600_000 });
  await backend.createTopics([{ name: SOURCE, partitions: args.partitions }]);
  await preload(backend);
  const bytes = args.records * (4 + args.valueSize);
  const row = { case: name, records: args.records, runs: {} };
  const plain = [];
  for (let r = 0; r < args.runs; r++) {
    gc();
    plain.push(await runPlain(backend, spec));
  }
  row.plain = summary(plain, bytes, args.records);
  row.steady = {};
  for (const threads of args.threads) {
    if (args.idleMs > 0) await new Promise((resolve) => setTimeout(resolve, args.idleMs));
    const rates = [];
    steady = [];
    cpuCost = [];
    threadRuns = [];
    for (let r = 0; r < args.runs; r++) {
      gc();
      rates.push(await runEngine(backend, spec, name, threads, r));
    }
    row.runs[threads] = summary(rates, bytes, args.records);
    row.steady[threads] = summary(steady, bytes, args.records);
    row.cpuNsPerRecord ??= {};
    row.cpuNsPerRecord[threads] = median(cpuCost);
    row.threadCpu ??= {};
    row.threadCpu[threads] = threadSummary(threadRuns);
  }
  await backend.close();
  const one = row.runs[1] ?? row.runs[args.threads[0]];
  row.engineVsPlain = one.median / row.plain.median;
  if (row.runs[1] && row.runs[2]) {
    row.twoVsOne = row.runs[2].median / row.runs[1].median;
    row.twoVsOneSteady = row.steady[2].median / row.steady[1].median;
    row.cpuTwoVsOne = row.cpuNsPerRecord[2] / row.cpuNsPerRecord[1];
  }
  results.push(row);
  print(row);
}
if (args.json) console.log(JSON.stringify(results));

// ---- runs ---------------------------------------------------------------------------------------

/** One engine run of `name` with `threads` stream threads in a fresh child process. */
function runChild(name, threads) {
  const argv = [
    '--expose-gc',
    fileURLToPath(import.meta.url),
    name,
    '--child',
    '--threads',
    String(threads),
    '--records',
    String(args.records),
    '--partitions',
    String(args.partitions),
    '--value-size',
    String(args.valueSize),
    '--keys',
    String(args.keys),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${name} with ${threads} threads: exit ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

async function preload(backend) {
  const pool = randomBytes(args.valueSize * 4096);
  const now = Date.now();
  let batch = [];
  for (let i = 0; i < args.records; i++) {
    const key = new Uint8Array(4);
    new DataView(key.buffer).setInt32(0, i % args.keys);
    const at = ((i * 7919) % 4096) * args.valueSize;
    batch.push({
      topic: SOURCE,
      key,
      value: pool.subarray(at, at + args.valueSize),
      timestamp: now + i,
    });
    if (batch.length === 10_000) {
      await backend.produce(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await backend.produce(batch);
}

/** The same work without the engine: fetch, deserialize, peek (and serialize + produce). */
async function runPlain(backend, spec) {
  const { integerSerde, bytesSerde } = engine;
  if (spec.sink) await resetSink(backend);
  const counts = new Map();
  const started = performance.now();
  for (let p = 0; p < args.partitions; p++) {
    let offset = 0;
    for (;;) {
      const records = await backend.fetch({ topic: SOURCE, partition: p }, offset, 1000, 0);
      if (records.length === 0) break;
      const out = spec.sink ? [] : null;
      for (const r of records) {
        const key = integerSerde.deserialize(r.key);
        const value = bytesSerde.deserialize(r.value);
        if (spec.plainCount) {
          counts.set(key, (counts.get(key) ?? 0) + 1);
          continue;
        }
        functions.countRecords({ key, value, timestamp: r.timestamp, headers: r.headers });
        if (out)
          out.push({
            topic: SINK,
            key: integerSerde.serialize(key),
            value: bytesSerde.serialize(value),
            timestamp: r.timestamp,
            headers: r.headers,
          });
      }
      if (out) await backend.produce(out);
      offset = records[records.length - 1].offset + 1;
    }
  }
  const ms = performance.now() - started;
  return (args.records / ms) * 1000;
}

async function runEngine(backend, spec, name, threads, run) {
  if (spec.sink) await resetSink(backend);
  const topology = {
    schemaVersion: 1,
    application: {
      id: `bench-${name}-${threads}t-${run}-${Date.now()}`,
      config: { 'num.stream.threads': threads, 'commit.interval.ms': 30_000 },
    },
    topics: [{ name: SOURCE, partitions: args.partitions, config: {} }],
    stores: [],
    nodes: spec.nodes(),
    edges: spec.edges.map(([from, to]) => ({ from, fromPort: 'out', to, toPort: 'in' })),
    layout: { nodes: {} },
  };
  const app = engine.createStreamsApp({
    topology,
    backend,
    stateDir: '/nonexistent',
    functions,
    workerModule,
  });
  resetThreadStats();
  const mainBefore = threadStats();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await app.start();
  // Steady state: from the first processed record on (thread start-up, worker loading and group
  // join excluded), measured from the thread's counters; end to end: from start(), as
  // SimpleBenchmark measures.
  // Completion: the threads' progress slots (bench-functions.mjs) are read, a few atomic loads;
  // only once they are within a chunk per thread of the end does the loop ask the app's metrics()
  // for the exact count. Until the first record the slots are read every 2 ms (the steady-state
  // mark); after it, the loop sleeps a quarter of the time the records left should take at the
  // rate since the last check (at most 50 ms, at least 2 ms), so the end is still seen within
  // 2 ms while the main thread wakes 60–120 times a 2M-record run instead of every 2 ms (1 500–2 500
  // times at load 12; each wake-up is CPU taken from the cores the threads run on: with one thread
  // from the stream thread itself, with two from the main thread that writes their output). Same
  // loop for 1 and 2 threads.
  let firstAt = null;
  let firstCount = 0;
  let lastAt = null;
  let lastCount = 0;
  const nearEnd = args.records - PROGRESS_CHUNK * threads;
  for (;;) {
    let processed = progressTotal();
    const now = performance.now();
    if (firstAt === null && processed > 0) {
      firstAt = now;
      firstCount = processed;
    }
    let sleepMs = 2;
    if (lastAt !== null && processed > lastCount && now > lastAt) {
      const msPerRecord = (now - lastAt) / (processed - lastCount);
      sleepMs = Math.min(50, Math.max(2, ((args.records - processed) * msPerRecord) / 4));
    }
    if (firstAt !== null) {
      lastAt = now;
      lastCount = processed;
    }
    if (processed >= nearEnd) {
      processed = 0;
      for (const t of Object.values(app.metrics().threads)) processed += t['process-total'] ?? 0;
      if (processed >= args.records && (!spec.sink || (await sinkEnd(backend)) >= args.records))
        break;
    }
    if (app.state() === 'ERROR')
      throw new Error(`app failed: ${JSON.stringify(app.status().errors[0])}`);
    await new Promise((r) => setTimeout(r, sleepMs));
  }
  const ended = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  const mainAfter = threadStats();
  const workers = threads > 1 ? await threadStatsOfWorkers(threads) : [];
  await app.close();
  threadRuns.push(threadReport(args.records, threads, cpu, mainBefore, mainAfter, workers));
  steady.push(((args.records - firstCount) / (ended - (firstAt ?? started))) * 1000);
  // CPU time of every thread of the process (main and workers): what a record costs, whatever
  // else the machine is doing.
  cpuCost.push(((cpu.user + cpu.system) * 1000) / args.records);
  return (args.records / (ended - started)) * 1000;
}

async function resetSink(backend) {
  await backend.deleteTopics([SINK]);
  await backend.createTopics([{ name: SINK, partitions: args.partitions }]);
}

async function sinkEnd(backend) {
  const d = await backend.describeTopic(SINK);
  return d ? d.offsets.reduce((s, o) => s + o.latest, 0) : 0;
}

// ---- per-thread CPU -----------------------------------------------------------------------------

/** Asks each worker of the running app for its thread's counters (bench-functions.mjs). */
async function threadStatsOfWorkers(count) {
  const channel = new BroadcastChannel(STATS_CHANNEL);
  const replies = new Map();
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 2000);
    channel.onmessage = (event) => {
      if (typeof event.data === 'object') replies.set(event.data.threadId, event.data);
      if (replies.size === count) {
        clearTimeout(timer);
        resolve();
      }
    };
    channel.postMessage('ask');
  });
  channel.close();
  return [...replies.values()];
}

function gc() {
  globalThis.gc?.();
}

function parseArgs(argv) {
  const out = {
    _: [],
    records: 2_000_000,
    runs: 3,
    threads: [1, 2],
    partitions: 4,
    valueSize: 100,
    keys: 10_000,
    json: false,
    freshProcess: false,
    child: false,
    idleMs: 0,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--records') out.records = Number(next());
    else if (a === '--runs') out.runs = Number(next());
    else if (a === '--threads') out.threads = next().split(',').map(Number);
    else if (a === '--partitions') out.partitions = Number(next());
    else if (a === '--value-size') out.valueSize = Number(next());
    else if (a === '--keys') out.keys = Number(next());
    else if (a === '--json') out.json = true;
    else if (a === '--fresh-process') out.freshProcess = true;
    else if (a === '--child') out.child = true;
    else if (a === '--idle-ms') out.idleMs = Number(next());
    else out._.push(a);
  }
  return out;
}
