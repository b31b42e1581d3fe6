// The TypeScript (here: JavaScript) logic of the benchmark topologies. The main thread passes these
// functions in-process (num.stream.threads = 1); worker threads import this module by path
// (StreamsAppOptions.workerModule), since a closure cannot cross into a worker.
//
// SimpleBenchmark's peek only counts records (`processedRecords++`); so does this one.
//
// It also measures the thread it runs on (run.mjs prints it): CPU time of the thread itself and
// time it waited for a core (/proc/thread-self/schedstat, Linux), GC pauses of its isolate (a
// PerformanceObserver), and the thread's CPU when it processed its first record (so start-up —
// module loading, group join — is told apart from the record path), and how long its event loop
// sat idle from its first record on (a worker waiting for the main thread's answers). In a worker the main thread
// asks for these over a BroadcastChannel (threadStatsOfWorkers in run.mjs).
//
// Progress for run.mjs's completion check without asking the app for a metrics() snapshot (a full
// registry walk, 250–425 µs a call under load, which every 2 ms cost the main thread and, with one
// thread, the stream thread itself): every thread stores its count of processed records into its
// own slot of a SharedArrayBuffer that the main thread owns (a worker asks for it over a
// BroadcastChannel when it loads), on its first record and every 1024th. run.mjs sums the slots
// and, once the sum is within a chunk per thread of the end, checks the exact count with metrics().
import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

let processed = 0;
let firstCpuNs = null;
let gcNs = 0;
/**
 * This thread's counters when the current app took it. A worker from the process's pool
 * (docs/ENGINE.md, "Worker pool") ran earlier apps: its figures count from here. Zero for a fresh
 * worker (its start-up counts, as before the pool) and on the main thread (which takes differences).
 */
let base = { cpuNs: 0, waitNs: 0, gcNs: 0 };
let apps = 0;
/** The event loop's utilization at the first record (its idle time is counted from there). */
let firstElu = null;

/** Slots of 16 int32s (64 bytes: one cache line each, so the threads' stores do not contend). */
const SLOTS = 64;
const STRIDE = 16;
export const PROGRESS_CHUNK = 1024;
const slot = (threadId % SLOTS) * STRIDE;
/** The main thread's; a worker's once the main thread has answered (null until then). */
let progress = isMainThread ? new Int32Array(new SharedArrayBuffer(SLOTS * STRIDE * 4)) : null;

export const functions = {
  countRecords: () => {
    if (processed++ === 0) {
      firstCpuNs = threadTimes().cpuNs;
      firstElu = performance.eventLoopUtilization();
    }
    if ((processed & (PROGRESS_CHUNK - 1)) === 0 || processed === 1)
      if (progress !== null) Atomics.store(progress, slot, processed);
  },
};

/** Records processed by all threads as last stored (each thread's lags by < PROGRESS_CHUNK). */
export function progressTotal() {
  let sum = 0;
  for (let i = 0; i < SLOTS * STRIDE; i += STRIDE) sum += Atomics.load(progress, i);
  return sum;
}

export function processedRecords() {
  return processed;
}

function threadTimes() {
  try {
    const [cpu, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    return { cpuNs: Number(cpu), waitNs: Number(wait) };
  } catch {
    return { cpuNs: NaN, waitNs: NaN };
  }
}

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcNs += e.duration * 1e6;
}).observe({ entryTypes: ['gc'] });

/** This thread's counters now (on the main thread cumulative: the caller takes differences). */
export function threadStats() {
  const { cpuNs, waitNs } = threadTimes();
  const idleNs = firstElu === null ? 0 : performance.eventLoopUtilization(firstElu).idle * 1e6;
  return {
    threadId,
    processed,
    firstCpuNs: firstCpuNs === null ? null : firstCpuNs - base.cpuNs,
    gcNs: gcNs - base.gcNs,
    cpuNs: cpuNs - base.cpuNs,
    waitNs: waitNs - base.waitNs,
    idleNs,
    reused: apps > 1,
  };
}

/** Resets the first-record mark and the progress slots (the main thread runs one app after another). */
export function resetThreadStats() {
  processed = 0;
  firstCpuNs = null;
  firstElu = null;
  progress?.fill(0);
}

export const STATS_CHANNEL = 'streamwright-bench-thread-stats';
const PROGRESS_CHANNEL = 'streamwright-bench-progress';
if (!isMainThread) {
  const channel = new BroadcastChannel(STATS_CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    if (event.data === 'ask') channel.postMessage(threadStats());
  };
  const progressChannel = new BroadcastChannel(PROGRESS_CHANNEL);
  progressChannel.unref();
  progressChannel.onmessage = (event) => {
    if (!(event.data instanceof SharedArrayBuffer)) return;
    progress = new Int32Array(event.data);
    Atomics.store(progress, slot, processed);
    progressChannel.close();
  };
  progressChannel.postMessage('progress?');
} else {
  const progressChannel = new BroadcastChannel(PROGRESS_CHANNEL);
  progressChannel.unref();
  progressChannel.onmessage = (event) => {
    if (event.data === 'progress?') progressChannel.postMessage(progress.buffer);
  };
}

/** Called by every worker for every app it runs (a pooled worker runs several). */
export default function registries() {
  if (apps++ > 0) base = { ...threadTimes(), gcNs };
  processed = 0;
  firstCpuNs = null;
  firstElu = null;
  return { functions };
}
