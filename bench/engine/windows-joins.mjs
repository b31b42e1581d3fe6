// Kafka Streams' SimpleBenchmark windowed and join cases on Streamwright's engine (the BUILT dist)
// and the in-memory embedded backend, one stream thread:
//
//   pnpm --filter @streamwright/topology-model build && pnpm --filter @streamwright/engine build
//   node bench/engine/windows-joins.mjs [case...] [--records 1000000] [--runs 3] [--partitions 1] [--keys 10000] [--profile DIR]
//                                       [--store rocksDB|in_memory]
//
// Cases: streamcountwindowed (groupByKey → hopping 1000 ms / 500 ms → count),
// streamprocesswithwindowstore (a Processor API processor on a window store of 1 s windows kept
// 3 s: fetch key ± 10 over the last second, then put), streamtablejoin
// (KStream–KTable leftJoin), streamtablejoingrace (the same with Joined#withGracePeriod(1000)
// over a versioned table), streamstreamjoin (KStream–KStream leftJoin, 10 s window),
// tabletablejoin (KTable–KTable leftJoin). Keys are Java integers from --keys, values 100 random
// bytes, record timestamps one millisecond apart. Inputs are loaded once per case (not timed); a
// run starts a fresh application and is timed from the first processed record until --records
// input records are processed (thread start-up and group join excluded). For the joins, the
// table sides (--keys records each) are loaded and processed before the timed stream side.
// --profile DIR writes a CPU profile of each run's timed part (not the input load, unlike
// node --cpu-prof) to DIR/<case>-<run>.cpuprofile. --store: `default.dsl.store` (rocksDB, the
// default as in Kafka Streams: persistent lmdb stores in a temp state dir removed at the end;
// in_memory: every store in memory).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../packages/engine/dist/index.js', import.meta.url);
if (!existsSync(fileURLToPath(dist))) {
  console.error('packages/engine/dist is missing: build topology-model and engine first');
  process.exit(1);
}
const engine = await import(dist.href);
// As the runtime does: stream-thread workers without V8's memory reducer (the figures of record).
if (process.env.STREAMWRIGHT_WORKER_MEMORY_REDUCER !== 'on') engine.disableWorkerMemoryReducer();
const model = await import(
  new URL('../../packages/topology-model/dist/index.js', import.meta.url).href
);
const workerModule = new URL('./windows-joins-functions.mjs', import.meta.url).href;
const { functions, processors } = await import(workerModule);
const args = parseArgs(process.argv.slice(2));
const stateDir = mkdtempSync(join(tmpdir(), 'streamwright-windows-bench-'));
process.on('exit', () => rmSync(stateDir, { recursive: true, force: true }));

const src = (id, topic, kind = 'source') => ({
  id,
  kind,
  config: { topic, keySerde: 'integer', valueSerde: 'bytes' },
});
const joiner = { function: 'joinLeft' };

