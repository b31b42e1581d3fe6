// What the store memory benches (window-memory.mjs, grace-buffer-memory.mjs,
// outer-store-memory.mjs) share: each store type runs in a child process of its own (so its RSS
// is its own) on a temporary directory, reports the JS heap after a full GC and the peak RSS at
// two points and the CPU time per record of two phases as one JSON line, and the parent prints
// one line per store type.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The benches' options: `--<countOption>` (default 1,000,000), `--store` (both types), `--child`. */
export function storeArgs(countOption) {
  const { values } = parseArgs({
    options: {
      [countOption]: { type: 'string', default: '1000000' },
      store: { type: 'string', default: 'rocksDB,in_memory' },
      child: { type: 'string' },
    },
  });
  return {
    count: Number(values[countOption]),
    stores: values.store.split(','),
    child: values.child,
  };
}

/** A child's result: memory after writing and after reading back, CPU ns per record of each. */
export function phases(store, held, count, { written, afterWrite, read, afterRead }) {
  return {
    store,
    held,
    afterWrite,
    afterRead,
    writeNsPerRecord: nsPerRecord(written, count),
    readNsPerRecord: nsPerRecord(read, count),
  };
}

/** The built engine module at `path` (under packages/engine/dist), or exit saying to build. */
export function engineModule(path) {
  const url = new URL(`../../packages/engine/dist/${path}`, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    console.error(
      'packages/engine/dist is missing: run `pnpm --filter @streamwright/engine build`',
    );
    process.exit(1);
  }
  return url.href;
}

/** The JS heap after a full GC and the peak RSS so far, in bytes. */
export function memoryNow() {
  globalThis.gc?.();
  return { heap: process.memoryUsage().heapUsed, rss: process.resourceUsage().maxRSS * 1024 };
}

/** CPU ns per record of a process.cpuUsage difference. */
export const nsPerRecord = (cpu, records) => ((cpu.user + cpu.system) * 1000) / records;

export const mib = (bytes) => `${(bytes / 1048576).toFixed(0)} MiB`;

/**
 * In the child: runs `measure(dir)` on a fresh temporary directory, prints the result it returns
 * as one JSON line, removes the directory and exits.
 */
export async function runChild(prefix, measure) {
  const dir = mkdtempSync(join(tmpdir(), `streamwright-${prefix}-`));
  try {
    console.log(JSON.stringify(await measure(dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

/**
 * In the parent: prints `title` with the load average, then for each store type runs `script`
 * again with `--child <store>` and `args`, and prints `line(store, result)`.
 */
export function compareStores({ title, script, stores, args, line }) {
  console.log(
    `${title}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const store of stores) {
    const child = spawnSync(
      process.execPath,
      ['--expose-gc', fileURLToPath(script), '--child', store, ...args],
      { encoding: 'utf8' },
    );
    if (child.status !== 0) {
      console.error(child.stderr);
      process.exit(1);
    }
    console.log(line(store, JSON.parse(child.stdout.trim().split('\n').pop())));
  }
}
