// Our side of bench/kafka/peer.mjs: one SimpleBenchmark case on Streamwright's engine (the BUILT
// dist) and its Apache Kafka backend, in this process alone — the harness starts a fresh one per
// run and measures its CPU time, as it does for the Java peers (tools/java-peer). Same command
// line and the same one-line JSON result as dev.streamwright.peer.bench.SimpleBenchmark:
//
//   node bench/kafka/engine-peer.mjs --bootstrap-servers HOST:PORT --records N --case CASE
//        --guarantee at_least_once|exactly_once_v2 --threads T [--topic simpleBenchmarkSourceTopic]
//        [--sink simpleBenchmarkSinkTopic] [--partitions 4] [--application-id ID]
//        [--state-dir DIR] [--pause-at-end]
//
// The topologies are SimpleBenchmark's: source → peek (→ sink | → groupByKey → count, store
// "count-store" | → groupByKey → hopping 1000 ms / 500 ms, no grace → count, store
// "windowed-counts"). The peek is bench/engine/bench-functions.mjs' countRecords (SimpleBenchmark's
// CountDownAction: it only counts). The run is timed from start() until the app has processed
// --records records (each thread's processed count from shared memory, confirmed with the app's
// metrics' process-total near the end), as SimpleBenchmark times it; config is the engine's
// defaults (commit.interval.ms 30 s, or 100 ms with exactly_once_v2). Nothing but the result
// goes to stdout; progress ("progress N" every 5 s) and warnings go to stderr.
//
// A start the engine refuses (exactly_once_v2 on a backend without transactions) prints
// {"refused": "<the engine's reason>"} and exits 0: the harness reports the cell as refused,
// never as a figure.
import { createInterface } from 'node:readline';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../packages/engine/dist/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('backends/kafka/index.js', dist)))) {
  console.error(
    'packages/engine/dist is missing: run `pnpm exec turbo run build --filter=@streamwright/engine...`',
  );
  process.exit(2);
}
const args = parseArgs(process.argv.slice(2));
const engine = await import(new URL('index.js', dist).href);
// As the runtime does: stream-thread workers without V8's memory reducer (the figures of record).
if (process.env.STREAMWRIGHT_WORKER_MEMORY_REDUCER !== 'on') engine.disableWorkerMemoryReducer();
const { createKafkaBackend } = await import(new URL('backends/kafka/index.js', dist).href);
const workerModule = new URL('../engine/bench-functions.mjs', import.meta.url).href;
const { functions, progressTotal, PROGRESS_CHUNK } = await import(workerModule);

const source = {
  id: 'source',
  kind: 'source',
  config: { topic: args.topic, keySerde: 'integer', valueSerde: 'bytes', offsetReset: 'earliest' },
};
const peek = { id: 'peek', kind: 'peek', config: { action: { function: 'countRecords' } } };
const group = { id: 'group', kind: 'groupByKey', config: {} };
const CASES = {
  streamprocess: { nodes: [source, peek], chain: ['source', 'peek'] },
  streamprocesswithsink: {
    nodes: [
      source,
      peek,
      {
        id: 'sink',
        kind: 'sink',
        config: { topic: args.sink, keySerde: 'integer', valueSerde: 'bytes' },
      },
    ],
    chain: ['source', 'peek', 'sink'],
  },
  streamcount: {
    nodes: [source, peek, group, { id: 'count', kind: 'count', config: { store: 'count-store' } }],
    chain: ['source', 'peek', 'group', 'count'],
  },
  streamcountwindowed: {
    nodes: [
      source,
      peek,
      group,
      {
        id: 'windows',
        kind: 'windowedBy',
        config: { window: { type: 'hopping', sizeMs: 1000, advanceMs: 500, graceMs: 0 } },
      },
      { id: 'count', kind: 'windowedCount', config: { store: 'windowed-counts' } },
    ],
    chain: ['source', 'peek', 'group', 'windows', 'count'],
  },
};
const spec = CASES[args.case];
if (!spec) fail(2, `--case must be one of ${Object.keys(CASES).join(', ')}, got '${args.case}'`);
if (!['at_least_once', 'exactly_once_v2'].includes(args.guarantee))
  fail(2, `--guarantee must be at_least_once or exactly_once_v2, got '${args.guarantee}'`);