const CASES = {
  streamcountwindowed: {
    streams: ['input'],
    tables: [],
    nodes: [
      src('source', 'input'),
      { id: 'group', kind: 'groupByKey', config: {} },
      {
        id: 'windows',
        kind: 'windowedBy',
        config: { window: { type: 'hopping', sizeMs: 1000, advanceMs: 500 } },
      },
      { id: 'count', kind: 'windowedCount', config: { store: 'windowed-counts' } },
    ],
    edges: [
      ['source', 'group'],
      ['group', 'windows'],
      ['windows', 'count'],
    ],
  },
  streamprocesswithwindowstore: {
    streams: ['input'],
    tables: [],
    // Stores.windowStoreBuilder(Stores.persistentWindowStore("store", 3 s, 1 s, false), …)
    stores: [
      {
        name: 'store',
        type: 'window',
        keySerde: 'integer',
        valueSerde: 'bytes',
        retentionMs: 3000,
        windowSizeMs: 1000,
        retainDuplicates: false,
      },
    ],
    nodes: [
      src('source', 'input'),
      {
        id: 'process',
        kind: 'process',
        config: { processor: 'windowStoreProcessor', stores: ['store'] },
      },
    ],
    edges: [['source', 'process']],
  },
  streamtablejoin: {
    streams: ['input'],
    tables: ['table'],
    nodes: [
      src('stream', 'input'),
      src('table', 'table', 'table'),
      { id: 'join', kind: 'streamTableJoin', config: { type: 'left', joiner } },
    ],
    edges: [
      ['stream', 'join', 'left'],
      ['table', 'join', 'right'],
    ],
  },
  // The same join with Joined#withGracePeriod(1000) over a versioned table (history 10 s): every
  // stream record waits in the join's time-ordered buffer (logged to its changelog) until stream
  // time passes it by 1 s, then joins the table as of its timestamp.
  streamtablejoingrace: {
    streams: ['input'],
    tables: ['table'],
    nodes: [
      src('stream', 'input'),
      {
        ...src('table', 'table', 'table'),
        config: {
          ...src('table', 'table', 'table').config,
          store: 'table-store',
          versioned: { historyRetentionMs: 10_000 },
        },
      },
      {
        id: 'join',
        kind: 'streamTableJoin',
        config: { type: 'left', joiner, gracePeriodMs: 1000 },
      },
    ],
    edges: [
      ['stream', 'join', 'left'],
      ['table', 'join', 'right'],
    ],
  },
  streamstreamjoin: {
    streams: ['input', 'input2'],
    tables: [],
    nodes: [
      src('left', 'input'),
      src('right', 'input2'),
      {
        id: 'join',
        kind: 'streamStreamJoin',
        config: { type: 'left', joiner, window: { beforeMs: 10_000, afterMs: 10_000 } },
      },
    ],
    edges: [
      ['left', 'join', 'left'],
      ['right', 'join', 'right'],
    ],
  },
  tabletablejoin: {
    streams: ['input', 'input2'],
    tables: [],
    nodes: [
      src('left', 'input', 'table'),
      src('right', 'input2', 'table'),
      { id: 'join', kind: 'tableTableJoin', config: { type: 'left', joiner } },
    ],
    edges: [
      ['left', 'join', 'left'],
      ['right', 'join', 'right'],
    ],
  },
};

const cases = args._.length > 0 ? args._ : Object.keys(CASES);
console.error(
  `# node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ` +
    `${args.records} records, ${args.keys} keys, ${args.partitions} partition(s), ${args.runs} runs, 1 thread, default.dsl.store ${args.store}`,
);
let profiler = null;
if (args.profile) {
  profiler = new Session();
  profiler.connect();
  await profiler.post('Profiler.enable');
}

