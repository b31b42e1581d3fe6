// Each batch codec's cost per MB, ours (packages/log's compression: node:zlib gzip, snappy
// xerial-framed, lz4-napi frames, zstd in WebAssembly) next to the Java client's (Kafka's own
// Compression classes, tools/java-peer's bench.CodecBench) on the same bytes: the records section
// of one batch of 5000 order events (JSON values of ≈ 150 bytes, string keys), ≈ 1 MB.
//   node bench/log/codecs.mjs [--seconds 1] [--blocks 5] [--codecs gzip,snappy,lz4,zstd]
// Per codec and direction: median over blocks of MB/s (uncompressed bytes, wall time) and CPU ms
// per uncompressed MB (this process's CPU; the calls are synchronous, on this thread). One JSON
// line per side and codec, then a Markdown table. Run it alone (`/work/alone`): it needs the
// machine to itself. Needs packages/log built and the Java peer (node tools/java-peer/build.mjs).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { peerClasspath, ensurePeerBuilt } from '../../tools/java-peer/index.mjs';
import { lib, median, rm, tmpDir } from './common.mjs';

const argOf = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SECONDS = Number(argOf('seconds', 1));
const BLOCKS = Number(argOf('blocks', 5));
const CODECS = argOf('codecs', 'gzip,snappy,lz4,zstd').split(',');

function sampleSection() {
  const statuses = ['created', 'paid', 'shipped', 'delivered', 'returned'];
  const records = Array.from({ length: 5000 }, (_, i) => ({
    key: Buffer.from(`order-${100000 + i}`),
    value: Buffer.from(
      JSON.stringify({
        orderId: 100000 + i,
        user: `user-${(i * 7919) % 1000}`,
        amount: Math.round(((i * 104729) % 100000) / 10) / 100,
        currency: i % 3 === 0 ? 'USD' : 'EUR',
        status: statuses[i % statuses.length],
        items: (i % 4) + 1,
        ts: 1_700_000_000_000 + i * 37,
      }),
    ),
    timestamp: 1_700_000_000_000 + i * 37,
  }));
  const batch = lib.encodeBatch(records, { compression: 'none' });
  return Buffer.from(batch.subarray(61)); // the records section, after the batch header
}

function measure(op, bytes) {
  const rates = [];
  const cpu = [];
  for (let b = 0; b < BLOCKS; b++) {
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    let n = 0;
    while (Number(process.hrtime.bigint() - start) < SECONDS * 1e9) {
      op();
      n++;
    }
    const wall = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpuStart);
    const mb = (n * bytes) / 1e6;
    rates.push(mb / wall);
    cpu.push((used.user + used.system) / 1000 / mb);
  }
  return { mbPerSec: Number(median(rates).toFixed(1)), cpuMsPerMb: Number(median(cpu).toFixed(2)) };
}

const section = sampleSection();
const dir = tmpDir('codecs');
const file = join(dir, 'records-section.bin');
writeFileSync(file, section);
ensurePeerBuilt();
const rows = [];
try {
  for (const codec of CODECS) {
    const code = lib.COMPRESSION_CODES[codec];
    const compressed = lib.compressSync(codec, section);
    measure(() => lib.compressSync(codec, section), section.length); // warm-up
    const c = measure(() => lib.compressSync(codec, section), section.length);
    measure(() => lib.decompressSync(code, compressed), section.length);
    const d = measure(() => lib.decompressSync(code, compressed), section.length);
    const ours = {
      side: 'streamwright',
      codec,
      inputBytes: section.length,
      compressedBytes: compressed.length,
      compress: c,
      decompress: d,
    };
    console.log(JSON.stringify(ours));
    const java = spawnSync(
      'java',
      [
        '-cp',
        peerClasspath(),
        'dev.streamwright.peer.bench.CodecBench',
        '--input',
        file,
        '--codec',
        codec,
        '--seconds',
        String(SECONDS),
        '--blocks',
        String(BLOCKS),
      ],
      { encoding: 'utf8' },
    );
    if (java.status !== 0) throw new Error(`CodecBench ${codec} failed: ${java.stderr}`);
    const theirs = JSON.parse(java.stdout.trim());
    console.log(JSON.stringify(theirs));
    rows.push([ours, theirs]);
  }
} finally {
  rm(dir);
}

const ratio = (a, b) => (a / b).toFixed(2);
console.log(
  `\n| codec | ratio (ours / Java) | compress MB/s ours / Java | compress CPU ms/MB ours / Java | decompress MB/s ours / Java | decompress CPU ms/MB ours / Java |`,
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [o, j] of rows) {
  console.log(
    `| ${o.codec} | ${ratio(o.inputBytes, o.compressedBytes)} / ${ratio(j.inputBytes, j.compressedBytes)} | ${o.compress.mbPerSec} / ${j.compress.mbPerSec} | ${o.compress.cpuMsPerMb} / ${j.compress.cpuMsPerMb} | ${o.decompress.mbPerSec} / ${j.decompress.mbPerSec} | ${o.decompress.cpuMsPerMb} / ${j.decompress.cpuMsPerMb} |`,
  );
}
