// How many records a tumbling windowed count writes to its changelog and forwards downstream, on
// the real broker, for Apache Kafka Streams 4.1 (tools/ks-oracle's BrokerRun) and for our engine
// on the Kafka backend, with the same topology document, input topic and configuration (default
// record cache, 10,485,760 bytes, and default commit interval, 30 s). Issue 20 found 201,007
// changelog records for Kafka Streams and 10,000 for ours on 2M records; docs/STATE.md records
// this script's figures.
//
//   pnpm --filter @streamwright/engine... build
//   node bench/kafka/window-changelog.mjs [--records 2000000] [--keys 10000] [--per-ms 100]
//                                         [--bootstrap-servers 127.0.0.1:9092]
//
// Input (loaded once by BrokerRun, one partition): key `k<i % keys>`, value {"i": i}, timestamp
// start + i / per-ms, the start a whole minute (recent: window changelogs have time-based
// retention), so 2M records at 100 per ms span 20 s: 20 one-second windows per key. Counts are
// the topics' offsets (neither topic is compacted or deleted during the run).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = new URL('../../packages/engine/dist/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('backends/kafka/index.js', dist)))) {
  console.error('packages/engine/dist is missing: run `pnpm --filter @streamwright/engine build`');
  process.exit(1);
}
const engine = await import(new URL('index.js', dist).href);
const { createKafkaBackend } = await import(new URL('backends/kafka/index.js', dist).href);
const { validateTopology } = await import('../../packages/topology-model/dist/index.js');
const { runOnBroker } = await import('../../tools/ks-oracle/index.mjs');
const { startBroker } = await import('../../tools/kafka/index.mjs');

const args = { records: 2_000_000, keys: 10_000, perMs: 100, bootstrapServers: null };
for (let i = 2; i < process.argv.length; i += 2) {
  const [flag, value] = [process.argv[i], process.argv[i + 1]];
  if (flag === '--records') args.records = Number(value);
  else if (flag === '--keys') args.keys = Number(value);
  else if (flag === '--per-ms') args.perMs = Number(value);
  else if (flag === '--bootstrap-servers') args.bootstrapServers = value;
  else {
    console.error(`unknown option ${flag}`);
    process.exit(1);
  }
}

const stamp = Date.now();
const INPUT = `wcl-bench-in-${stamp}`;
const doc = (id, output) => {
  const nodes = [
    { id: 'src', kind: 'source', config: { topic: INPUT } },
    { id: 'g', kind: 'groupByKey', config: {} },
    {
      id: 'w',
      kind: 'windowedBy',
      config: { window: { type: 'tumbling', sizeMs: 1000, graceMs: 0 } },
    },
    { id: 'agg', kind: 'windowedCount', config: { store: 'counts' } },
    { id: 'ts', kind: 'toStream', config: {} },
    {
      id: 'm',
      kind: 'map',
      config: { expression: '{"key": key.key + "@" + string(key.start), "value": value}' },
    },
    { id: 'out', kind: 'sink', config: { topic: output, valueSerde: 'long' } },
  ];
  return {
    schemaVersion: 1,
    application: { id },
    topics: [
      { name: INPUT, partitions: 1 },
      { name: output, partitions: 1 },
    ],
    nodes,
    edges: nodes.slice(1).map((n, i) => ({ from: nodes[i].id, to: n.id })),
  };
};

const broker = args.bootstrapServers ? null : await startBroker({ startTimeoutMs: 180_000 });
const bootstrap = args.bootstrapServers ?? broker.bootstrapServers;
try {
  const start = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
  const ksId = `wcl-bench-ks-${stamp}`;
  const ks = await runOnBroker({
    bootstrapServers: bootstrap,
    topology: doc(ksId, `${ksId}-out`),
    produce: true,
    inputs: [],
    generate: {
      topic: INPUT,
      count: args.records,
      keys: args.keys,
      startTimestamp: start,
      perMs: args.perMs,
    },
    inputCount: args.records,
    topics: [`${ksId}-counts-changelog`, `${ksId}-out`],
    countOnly: true,
    timeoutMs: 600_000,
  });
  const ksCounts = {
    changelog: ks.topics[`${ksId}-counts-changelog`].count,
    out: ks.topics[`${ksId}-out`].count,
  };
  console.log(`# Kafka Streams: ${JSON.stringify(ksCounts)}`);

  const backend = await createKafkaBackend({
    bootstrapServers: [bootstrap],
    logger: { warn() {} },
  });
  const ourId = `wcl-bench-ours-${stamp}`;
  const valid = validateTopology(doc(ourId, `${ourId}-out`));
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  const app = engine.createStreamsApp({
    topology: valid.topology,
    backend,
    stateDir: '/nonexistent',
  });
  const processed = () => {
    let n = 0;
    for (const t of Object.values(app.metrics().threads)) n += t['process-total'] ?? 0;
    return n;
  };
  await app.start();
  const deadline = Date.now() + 600_000;
  while (processed() < args.records) {
    if (app.state() === 'ERROR' || Date.now() > deadline)
      throw new Error(`ours: ${processed()} of ${args.records} processed, state ${app.state()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await app.close();
  const count = async (topic) => {
    const d = await backend.describeTopic(topic);
    return d.offsets.reduce((s, o) => s + (o.latest - o.earliest), 0);
  };
  const ours = {
    changelog: await count(`${ourId}-counts-changelog`),
    out: await count(`${ourId}-out`),
  };
  await backend.close();
  console.log(
    JSON.stringify({
      records: args.records,
      keys: args.keys,
      windows: args.keys * Math.ceil(args.records / args.perMs / 1000),
      kafkaStreams: ksCounts,
      ours,
    }),
  );
} finally {
  await broker?.stop();
}