const stateDir = args.stateDir ?? mkdtempSync(join(tmpdir(), 'streamwright-engine-bench-'));
const logger = { warn: (obj, msg) => console.error(`WARN ${msg ?? ''} ${JSON.stringify(obj)}`) };
const backend = await createKafkaBackend({ bootstrapServers: [args.bootstrapServers], logger });
const edges = [];
for (let i = 1; i < spec.chain.length; i++)
  edges.push({ from: spec.chain[i - 1], fromPort: 'out', to: spec.chain[i], toPort: 'in' });
const app = engine.createStreamsApp({
  topology: {
    schemaVersion: 1,
    application: {
      id: args.applicationId,
      config: { 'num.stream.threads': args.threads, 'processing.guarantee': args.guarantee },
    },
    topics: [{ name: args.topic, partitions: args.partitions, config: {} }],
    stores: [],
    nodes: spec.nodes,
    edges,
    layout: { nodes: {} },
  },
  backend,
  stateDir,
  functions,
  workerModule,
});

const processed = () => {
  let n = 0;
  for (const t of Object.values(app.metrics().threads)) n += t['process-total'] ?? 0;
  return n;
};
const started = performance.now();
try {
  await app.start();
} catch (error) {
  // A refused start leaves the app CREATED (app/start-checks.ts); anything else is a failure.
  if (app.state() === 'CREATED') {
    console.log(JSON.stringify({ refused: String(error?.message ?? error) }));
    await cleanUp();
    process.exit(0);
  }
  throw error;
}
let lastProgress = 0;
for (;;) {
  const state = app.state();
  if (state === 'ERROR' || state === 'PENDING_ERROR' || state === 'NOT_RUNNING') {
    const first = app.status().errors?.[0];
    fail(
      1,
      `the app went ${state} after ${progressTotal()} records: ${JSON.stringify(first ?? null)}`,
    );
  }
  // The threads' shared counters lag by < PROGRESS_CHUNK each; metrics() (a registry walk) is
  // asked only once they are that close, so the check costs the record path almost nothing.
  if (
    progressTotal() >= args.records - PROGRESS_CHUNK * args.threads &&
    processed() >= args.records
  )
    break;
  if (performance.now() - lastProgress >= 5000) {
    console.error(`progress ${progressTotal()}`);
    lastProgress = performance.now();
  }
  await new Promise((resolve) => setTimeout(resolve, 2));
}
const elapsedMs = performance.now() - started;
console.log(
  JSON.stringify({
    records: args.records,
    elapsedMs: Math.round(elapsedMs * 10) / 10,
    recordsPerSec: Math.round((args.records / elapsedMs) * 1000 * 10) / 10,
    processed: processed(),
  }),
);
if (args.pauseAtEnd) await waitForLine();
await app.close();
await cleanUp();
process.exit(0);

async function cleanUp() {
  await backend.close().catch(() => {});
  if (!args.stateDir) rmSync(stateDir, { recursive: true, force: true });
}

/** The harness writes a line once it has read our CPU time (closing the app is not counted). */
function waitForLine() {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.once('line', () => {
      lines.close();
      resolve();
    });
    lines.once('close', resolve);
  });
}

function fail(code, message) {
  console.error(`engine-peer: ${message}`);
  process.exit(code);
}

function parseArgs(argv) {
  const options = {
    'bootstrap-servers': [null, String],
    topic: ['simpleBenchmarkSourceTopic', String],
    sink: ['simpleBenchmarkSinkTopic', String],
    records: [null, Number],
    case: [null, String],
    guarantee: [null, String],
    threads: [null, Number],
    partitions: [4, Number],
    'application-id': [null, String],
    'state-dir': [null, String],
  };
  const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  const out = { pauseAtEnd: false };
  for (const [name, [value]] of Object.entries(options)) out[camel(name)] = value;
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    if (name === 'pause-at-end') out.pauseAtEnd = true;
    else if (name !== null && options[name] && i + 1 < argv.length)
      out[camel(name)] = options[name][1](argv[++i]);
    else fail(2, `unexpected argument '${argv[i]}'`);
  }
  for (const name of ['bootstrap-servers', 'records', 'case', 'guarantee', 'threads'])
    if (out[camel(name)] === null) fail(2, `--${name} is required`);
  for (const name of ['records', 'threads', 'partitions'])
    if (!Number.isInteger(out[camel(name)]) || out[camel(name)] <= 0)
      fail(2, `--${name} must be a positive integer`);
  out.applicationId ??= `streamwright-${out.case}-${Date.now()}`;
  return out;
}
