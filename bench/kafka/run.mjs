// SimpleBenchmark's streamprocess and streamprocesswithsink on the Apache Kafka backend, against a
// real broker (tools/kafka: Kafka 3.9.1, KRaft, one node, started here unless
// --bootstrap-servers names one), next to a plain kafkajs loop doing the same work on the same
// records. Everything runs in this one process (the engine in-process, for profiling it with
// `node --cpu-prof`); the comparison with Apache Kafka Streams and a plain Java loop, every run in
// a fresh process, all four SimpleBenchmark cases and both guarantees, is bench/kafka/peer.mjs.
//
//   pnpm exec turbo run build --filter=@streamwright/engine...
//   node --expose-gc bench/kafka/run.mjs [case...] [--records 50000] [--runs 1] [--threads 1,2]
//                                        [--partitions 4] [--value-size 100] [--keys 10000]
//                                        [--bootstrap-servers 127.0.0.1:9092] [--stall-ms 60000]
//                                        [--reuse-source] [--no-plain] [--json]
//
// --reuse-source keeps a source topic (of a broker named by --bootstrap-servers) that already holds
// --records records in --partitions partitions instead of loading it again; --no-plain skips the
// plain loop (for profiling the engine alone: `node --cpu-prof ...`).
//
// Per case the source topic is loaded once (not timed): integer keys (4 bytes big-endian) drawn
// from --keys, random --value-size byte values, in produce batches of 2 000 records (~230 KB:
// well under the broker's 1 MiB message.max.bytes, which one batch per partition of a larger
// send could exceed), acks=all, printing progress. A run is timed from start() until every record
// has been processed (and, with a sink, acknowledged by the broker), as SimpleBenchmark does.
// The plain loop is one kafkajs consumer (a fresh group, fromBeginning) with eachBatch:
// deserialize key and value, call the same peek function, and for the sink case send the batch's
// records to the sink topic with acks=all before the next batch. engine/plain is reported.
//
// Every wait prints progress every 5 s and fails (exit 1, naming the phase, the count reached and
// the app's state and first error) after --stall-ms without progress, so a stuck run says where
// it stuck instead of printing nothing.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../packages/engine/dist/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('backends/kafka/index.js', dist)))) {
  console.error('packages/engine/dist is missing: run `pnpm --filter @streamwright/engine build`');
  process.exit(1);
}
const engine = await import(new URL('index.js', dist).href);
// As the runtime does: stream-thread workers without V8's memory reducer (the figures of record).
if (process.env.STREAMWRIGHT_WORKER_MEMORY_REDUCER !== 'on') engine.disableWorkerMemoryReducer();
const { createKafkaBackend } = await import(new URL('backends/kafka/index.js', dist).href);
const { Kafka, logLevel } = createRequire(
  fileURLToPath(new URL('../../packages/engine/package.json', import.meta.url)),
)('kafkajs');
const workerModule = new URL('../engine/bench-functions.mjs', import.meta.url).href;
const { functions, progressTotal: functionsSeen } = await import(workerModule);
const { median } = await import('../engine/report.mjs');
process.env.KAFKAJS_NO_PARTITIONER_WARNING = '1';

const args = parseArgs(process.argv.slice(2));
const SOURCE = 'simpleBenchmarkSourceTopic';
const SINK = 'simpleBenchmarkSinkTopic';
/** Records per send of the plain loop and the preload (~230 KB with 100-byte values). */
const SEND_SLICE = 2000;
const CASES = {
  streamprocess: { sink: false },
  streamprocesswithsink: { sink: true },
};
const cases = args._.length > 0 ? args._ : Object.keys(CASES);
for (const c of cases)
  if (!CASES[c]) {
    console.error(`unknown case ${c}; known: ${Object.keys(CASES).join(', ')}`);
    process.exit(1);
  }

const { startBroker } = await import('../../tools/kafka/index.mjs');
const broker = args.bootstrapServers
  ? null
  : await phase('broker start', () => startBroker({ startTimeoutMs: 180_000 }));
