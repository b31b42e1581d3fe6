// The engine benchmark's figures: per-thread CPU per record, medians and the printed report.

/**
 * Nanoseconds per record of: the stream thread(s) (all of it, and from each thread's first record
 * on), the main thread (in the 2-thread case the app's coordinator; in the 1-thread case it is the
 * stream thread), the process's other threads (V8's GC helpers, libuv's pool), and the whole
 * process; plus the stream threads' GC pauses, their wait for a core, start-up CPU per stream
 * thread and the split of records between threads.
 */
export function threadReport(records, threads, cpu, before, after, workers) {
  const n = records;
  const totalNs = (cpu.user + cpu.system) * 1000;
  const mainNs = after.cpuNs - before.cpuNs;
  const streams =
    threads > 1
      ? workers.map((w) => ({
          cpuNs: w.cpuNs,
          steadyNs: w.cpuNs - (w.firstCpuNs ?? w.cpuNs),
          startNs: w.firstCpuNs ?? w.cpuNs,
          gcNs: w.gcNs,
          waitNs: w.waitNs,
          idleNs: w.idleNs ?? 0,
          processed: w.processed,
        }))
      : [
          {
            cpuNs: mainNs,
            steadyNs: after.cpuNs - (after.firstCpuNs ?? after.cpuNs),
            startNs: (after.firstCpuNs ?? after.cpuNs) - before.cpuNs,
            gcNs: after.gcNs - before.gcNs,
            waitNs: after.waitNs - before.waitNs,
            idleNs: after.idleNs ?? 0,
            processed: after.processed,
          },
        ];
  const sum = (f) => streams.reduce((s, t) => s + f(t), 0);
  const streamNs = sum((t) => t.cpuNs);
  return {
    workersSeen: threads > 1 ? workers.length : 1,
    streamNsPerRecord: streamNs / n,
    streamSteadyNsPerRecord: sum((t) => t.steadyNs) / sum((t) => t.processed),
    startMsPerThread: sum((t) => t.startNs) / streams.length / 1e6,
    // GC pauses are wall-clock time (a PerformanceObserver's), so under load they include time
    // the thread waited for a core: compare them with the thread's CPU only on a quiet machine.
    gcPauseMsPerThread: sum((t) => t.gcNs) / streams.length / 1e6,
    waitNsPerRecord: sum((t) => t.waitNs) / n,
    // Event-loop idle of the stream threads from their first record (a worker waiting for the
    // main thread's answers; with one thread, the main thread's waits, the bench's own sleeps
    // between its checks included).
    idleNsPerRecord: sum((t) => t.idleNs) / n,
    mainNsPerRecord: threads > 1 ? mainNs / n : 0,
    otherNsPerRecord: (totalNs - mainNs - (threads > 1 ? streamNs : 0)) / n,
    totalNsPerRecord: totalNs / n,
    split: streams.map((t) => t.processed),
    // Workers an earlier app left in the process's pool (their start-up counts from the app).
    reusedWorkers: threads > 1 ? workers.filter((w) => w.reused).length : 0,
  };
}

export function threadSummary(runs) {
  const out = {};
  for (const k of Object.keys(runs[0])) {
    out[k] = k === 'split' ? runs.map((r) => r.split) : median(runs.map((r) => r[k]));
  }
  return out;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function summary(rates, bytes, records) {
  const sorted = [...rates].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return {
    median,
    mbPerSec: (median * bytes) / records / 1e6,
    all: rates.map((r) => Math.round(r)),
  };
}

export function print(row) {
  const fmt = (s) =>
    `${(s.median / 1e6).toFixed(3)} M records/s, ${s.mbPerSec.toFixed(1)} MB/s (runs: ${s.all.map((r) => (r / 1e6).toFixed(3)).join(', ')})`;
  console.log(`${row.case}${row.fresh ? ' (each run in a fresh process)' : ''}`);
  if (row.plain) console.log(`  plain loop:  ${fmt(row.plain)}`);
  for (const [threads, s] of Object.entries(row.runs)) {
    console.log(`  ${threads} thread${threads === '1' ? ': ' : 's:'}   ${fmt(s)}  end to end`);
    console.log(`               ${fmt(row.steady[threads])}  steady state`);
    console.log(
      `               ${row.cpuNsPerRecord[threads].toFixed(0)} ns of CPU per record (all threads, median)`,
    );
    const t = row.threadCpu[threads];
    console.log(
      `               CPU/record by thread: stream thread${threads === '1' ? '' : 's'} ${t.streamNsPerRecord.toFixed(0)} ns ` +
        `(from first record ${t.streamSteadyNsPerRecord.toFixed(0)} ns; start-up ${t.startMsPerThread.toFixed(0)} ms per thread; ` +
        `GC pauses ${t.gcPauseMsPerThread.toFixed(0)} ms wall per thread), main ${threads === '1' ? '= the stream thread' : `${t.mainNsPerRecord.toFixed(0)} ns`}, ` +
        `other threads (GC helpers, pool) ${t.otherNsPerRecord.toFixed(0)} ns; waited for a core ${t.waitNsPerRecord.toFixed(0)} ns; ` +
        `event loop idle ${(t.idleNsPerRecord ?? 0).toFixed(0)} ns from the first record`,
    );
    if (threads !== '1')
      console.log(
        `               records per thread: ${t.split.map((s) => s.join(' / ')).join(', ')}${t.workersSeen < Number(threads) ? ' (a worker did not answer)' : ''}; ` +
          `workers from the pool: ${t.reusedWorkers} per run (median)`,
      );
  }
  if (row.engineVsPlain !== undefined)
    console.log(`  engine / plain (1 thread, end to end): ${row.engineVsPlain.toFixed(2)}`);
  if (row.twoVsOne !== undefined) {
    console.log(
      `  2 threads / 1 thread: ${row.twoVsOne.toFixed(2)} end to end, ${row.twoVsOneSteady.toFixed(2)} steady state; ` +
        `CPU per record ${row.cpuTwoVsOne.toFixed(2)}× (target: ≥ 1.5× end to end on a quiet machine)`,
    );
  }
}
