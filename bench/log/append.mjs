// Append throughput: 1 KB records in batches, flush every 10 ms (flush.ms=10, acks=all, so every
// acknowledged byte is fsynced), beside a plain sequential fs write of the same bytes to the same
// disk in the same run (with an fdatasync every 10 ms too, and with only a final one).
//   node bench/log/append.mjs [--mb 256] [--runs 5] [--batch 256] [--inflight 64] [--modes a,b]
//
// Three producers, each timed from its first produce call to its last acknowledgement:
//   records  Log.produce(records) on the log's thread: the log partitions, encodes (varints,
//            copies, CRC-32C), validates nothing more, writes.
//   encoded  the same thread encodes with BatchEncoder (timed) and hands the batches to
//            Log.produceBatches, which validates them (CRC-32C, framing) and writes.
//   worker   a worker thread produces through a RemoteLog (as the engine's stream threads do): it
//            encodes the batches on its thread and transfers them; the log's thread validates and
//            writes. Timed on the log's thread from 'go' to the worker's 'done' (its encoding
//            included; its 8 warm-up produce calls before 'go' are not). Needs a second core: on
//            a loaded machine it competes for one.
// Prints one JSON line: medians (MB/s, ratio vs the plain write with fdatasync every 10 ms, CPU ms
// per MB over every thread, and per thread: the log's (`main`) and for `worker` the producer's)
// and every run's ratio and CPU/MB; the target is ratio >= targetRatio.
// --baseline <dist dir> (a build of another commit, e.g. `cp -r packages/log/dist /tmp/base`
// there) runs every mode against it too, alternating in the same runs, as `base.<mode>`: an A/B
// in one process whose CPU ms/MB the machine's load does not swamp.
// In every case the records (keys, values) exist before the clock starts: this measures the
// producer and the log, not the benchmark's own allocation of 16-byte keys.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  arg,
  fmt,
  lib,
  libUrl,
  libUrlOf,
  median,
  report,
  rm,
  threadCpuMs,
  tmpDir,
} from './common.mjs';

const MB = arg('mb', 256);
const RUNS = arg('runs', 5);
const BATCH = arg('batch', 256); // records per produce call (a 256 KB batch)
const INFLIGHT = arg('inflight', 64); // produce calls in flight, as a Kafka producer pipelines
const RECORD = 1024;
const total = Math.floor((MB * 1024 * 1024) / RECORD);
const value = Buffer.alloc(RECORD - 16, 7);
const baselineAt = process.argv.indexOf('--baseline');
const baselineUrl = baselineAt > 0 ? libUrlOf(process.argv[baselineAt + 1]) : null;
const baseLib = baselineUrl ? await import(baselineUrl) : null;
// A build copied outside packages/log cannot resolve @node-rs/crc32 and falls back to the
// JavaScript CRC-32C (about 7x the CPU per byte): such an A/B compares checksums, not the log.
if (baseLib && baseLib.crc32cImplementation !== lib.crc32cImplementation)
  console.error(
    `append: the baseline's CRC-32C is ${baseLib.crc32cImplementation}, this build's ${lib.crc32cImplementation}: ` +
      'copy the baseline dist inside packages/log (e.g. packages/log/dist-base)',
  );

async function openBenchLog(lib) {
  const dir = tmpDir('append');
  const log = await lib.Log.open({ dataDir: dir, background: false });
  await log.createTopic('bench', 1, { 'flush.messages': lib.LONG_MAX, 'flush.ms': 10 });
  return { dir, log };
}

function buildBatches() {
  const batches = [];
  for (let i = 0; i < total; i += BATCH) {
    const records = [];
    for (let j = i; j < Math.min(total, i + BATCH); j++)
      records.push({
        topic: 'bench',
        partition: 0,
        key: Buffer.from(String(j).padStart(16, '0')),
        value,
        timestamp: 1,
      });
    batches.push(records);
  }
  return batches;
}

async function pipeline(batches, produce) {
  const inflight = new Set();
  for (const records of batches) {
    const p = produce(records);
    inflight.add(p);
    p.then(() => inflight.delete(p));
    if (inflight.size >= INFLIGHT) await Promise.race(inflight);
  }
  await Promise.all(inflight);
}