const bootstrap = args.bootstrapServers ?? broker.bootstrapServers;
const quiet = { warn() {} };
const backend = await createKafkaBackend({ bootstrapServers: [bootstrap], logger: quiet });
const kafka = new Kafka({
  brokers: [bootstrap],
  clientId: 'bench-plain',
  logLevel: process.env.BENCH_KAFKAJS_DEBUG ? logLevel.DEBUG : logLevel.NOTHING,
});
let failed = false;
try {
  log(
    `# node ${process.version}, ${availableParallelism()} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; broker ${bootstrap}; ${args.records} records, ${args.valueSize}-byte values, ` +
      `${args.keys} keys, ${args.partitions} partitions, ${args.runs} runs`,
  );
  const source = args.reuseSource ? await backend.describeTopic(SOURCE) : null;
  const held = source?.offsets.reduce((n, o) => n + o.latest - o.earliest, 0);
  if (source?.partitions === args.partitions && held === args.records) {
    log(`  preload: reusing ${SOURCE} (${held} records)`);
  } else {
    await backend.deleteTopics([SOURCE]);
    await backend.createTopics([{ name: SOURCE, partitions: args.partitions }]);
    await preload();
  }
  for (const name of cases) {
    const spec = CASES[name];
    const plain = [];
    for (let r = 0; r < args.runs && args.plain; r++)
      plain.push(await runPlain(spec, `${name}-${r}`));
    const row = {
      case: name,
      records: args.records,
      plain: args.plain ? medians(plain) : null,
      engine: {},
    };
    for (const threads of args.threads) {
      const runs = [];
      for (let r = 0; r < args.runs; r++) runs.push(await runEngine(spec, name, threads, r));
      row.engine[threads] = medians(runs);
    }
    const show = (r) =>
      `${fmt(r.total)}/s end to end, ${fmt(r.steady)}/s steady, ${fmt(r.cpuNs)} ns CPU/record`;
    if (row.plain) console.log(`${name}: plain kafkajs ${show(row.plain)}`);
    for (const [t, r] of Object.entries(row.engine))
      console.log(
        `${name}: engine ${t} thread(s) ${show(r)}` +
          (row.plain
            ? `; engine/plain ${(r.total / row.plain.total).toFixed(2)} end to end, ${(r.steady / row.plain.steady).toFixed(2)} steady`
            : ''),
      );
    if (args.json) console.log(JSON.stringify(row));
  }
} catch (error) {
  failed = true;
  console.error(`FAILED: ${error.stack ?? error}`);
} finally {
  await backend.close().catch(() => {});
  await broker?.stop();
}
process.exit(failed ? 1 : 0);

// ---- phases -------------------------------------------------------------------------------------

async function preload() {
  const pool = randomBytes(args.valueSize * 4096);
  const now = Date.now();
  let sent = 0;
  // As bench/engine/run.mjs loads its source: the same keys, values and timestamps.
  const record = (i) => {
    const key = Buffer.alloc(4);
    key.writeInt32BE(i % args.keys);
    const at = ((i * 7919) % 4096) * args.valueSize;
    return {
      topic: SOURCE,
      key,
      value: pool.subarray(at, at + args.valueSize),
      timestamp: now + i,
    };
  };
  await watch(
    'preload',
    () => sent,
    args.records,
    async () => {
      for (let i = 0; i < args.records;) {
        const batch = [];
        for (const end = Math.min(args.records, i + SEND_SLICE); i < end; i++)
          batch.push(record(i));
        await backend.produce(batch);
        sent += batch.length;
      }
    },
  );
}

