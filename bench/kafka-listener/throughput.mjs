// Throughput of the embedded log's Kafka listener next to a real broker, measured with Kafka's
// own tools (org.apache.kafka.tools.ProducerPerformance and ConsumerPerformance, kafka-tools
// 4.1.1 in tools/java-peer), same machine, same record size, runs interleaved:
//
//   broker          Apache Kafka 4.1.1 (tools/kafka), one KRaft node, 512 MB heap: its default
//                   durability, writes to the page cache, no fsync (flush.messages = Long.MAX)
//   listener-cache  the listener on a fresh log, topic with flush.messages/flush.ms = Long.MAX:
//                   the broker's durability (page cache), the matched setting
//   listener        the listener with the log's default flush policy: fsync per batch
//                   (flush.messages=1, group commit), what `serve --kafka-listener` does
//
// Each run creates a fresh 1-partition topic, produces --records records of --record-size bytes
// with acks=all (ProducerPerformance --throughput -1, producer defaults otherwise: linger.ms 5,
// batch.size 16384) and then consumes them (ConsumerPerformance, a fresh group). One JVM per
// tool run. Reports the median MB/s per setup and the listener/broker ratios.
//
//   pnpm exec turbo run build --filter=@streamwright/kafka-listener
//   /work/alone node bench/kafka-listener/throughput.mjs [--records 200000] [--record-size 1024] [--runs 3]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { peerClasspath, ensurePeerBuilt } from '../../tools/java-peer/index.mjs';
import { startBroker } from '../../tools/kafka/index.mjs';

const { values: opts } = parseArgs({
  options: {
    records: { type: 'string', default: '200000' },
    'record-size': { type: 'string', default: '1024' },
    runs: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const records = Number(opts.records);
const recordSize = Number(opts['record-size']);
const runs = Number(opts.runs);

const dist = (pkg) => new URL(`../../packages/${pkg}/dist/index.js`, import.meta.url);
for (const pkg of ['log', 'kafka-listener'])
  if (!fs.existsSync(dist(pkg))) {
    console.error(
      `packages/${pkg}/dist is missing: pnpm exec turbo run build --filter=@streamwright/kafka-listener`,
    );
    process.exit(1);
  }
const { Log } = await import(dist('log').href);
const { startKafkaListener } = await import(dist('kafka-listener').href);

ensurePeerBuilt();
const java = (main, args) =>
  new Promise((resolve, reject) => {
    const child = spawn('java', ['-Xmx512m', '-cp', peerClasspath(), main, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${main} exited ${code}: ${err}${out}`)),
    );
  });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-listener-bench-'));
const broker = await startBroker({});
const log = await Log.open({ dataDir: path.join(dir, 'log') });
const listener = await startKafkaListener({
  log,
  host: '127.0.0.1',
  port: 0,
  identityFile: path.join(dir, 'kafka-listener.json'),
  logger: { info: () => undefined, warn: (o, m) => console.error('WARN', m, o) },
});
const LONG_MAX = '9223372036854775807';

const setups = {
  broker: {
    bootstrap: broker.bootstrapServers,
    create: (topic) =>
      java('dev.streamwright.peer.listener.ListenerInterop', [
        'admin',
        '--bootstrap-servers',
        broker.bootstrapServers,
        '--create',
        `${topic}:1`,
      ]),
  },
  'listener-cache': {
    bootstrap: listener.address,
    create: (topic) =>
      log.createTopics([
        {
          name: topic,
          partitions: 1,
          config: { 'flush.messages': LONG_MAX, 'flush.ms': LONG_MAX },
        },
      ]),
  },
  listener: {
    bootstrap: listener.address,
    create: (topic) => log.createTopics([{ name: topic, partitions: 1 }]),
  },
};

const results = Object.fromEntries(
  Object.keys(setups).map((k) => [k, { produce: [], consume: [], fetch: [] }]),
);
let n = 0;
try {
  for (let run = 1; run <= runs; run++) {
    for (const [name, s] of Object.entries(setups)) {
      const topic = `perf-${name}-${++n}`;
      await s.create(topic);
      const p = await java('org.apache.kafka.tools.ProducerPerformance', [
        '--topic',
        topic,
        '--num-records',
        String(records),
        '--record-size',
        String(recordSize),
        '--throughput',
        '-1',
        '--producer-props',
        `bootstrap.servers=${s.bootstrap}`,
        'acks=all',
      ]);
      const last = p.trim().split('\n').pop();
      const pm = /records sent, ([\d.]+) records\/sec \(([\d.]+) MB\/sec\)/.exec(last);
      if (!pm) throw new Error(`ProducerPerformance output not understood: ${last}`);
      const c = await java('org.apache.kafka.tools.ConsumerPerformance', [
        '--bootstrap-server',
        s.bootstrap,
        '--topic',
        topic,
        '--messages',
        String(records),
        '--timeout',
        '60000',
        '--group',
        `perf-group-${n}`,
      ]);
      const lines = c.trim().split('\n');
      const header = lines.findIndex((l) => l.startsWith('start.time'));
      const cols = lines[header].split(',').map((x) => x.trim());
      const vals = lines[header + 1].split(',').map((x) => x.trim());
      const col = (k) => Number(vals[cols.indexOf(k)]);
      if (col('data.consumed.in.nMsg') !== records)
        throw new Error(`ConsumerPerformance read ${col('data.consumed.in.nMsg')} of ${records}`);
      results[name].produce.push(Number(pm[2]));
      results[name].consume.push(col('MB.sec'));
      results[name].fetch.push(col('fetch.MB.sec'));
      console.error(
        `run ${run} ${name}: produce ${pm[2]} MB/s, consume ${col('MB.sec')} MB/s (fetch ${col('fetch.MB.sec')} MB/s)`,
      );
    }
  }
} finally {
  await listener.close();
  await log.close();
  await broker.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

const summary = Object.fromEntries(
  Object.entries(results).map(([k, r]) => [
    k,
    {
      produceMBs: median(r.produce),
      consumeMBs: median(r.consume),
      fetchMBs: median(r.fetch),
      runs: r,
    },
  ]),
);
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const b = summary.broker;
const table = [
  `records ${records} x ${recordSize} B, acks=all, 1 partition, ${runs} interleaved runs, medians (MB/s)`,
  '| setup | produce | consume | consume (fetch time) | produce / broker | consume / broker |',
  '| --- | --- | --- | --- | --- | --- |',
  ...Object.entries(summary).map(
    ([k, s]) =>
      `| ${k} | ${s.produceMBs} | ${s.consumeMBs} | ${s.fetchMBs} | ${ratio(s.produceMBs, b.produceMBs)} | ${ratio(s.consumeMBs, b.consumeMBs)} |`,
  ),
];
console.log(opts.json ? JSON.stringify(summary) : table.join('\n'));