const cpuMs = (since) => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};

async function finish(dir, log, started, cpu, mainCpu) {
  const ms = performance.now() - started;
  const cpuUsed = cpuMs(cpu);
  const threads = { main: threadCpuMs() - mainCpu };
  const bytes = log.describeTopic('bench').offsets[0].sizeBytes;
  await log.close();
  rm(dir);
  return { ms, bytes, cpu: cpuUsed, threads };
}

async function recordsRun(lib) {
  const { dir, log } = await openBenchLog(lib);
  const batches = buildBatches();
  const cpu = process.cpuUsage();
  const mainCpu = threadCpuMs();
  const started = performance.now();
  await pipeline(batches, (records) => log.produce(records, { acks: 'all' }));
  return finish(dir, log, started, cpu, mainCpu);
}

async function encodedRun(lib) {
  const { dir, log } = await openBenchLog(lib);
  const batches = buildBatches();
  const encoder = new lib.BatchEncoder();
  const metadata = () => log.producerMetadata('bench');
  const cpu = process.cpuUsage();
  const mainCpu = threadCpuMs();
  const started = performance.now();
  await pipeline(batches, (records) => {
    const encoded = encoder.encode(records, metadata);
    const parts = encoded.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      batches: p.batches,
    }));
    return log.produceBatches(parts, { acks: 'all' }).then((appended) => {
      encoder.release(encoded); // the log is done with the buffers: reused, as a producer's pool
      return lib.recordMetadataOf(encoded, appended);
    });
  });
  return finish(dir, log, started, cpu, mainCpu);
}

async function workerRun(lib, url) {
  const { dir, log } = await openBenchLog(lib);
  const port = lib.createLogPort(log);
  const worker = new Worker(new URL('./append-worker.mjs', import.meta.url), {
    workerData: { port, total, batch: BATCH, inflight: INFLIGHT, recordBytes: RECORD, libUrl: url },
    transferList: [port],
  });
  const next = () =>
    new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  await next(); // ready: records built, metadata cached
  const warmup = log.describeTopic('bench').offsets[0].sizeBytes;
  const cpu = process.cpuUsage(); // the process's: both threads and libuv's pool
  const mainCpu = threadCpuMs();
  const started = performance.now();
  worker.postMessage('go');
  const done = await next();
  const ms = performance.now() - started;
  const cpuUsed = cpuMs(cpu);
  const threads = { main: threadCpuMs() - mainCpu, producer: done.cpuMs };
  const bytes = log.describeTopic('bench').offsets[0].sizeBytes - warmup;
  await worker.terminate();
  await log.close();
  rm(dir);
  return { ms, bytes, cpu: cpuUsed, threads };
}

/** The same bytes in the same chunk sizes, written sequentially; fdatasync every `syncMs`. */
function plainRun(bytes, chunk, syncMs) {
  const dir = tmpDir('plain');
  const fd = fs.openSync(path.join(dir, 'plain.bin'), 'w');
  const buf = Buffer.alloc(chunk, 7);
  const cpu = process.cpuUsage();
  const started = performance.now();
  let lastSync = started;
  for (let written = 0; written < bytes; written += chunk) {
    fs.writeSync(fd, buf, 0, Math.min(chunk, bytes - written));
    if (syncMs !== null && performance.now() - lastSync >= syncMs) {
      fs.fdatasyncSync(fd);
      lastSync = performance.now();
    }
  }
  fs.fdatasyncSync(fd);
  const ms = performance.now() - started;
  const cpuUsed = cpuMs(cpu);
  fs.closeSync(fd);
  rm(dir);
  return { ms, cpu: cpuUsed };
}

const allModes = { records: recordsRun, encoded: encodedRun, worker: workerRun };
// --modes records,worker runs only those (for profiling one path); the default runs all three.
const only = process.argv.includes('--modes')
  ? process.argv[process.argv.indexOf('--modes') + 1].split(',')
  : Object.keys(allModes);