/** The same work on plain kafkajs: consume the source from the beginning (and produce to the sink). */
async function runPlain(spec, tag) {
  if (spec.sink) await resetSink();
  const consumer = kafka.consumer({ groupId: `bench-plain-${tag}-${Date.now()}` });
  const producer = spec.sink ? kafka.producer() : null;
  await consumer.connect();
  await producer?.connect();
  await consumer.subscribe({ topic: SOURCE, fromBeginning: true });
  let seen = 0;
  let ended;
  let done;
  // A crash (a non-retriable error) stops the consumer for good: fail with its error.
  const finished = new Promise((resolve, reject) => {
    done = resolve;
    consumer.on(consumer.events.CRASH, (e) =>
      reject(new Error(`plain ${tag}: the kafkajs consumer crashed: ${e.payload.error.message}`)),
    );
  });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let firstAt = null;
  await consumer.run({
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => {
      firstAt ??= performance.now();
      const out = producer ? [] : null;
      for (const m of batch.messages) {
        const key = m.key.readInt32BE(0);
        const value = new Uint8Array(m.value.buffer, m.value.byteOffset, m.value.byteLength);
        functions.countRecords({ key, value, timestamp: Number(m.timestamp), headers: m.headers });
        if (out) {
          const k = Buffer.alloc(4);
          k.writeInt32BE(key);
          out.push({ key: k, value: m.value, timestamp: m.timestamp });
        }
      }
      // In slices: a fetched batch holds up to 1 MiB per partition (kafkajs' maxBytesPerPartition),
      // and sent whole it exceeds the broker's message.max.bytes (MESSAGE_TOO_LARGE, which kafkajs
      // does not retry: the consumer crashes and consumes nothing more).
      for (let i = 0; out && i < out.length; i += SEND_SLICE)
        await producer.send({ topic: SINK, acks: -1, messages: out.slice(i, i + SEND_SLICE) });
      seen += batch.messages.length;
      if (seen >= args.records) done();
    },
  });
  try {
    await watch(
      `plain ${tag}`,
      () => seen,
      args.records,
      () => finished,
    );
    ended = performance.now();
  } finally {
    await consumer.disconnect();
    await producer?.disconnect();
  }
  return rates(started, firstAt, ended, process.cpuUsage(cpuBefore));
}

async function runEngine(spec, name, threads, run) {
  if (spec.sink) await resetSink();
  const nodes = [
    {
      id: 'source',
      kind: 'source',
      config: { topic: SOURCE, keySerde: 'integer', valueSerde: 'bytes', offsetReset: 'earliest' },
    },
    { id: 'peek', kind: 'peek', config: { action: { function: 'countRecords' } } },
  ];
  const edges = [['source', 'peek']];
  if (spec.sink) {
    nodes.push({
      id: 'sink',
      kind: 'sink',
      config: { topic: SINK, keySerde: 'integer', valueSerde: 'bytes' },
    });
    edges.push(['peek', 'sink']);
  }
  const app = engine.createStreamsApp({
    topology: {
      schemaVersion: 1,
      application: {
        id: `bench-kafka-${name}-${threads}t-${run}-${Date.now()}`,
        config: { 'num.stream.threads': threads, 'commit.interval.ms': 30_000 },
      },
      topics: [{ name: SOURCE, partitions: args.partitions, config: {} }],
      stores: [],
      nodes,
      edges: edges.map(([from, to]) => ({ from, fromPort: 'out', to, toPort: 'in' })),
      layout: { nodes: {} },
    },
    backend,
    stateDir: '/nonexistent',
    functions,
    workerModule,
  });
  const processed = () => {
    let n = 0;
    for (const t of Object.values(app.metrics().threads)) n += t['process-total'] ?? 0;
    return n;
  };
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const tag = `engine ${name} ${threads}t run ${run}`;
  // Steady state starts at the first processed record (after worker start-up and the group join).
  let firstAt = null;
  const first = setInterval(() => {
    if (functionsSeen() > seenBefore) {
      firstAt = performance.now();
      clearInterval(first);
    }
  }, 2);
  const seenBefore = functionsSeen();
  let ended;
  try {
    await app.start();
    await watch(
      tag,
      processed,
      args.records,
      async (progress) => {
        for (;;) {
          if (app.state() === 'ERROR')
            throw new Error(`app failed: ${JSON.stringify(app.status().errors[0])}`);
          if (processed() >= args.records && (!spec.sink || (await sinkEnd()) >= args.records)) {
            ended = performance.now();
            return;
          }
          progress();
          await new Promise((r) => setTimeout(r, 20));
        }
      },
      () => `state ${app.state()}, errors ${JSON.stringify(app.status().errors?.[0] ?? null)}`,
    );
  } finally {
    clearInterval(first);
    await app.close();
  }
  return rates(started, firstAt, ended, process.cpuUsage(cpuBefore));
}

