// The long crash run: kill a writer (fsync per batch) with SIGKILL at random moments, many times;
// after each kill reopen and check that every acknowledged record is there, in order, intact, with
// no duplicate offset. Reports how many reopens truncated a torn tail.
//   node bench/log/crash-run.mjs [--kills 200]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { arg, lib, report, rm, tmpDir } from './common.mjs';

const KILLS = arg('kills', 200);
const child = fileURLToPath(new URL('./crash-child.mjs', import.meta.url));
const dir = tmpDir('crash');

function runAndKill() {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [child, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let armed = false;
    c.stdout.on('data', (d) => {
      out += d;
      if (!armed && out.includes('START')) {
        armed = true;
        setTimeout(() => c.kill('SIGKILL'), 10 + Math.random() * 300);
      }
    });
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer exited ${code}: ${err}`));
      resolve(
        out
          .slice(0, out.lastIndexOf('\n') + 1)
          .split('\n')
          .filter(Boolean),
      );
    });
  });
}

let acknowledged = -1;
let torn = 0;
let verifiedEnd = 0;
const started = performance.now();
for (let i = 0; i < KILLS; i++) {
  for (const l of await runAndKill())
    if (l.startsWith('ACK ')) acknowledged = Math.max(acknowledged, Number(l.slice(4)));
  const log = await lib.Log.open({ dataDir: dir, background: false });
  torn += log.recoveryEvents.filter((e) => e.kind === 'truncated-torn-tail').length;
  const end = log.latestOffset('crash', 0);
  if (end <= acknowledged)
    throw new Error(`kill ${i}: log ends at ${end} but ${acknowledged} was acknowledged`);
  let off = i === KILLS - 1 ? 0 : Math.max(0, verifiedEnd - 20_000);
  let expected = off;
  while (off < end) {
    const r = await log.fetch('crash', 0, off, { maxBytes: 8 << 20 });
    for (const rec of r.records) {
      const ok =
        rec.offset === expected &&
        Buffer.from(rec.key).toString() === String(rec.offset) &&
        rec.value[999] === 48 + (rec.offset % 10);
      if (!ok) throw new Error(`kill ${i}: bad record at ${rec.offset} (expected ${expected})`);
      expected++;
    }
    off = r.nextOffset;
  }
  if (expected !== end) throw new Error(`kill ${i}: read ${expected} of ${end}`);
  verifiedEnd = end;
  await log.close();
}
rm(dir);
report('crash-run', {
  kills: KILLS,
  reopens: KILLS,
  tornTailsTruncated: torn,
  recordsAcknowledged: acknowledged + 1,
  lost: 0,
  seconds: Math.round((performance.now() - started) / 1000),
});
