// Shared helpers for the log benchmarks. They run against the built package (packages/log/dist):
// build it first with `pnpm --filter @streamwright/log build`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Another build of the log (a `dist` directory, e.g. a copy of main's) for A/B runs. */
export function libUrlOf(distDir) {
  return new URL(`file://${path.resolve(distDir)}/index.js`).href;
}

// LOG_DIST=<dist dir> runs any of these benchmarks against another build (A/B).
export const libUrl = process.env.LOG_DIST
  ? libUrlOf(process.env.LOG_DIST)
  : new URL('../../packages/log/dist/index.js', import.meta.url).href;
export const lib = await import(libUrl);

export function tmpDir(name) {
  return fs.mkdtempSync(path.join(process.env.BENCH_DIR ?? os.tmpdir(), `swlog-bench-${name}-`));
}

export function rm(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

export function report(name, result) {
  console.log(JSON.stringify({ bench: name, ...result }));
}

export const fmt = (n, digits = 0) => Number(n.toFixed(digits));

/** This thread's CPU time in ms (Linux: /proc/thread-self/schedstat; NaN elsewhere). */
export function threadCpuMs() {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}