const modes = {};
for (const [name, run] of Object.entries(allModes)) {
  if (!only.includes(name)) continue;
  modes[name] = () => run(lib, libUrl);
  if (baseLib) modes[`base.${name}`] = () => run(baseLib, baselineUrl);
}
const names = [...Object.keys(modes), 'plainFsync10ms', 'plain'];
const mbps = Object.fromEntries(names.map((k) => [k, []]));
/** CPU milliseconds (every thread of the process) per MB written: independent of the load. */
const cpuPerMB = Object.fromEntries(names.map((k) => [k, []]));
/** Per run, each producer vs the plain write with fsync every 10 ms in the same run. */
const ratios = Object.fromEntries(Object.keys(modes).map((k) => [k, []]));
/** CPU ms per MB of the log's thread (main) and, for `worker`, of the producer's thread. */
const threadCpuPerMB = Object.fromEntries(Object.keys(modes).map((k) => [k, {}]));
const toMBps = (bytes, ms) => bytes / 1048576 / (ms / 1000);
for (let r = 0; r < RUNS; r++) {
  const results = {};
  // With a baseline, alternate which build goes first in each run.
  const order = Object.entries(modes);
  if (baseLib && r % 2 === 1) order.reverse();
  for (const [name, run] of order) results[name] = await run();
  const { bytes } = Object.values(results)[0];
  const batchBytes = Math.round(bytes / Math.ceil(total / BATCH));
  const plainSync = plainRun(bytes, batchBytes, 10);
  const plain = plainRun(bytes, batchBytes, null);
  const MiB = bytes / 1048576;
  mbps.plainFsync10ms.push(toMBps(bytes, plainSync.ms));
  mbps.plain.push(toMBps(bytes, plain.ms));
  cpuPerMB.plainFsync10ms.push(plainSync.cpu / MiB);
  cpuPerMB.plain.push(plain.cpu / MiB);
  for (const name of Object.keys(modes)) {
    const { ms, bytes: b, cpu } = results[name];
    mbps[name].push(toMBps(b, ms));
    cpuPerMB[name].push(cpu / (b / 1048576));
    for (const [thread, ms] of Object.entries(results[name].threads))
      (threadCpuPerMB[name][thread] ??= []).push(ms / (b / 1048576));
    ratios[name].push(toMBps(b, ms) / toMBps(bytes, plainSync.ms));
  }
}
const summary = (xs, digits = 0) => (xs.length === 0 ? null : fmt(median(xs), digits));
report('append', {
  records: total,
  recordBytes: RECORD,
  batchRecords: BATCH,
  inflight: INFLIGHT,
  runs: RUNS,
  medianMBps: Object.fromEntries(Object.entries(mbps).map(([k, v]) => [k, summary(v)])),
  medianRatioVsPlainFsync10ms: Object.fromEntries(
    Object.entries(ratios).map(([k, v]) => [k, summary(v, 2)]),
  ),
  medianCpuMsPerMB: Object.fromEntries(
    Object.entries(cpuPerMB).map(([k, v]) => [k, summary(v, 2)]),
  ),
  medianThreadCpuMsPerMB: Object.fromEntries(
    Object.entries(threadCpuPerMB).map(([k, t]) => [
      k,
      Object.fromEntries(Object.entries(t).map(([th, v]) => [th, summary(v, 2)])),
    ]),
  ),
  allRunsMBps: Object.fromEntries(Object.entries(mbps).map(([k, v]) => [k, v.map((x) => fmt(x))])),
  allRunsRatioVsPlainFsync10ms: Object.fromEntries(
    Object.entries(ratios).map(([k, v]) => [k, v.map((x) => fmt(x, 2))]),
  ),
  allRunsCpuMsPerMB: Object.fromEntries(
    Object.entries(cpuPerMB).map(([k, v]) => [k, v.map((x) => fmt(x, 2))]),
  ),
  targetRatio: 0.6,
  ...(baselineUrl ? { baseline: baselineUrl } : {}),
  crc32c: lib.crc32cImplementation,
  ...(baseLib ? { baseCrc32c: baseLib.crc32cImplementation } : {}),
  loadAverage: (await import('node:os')).loadavg().map((x) => fmt(x, 2)),
});
