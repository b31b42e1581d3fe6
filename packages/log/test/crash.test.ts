// Crash tests: a child process writing with fsync per batch is killed with SIGKILL at random
// moments, many times; every reopen must find every acknowledged record, in order, with no
// corrupt record and no duplicate offset. A kill during multi-partition transaction commits must
// never expose part of a transaction to read_committed readers.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Log } from '../src/log.js';
import { tmpDir } from './helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const KILLS = Number(process.env.LOG_CRASH_KILLS ?? 20);
/** Each kill starts a child (about 1–3 s on a busy machine): the time limit grows with the kills. */
const TIME_LIMIT_MS = Math.max(300_000, KILLS * 10_000);

interface RunResult {
  lines: string[];
  killedMidWrite: boolean;
}

/** Runs the child until it has printed a few acknowledgements, then kills it at a random moment. */
function runAndKill(mode: 'append' | 'remote' | 'txn', dataDir: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', TSX, CHILD, mode, dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let acks = 0;
    let killAfter = -1;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      acks = out.split('\n').filter((l) => l.startsWith('ACK') || l.startsWith('COMMITTED')).length;
      if (killAfter < 0 && out.includes('START')) {
        killAfter = 1;
        // A random delay after start-up: the writer is nearly always inside a write or an fsync.
        setTimeout(() => child.kill('SIGKILL'), 20 + Math.random() * 250);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited ${code}: ${err}`));
      // Only whole lines count: the last one may have been cut by the kill.
      const complete = out
        .slice(0, out.lastIndexOf('\n') + 1)
        .split('\n')
        .filter(Boolean);
      resolve({ lines: complete, killedMidWrite: acks > 0 });
    });
  });
}

/**
 * Kills an appending child `kills` times; after each reopen every acknowledged record is there,
 * in order, intact, with no duplicate offset.
 */
async function appendKills(mode: 'append' | 'remote', kills: number): Promise<void> {
  const dir = tmpDir('swlog-crash-');
  let acknowledged = -1;
  let tornTails = 0;
  let reopens = 0;
  let verifiedEnd = 0;
  for (let i = 0; i < kills; i++) {
    const { lines } = await runAndKill(mode, dir);
    for (const l of lines)
      if (l.startsWith('ACK ')) acknowledged = Math.max(acknowledged, Number(l.slice(4)));
    const log = await Log.open({ dataDir: dir, background: false });
    reopens++;
    try {
      tornTails += log.recoveryEvents.filter((e) => e.kind === 'truncated-torn-tail').length;
      const end = log.latestOffset('crash', 0);
      expect(end).toBeGreaterThan(acknowledged);
      // Verify what earlier rounds verified too on the last round; else from a little before the
      // previous end (the region a kill can touch), to keep the test fast.
      const from = i === kills - 1 ? 0 : Math.max(0, verifiedEnd - 20_000);
      let expected = from;
      let off = from;
      while (off < end) {
        const r = await log.fetch('crash', 0, off, { maxBytes: 8 << 20 });
        for (const rec of r.records) {
          // In order, no gap, no duplicate, and the record's own content (plain checks: expect()
          // per record would dominate the run time).
          const ok =
            rec.offset === expected &&
            Buffer.from(rec.key!).toString() === String(rec.offset) &&
            rec.value!.length === 1000 &&
            rec.value![999] === 48 + (rec.offset % 10);
          if (!ok) expect.fail(`record at ${rec.offset} (expected offset ${expected}) is wrong`);
          expected++;
        }
        off = r.nextOffset;
      }
      expect(expected).toBe(end);
      verifiedEnd = end;
    } finally {
      await log.close();
    }
  }
  console.log(
    `crash test (${mode}): ${kills} kills, ${reopens} reopens, ${tornTails} torn tails truncated, ${acknowledged + 1} records acknowledged`,
  );
  expect(acknowledged).toBeGreaterThan(0);
}

describe('crash safety (SIGKILL)', () => {
  it(
    `keeps every acknowledged record across ${KILLS} kills with fsync per batch`,
    () => appendKills('append', KILLS),
    TIME_LIMIT_MS,
  );

  // The engine's stream threads' path: batches encoded in a worker, appended with header checks.
  it(
    `keeps every acknowledged record a worker thread produced through a RemoteLog across ${Math.max(5, Math.round(KILLS / 2))} kills`,
    () => appendKills('remote', Math.max(5, Math.round(KILLS / 2))),
    TIME_LIMIT_MS,
  );

  it(
    'never exposes part of a transaction after a kill during commits',
    async () => {
      const dir = tmpDir('swlog-crash-tx-');
      const committed = new Set<string>();
      const kills = Math.max(5, Math.round(KILLS / 2));
      for (let i = 0; i < kills; i++) {
        const { lines } = await runAndKill('txn', dir);
        for (const l of lines) if (l.startsWith('COMMITTED ')) committed.add(l.slice(10));
        const log = await Log.open({ dataDir: dir, background: false });
        try {
          const perPartition: Map<string, number>[] = [];
          for (let p = 0; p < 3; p++) {
            const counts = new Map<string, number>();
            let off = 0;
            const end = log.latestOffset('tx', p, 'read_committed');
            expect(end).toBe(log.latestOffset('tx', p)); // recovery left no transaction open
            while (off < end) {
              const r = await log.fetch('tx', p, off, {
                isolationLevel: 'read_committed',
                maxBytes: 8 << 20,
              });
              for (const rec of r.records) {
                const k = Buffer.from(rec.key!).toString();
                counts.set(k, (counts.get(k) ?? 0) + 1);
              }
              if (r.nextOffset === off) break;
              off = r.nextOffset;
            }
            perPartition.push(counts);
          }
          // Atomic: a transaction is in all three partitions, whole, or in none.
          expect([...perPartition[1]!.entries()].sort()).toEqual(
            [...perPartition[0]!.entries()].sort(),
          );
          expect([...perPartition[2]!.entries()].sort()).toEqual(
            [...perPartition[0]!.entries()].sort(),
          );
          for (const t of committed) expect(perPartition[0]!.has(t)).toBe(true); // acknowledged commits stay
        } finally {
          await log.close();
        }
      }
      expect(committed.size).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS,
  );
});
