// The TypeScript (here: JavaScript) logic of the benchmark topologies. The main thread passes these
// functions in-process (num.stream.threads = 1); worker threads import this module by path
// (StreamsAppOptions.workerModule), since a closure cannot cross into a worker.
//
// SimpleBenchmark's peek only counts records (`processedRecords++`); so does this one.
//
// It also measures the thread it runs on (run.mjs prints it): CPU time of the thread itself and
// time it waited for a core (/proc/thread-self/schedstat, Linux), GC pauses of its isolate (a
// PerformanceObserver), and the thread's CPU when it processed its first record (so start-up —
// module loading, group join — is told apart from the record path). In a worker the main thread
// asks for these over a BroadcastChannel (threadStatsOfWorkers in run.mjs).
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

let processed = 0;
let firstCpuNs = null;
let gcNs = 0;

export const functions = {
  countRecords: () => {
    if (processed++ === 0) firstCpuNs = threadTimes().cpuNs;
  },
};

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

/** This thread's counters now (cumulative; the caller takes differences). */
export function threadStats() {
  return { threadId, processed, firstCpuNs, gcNs, ...threadTimes() };
}

/** Resets the first-record mark (the main thread runs one app after another). */
export function resetThreadStats() {
  processed = 0;
  firstCpuNs = null;
}

export const STATS_CHANNEL = 'streamwright-bench-thread-stats';
if (!isMainThread) {
  const channel = new BroadcastChannel(STATS_CHANNEL);
  channel.unref();
  channel.onmessage = (event) => {
    if (event.data === 'ask') channel.postMessage(threadStats());
  };
}

export default { functions };