const results = [];
for (const name of cases) {
  const spec = CASES[name];
  if (!spec) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(', ')}`);
  const backend = await engine.createEmbeddedBackend({ retentionCheckIntervalMs: 3_600_000 });
  const topics = [...spec.tables, ...spec.streams];
  await backend.createTopics(topics.map((t) => ({ name: t, partitions: args.partitions })));
  const pool = randomBytes(100 * 4096);
  const base = 1_700_000_000_000;
  for (const t of spec.tables) await load(backend, t, args.keys, pool, base);
  // The stream side(s): --records in all, split evenly, interleaved in time.
  for (const [i, t] of spec.streams.entries())
    await load(
      backend,
      t,
      Math.floor(args.records / spec.streams.length),
      pool,
      base + 1000 + i,
      spec.streams.length,
    );
  const total = args.keys * spec.tables.length + args.records;
  const rates = [];
  const cpus = [];
  for (let r = 0; r < args.runs; r++) {
    globalThis.gc?.();
    const { rate, cpuNs } = await run(
      backend,
      spec,
      name,
      r,
      total,
      args.keys * spec.tables.length,
    );
    rates.push(rate);
    cpus.push(cpuNs);
  }
  await backend.close();
  const median = medianOf(rates);
  const cpuNs = medianOf(cpus);
  results.push({
    case: name,
    median,
    runs: rates.map(Math.round),
    cpuNsPerRecord: Math.round(cpuNs),
    cpuNsPerRecordRuns: cpus.map(Math.round),
  });
  console.log(
    `${name}: ${(median / 1e3).toFixed(0)} k records/s median (runs: ${rates.map((x) => (x / 1e3).toFixed(0)).join(', ')} k), ` +
      `${cpuNs.toFixed(0)} ns CPU per record median (≙ ${(1e6 / cpuNs).toFixed(0)} k records/s per core; ` +
      `runs: ${cpus.map((x) => x.toFixed(0)).join(', ')} ns)`,
  );
}
if (args.json) console.log(JSON.stringify(results));

async function load(backend, topic, count, pool, start, step = 1) {
  let batch = [];
  for (let i = 0; i < count; i++) {
    const key = new Uint8Array(4);
    new DataView(key.buffer).setInt32(0, i % args.keys);
    const at = ((i * 7919) % 4096) * 100;
    batch.push({ topic, key, value: pool.subarray(at, at + 100), timestamp: start + i * step });
    if (batch.length === 10_000) {
      await backend.produce(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await backend.produce(batch);
}

async function run(backend, spec, name, runIndex, total, untimed) {
  const topology = {
    schemaVersion: 1,
    application: {
      id: `bench-${name}-${runIndex}-${Date.now()}`,
      config: {
        'num.stream.threads': 1,
        'commit.interval.ms': 30_000,
        'default.dsl.store': args.store,
      },
    },
    topics: [...spec.tables, ...spec.streams].map((t) => ({
      name: t,
      partitions: args.partitions,
      config: {},
    })),
    stores: spec.stores ?? [],
    nodes: spec.nodes,
    edges: spec.edges.map(([from, to, toPort = 'in']) => ({ from, fromPort: 'out', to, toPort })),
    layout: { nodes: {} },
  };
  const validated = model.validateTopology(topology);
  if (!validated.ok) throw new Error(JSON.stringify(validated.errors));
  const app = engine.createStreamsApp({
    topology: validated.topology,
    backend,
    stateDir,
    functions,
    processors,
    workerModule,
  });
  await app.start();
  let firstAt = null;
  let firstCpu = null;
  let firstCount = 0;
  for (;;) {
    let processed = 0;
    for (const t of Object.values(app.metrics().threads)) processed += t['process-total'] ?? 0;
    // Timed from the first record past the table preload (tables are processed first: lower timestamps).
    if (firstAt === null && processed > untimed) {
      firstAt = performance.now();
      firstCpu = process.cpuUsage();
      firstCount = processed;
      if (profiler) await profiler.post('Profiler.start');
    }
    if (processed >= total) break;
    if (app.state() === 'ERROR')
      throw new Error(`app failed: ${JSON.stringify(app.status().errors[0])}`);
    await new Promise((r) => setTimeout(r, 2));
  }
  const ended = performance.now();
  const cpu = process.cpuUsage(firstCpu);
  if (profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    mkdirSync(args.profile, { recursive: true });
    writeFileSync(`${args.profile}/${name}-${runIndex}.cpuprofile`, JSON.stringify(profile));
  }
  await app.close();
  const records = total - firstCount;
  // CPU of this process (all its threads: the stream thread, GC helpers) per timed record.
  return {
    rate: (records / (ended - firstAt)) * 1000,
    cpuNs: ((cpu.user + cpu.system) * 1000) / records,
  };
}

function medianOf(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function parseArgs(argv) {
  const out = {
    _: [],
    records: 1_000_000,
    runs: 3,
    partitions: 1,
    keys: 10_000,
    json: false,
    profile: null,
    store: 'rocksDB',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--records') out.records = Number(next());
    else if (a === '--runs') out.runs = Number(next());
    else if (a === '--partitions') out.partitions = Number(next());
    else if (a === '--keys') out.keys = Number(next());
    else if (a === '--json') out.json = true;
    else if (a === '--profile') out.profile = next();
    else if (a === '--store') out.store = next();
    else out._.push(a);
  }
  return out;
}
