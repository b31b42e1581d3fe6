// What the checksum per stored value of the persistent key-value store costs (issue 24): a
// checksummed store against one in the layout before checksums (a store without the marker file
// keeps it), same keys and values: commits of `--count` puts in batches of 1,000 (CRC-32 of key,
// timestamp and value per put), cold reads of every key (no read cache: each get reads lmdb and
// checks the checksum), and verify(), the scan at start of a checkpointed store. Then the same
// for the segments of the window, session and join stores (lmdb-segments: commits of 1,000
// changelog records, a read of every segment through range() as a store's open loads them, and
// verify()). Medians of `--runs` runs. Run after a build:
// node bench/engine/store-checksums.mjs [--count 200000] [--runs 5]
import { Buffer } from 'node:buffer';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LmdbKeyValueStore } from '../../packages/engine/dist/state/lmdb-key-value-store.js';
import { LmdbSegments } from '../../packages/engine/dist/state/lmdb-segments.js';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '200000' }, runs: { type: 'string', default: '5' } },
});
const COUNT = Number(values.count);
const RUNS = Number(values.runs);
const lmdb = createRequire(join(process.cwd(), 'packages/engine/package.json'))('lmdb');
const spec = {
  name: 'bench',
  keySerde: 'string',
  valueSerde: 'string',
  changelogTopic: 'bench-changelog',
};
const value = 'v'.repeat(100);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function run(checksums) {
  const dir = mkdtempSync(join(tmpdir(), 'sw-bench-crc-'));
  const path = join(dir, 'store');
  if (!checksums) {
    // An existing lmdb environment without the marker: the layout before checksums.
    mkdirSync(path, { recursive: true });
    lmdb.open({ path, keyEncoding: 'binary', encoding: 'binary' }).close();
  }
  const store = new LmdbKeyValueStore(spec, 0, path, 0);
  let t = performance.now();
  for (let i = 0; i < COUNT; i += 1000) {
    for (let j = i; j < i + 1000 && j < COUNT; j++) store.put(`key-${j}`, value, j);
    store.takeChangelogRecords();
  }
  const write = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < COUNT; i++) store.get(`key-${i}`);
  const read = performance.now() - t;
  t = performance.now();
  const damage = store.verify();
  const verify = performance.now() - t;
  if (damage !== null) throw new Error(damage);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return { write, read, verify };
}

/** Window-store-like segments: 10 segments, keys of 20 bytes, values of 100. */
function runSegments(checksums) {
  const dir = mkdtempSync(join(tmpdir(), 'sw-bench-crc-seg-'));
  if (!checksums) {
    // A segment already on disk and no marker: the layout before checksums.
    mkdirSync(join(dir, '0'), { recursive: true });
    lmdb.open({ path: join(dir, '0'), keyEncoding: 'binary', encoding: 'binary' }).close();
  }
  const segments = new LmdbSegments(dir, 'bench');
  const payload = Buffer.from(value);
  let t = performance.now();
  for (let i = 0; i < COUNT; i += 1000) {
    for (let j = i; j < i + 1000 && j < COUNT; j++)
      segments.add(j % 10, {
        key: Buffer.from(`key-${String(j).padStart(16, '0')}`),
        value: payload,
        timestamp: j,
      });
    segments.flush();
  }
  const write = performance.now() - t;
  t = performance.now();
  let n = 0;
  for (const id of segments.ids())
    for (const e of segments.range(id)) n += e.value.length > 0 ? 1 : 0;
  const read = performance.now() - t;
  if (n !== COUNT) throw new Error(`read ${n} of ${COUNT}`);
  t = performance.now();
  const damage = segments.verify();
  const verify = performance.now() - t;
  if (damage !== null) throw new Error(damage);
  segments.close();
  rmSync(dir, { recursive: true, force: true });
  return { write, read, verify };
}

const results = { checksums: [], before: [], 'segments checksums': [], 'segments before': [] };
for (let r = 0; r < RUNS; r++) {
  results.before.push(run(false));
  results.checksums.push(run(true));
  results['segments before'].push(runSegments(false));
  results['segments checksums'].push(runSegments(true));
}
const ns = (ms) => ((ms * 1e6) / COUNT).toFixed(0);
for (const [name, rs] of Object.entries(results)) {
  const w = median(rs.map((x) => x.write));
  const r = median(rs.map((x) => x.read));
  const v = median(rs.map((x) => x.verify));
  console.log(
    name.startsWith('segments')
      ? `${name.padEnd(18)} ${COUNT} entries: commit ${ns(w)} ns/record, range read ${ns(r)} ns/entry, verify ${v.toFixed(0)} ms (${ns(v)} ns/entry)`
      : `${name.padEnd(18)} ${COUNT} keys: commit ${ns(w)} ns/put, cold get ${ns(r)} ns, verify ${v.toFixed(0)} ms (${ns(v)} ns/entry)`,
  );
}