async function resetSink() {
  await backend.deleteTopics([SINK]);
  await backend.createTopics([{ name: SINK, partitions: args.partitions }]);
}

async function sinkEnd() {
  const d = await backend.describeTopic(SINK);
  return d ? d.offsets.reduce((s, o) => s + o.latest, 0) : 0;
}

// ---- progress and timeouts ----------------------------------------------------------------------

/**
 * Runs `work`, printing `count()` of `total` every 5 s; rejects naming the phase when the count
 * has not moved for --stall-ms (and `describe()` says what else is known).
 */
async function watch(name, count, total, work, describe = () => '') {
  const t0 = performance.now();
  let last = -1;
  let lastMoved = t0;
  let timer;
  const stalled = new Promise((_, reject) => {
    timer = setInterval(() => {
      const now = performance.now();
      const n = count();
      if (n !== last) {
        last = n;
        lastMoved = now;
      }
      log(`  ${name}: ${n}/${total} after ${((now - t0) / 1000).toFixed(0)} s`);
      if (now - lastMoved > args.stallMs)
        reject(
          new Error(
            `${name} stalled: ${n}/${total} records, no progress for ${args.stallMs} ms ${describe()}`,
          ),
        );
    }, 5000);
  });
  try {
    await Promise.race([work(() => {}), stalled]);
  } finally {
    clearInterval(timer);
  }
  log(`  ${name}: ${total} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function phase(name, fn) {
  const t0 = performance.now();
  const result = await fn();
  log(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}

function log(line) {
  console.error(line);
}

/**
 * records/s end to end (from the start, group join included) and from the first record on, and
 * this process's CPU (all its threads; not the broker's) per record, which depends less on load.
 */
function rates(started, firstAt, ended, cpu) {
  return {
    total: (args.records / (ended - started)) * 1000,
    steady: (args.records / (ended - (firstAt ?? started))) * 1000,
    cpuNs: ((cpu.user + cpu.system) * 1000) / args.records,
  };
}

function medians(runs) {
  return {
    total: median(runs.map((r) => r.total)),
    steady: median(runs.map((r) => r.steady)),
    cpuNs: median(runs.map((r) => r.cpuNs)),
  };
}

function fmt(rate) {
  return Math.round(rate).toLocaleString('en-US');
}

/** --name value options (the defaults below), `--json`, and case names. */
function parseArgs(argv) {
  const list = (v) => v.split(',').map(Number);
  const options = {
    records: [50_000, Number],
    runs: [1, Number],
    threads: [[1, 2], list],
    partitions: [4, Number],
    'value-size': [100, Number],
    keys: [10_000, Number],
    'bootstrap-servers': [null, String],
    'stall-ms': [60_000, Number],
  };
  const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  const out = { _: [], json: false, reuseSource: false, plain: true };
  for (const [name, [value]] of Object.entries(options)) out[camel(name)] = value;
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    if (name === 'json') out.json = true;
    else if (name === 'reuse-source') out.reuseSource = true;
    else if (name === 'no-plain') out.plain = false;
    else if (name !== null && options[name]) out[camel(name)] = options[name][1](argv[++i]);
    else if (name !== null) throw new Error(`unknown option ${argv[i]}`);
    else out._.push(argv[i]);
  }
  return out;
}
