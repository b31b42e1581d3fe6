// Streamwright against Apache Kafka Streams 4.1 (Java) and a plain Java consumer/producer loop, on
// one real broker and the same records: Kafka's SimpleBenchmark cases streamprocess,
// streamprocesswithsink, streamcount and streamcountwindowed, under at_least_once and
// exactly_once_v2, with 1 and 2 stream threads. A script, not a test (docs/BENCHMARKS.md, "Kafka
// backend").
//
//   pnpm exec turbo run build --filter=@streamwright/engine...
//   node bench/kafka/peer.mjs [--records 2000000] [--runs 3] [--cases a,b] [--threads 1,2]
//        [--guarantees at_least_once,exactly_once_v2] [--peers engine,kafka-streams,plain]
//        [--partitions 4] [--value-size 100] [--keys 10000] [--bootstrap-servers HOST:PORT]
//        [--broker-version 3.9.1|4.1.1]
//        [--stall-ms 60000] [--java-opts "-Xms1g -Xmx1g"] [--node-opts "--cpu-prof ..."]
//        [--no-verify] [--verbose] [--json]
//
// The peers, each run in a fresh process (as SimpleBenchmark runs each test in a fresh JVM):
// - engine: bench/kafka/engine-peer.mjs (Node; the engine's Kafka backend);
// - kafka-streams: dev.streamwright.peer.bench.SimpleBenchmark (tools/java-peer);
// - plain: dev.streamwright.peer.bench.PlainClientLoop (tools/java-peer).
// All three take the same command line and print the same one-line JSON result when their last
// record is processed (records, elapsedMs from the application's start, recordsPerSec), then
// wait (--pause-at-end) while this harness reads the child's CPU time — utime + stime of
// /proc/<pid>/stat, all its threads, from the process's start (runtime start-up included) to
// its last record; the broker is another process and not counted — and let it close.
//
// Per case the source topic is created afresh and loaded once (not timed) with --records
// records: integer keys (4 bytes big-endian) drawn round robin from --keys, random --value-size
// byte values, timestamps 1 ms apart, as bench/kafka/run.mjs loads them. Then --runs rounds; each
// round runs every cell (guarantee × threads × peer) once, interleaved, so drift of the machine
// spreads over all of them. Medians of the runs are printed as a table with the ratios the issue
// names. A cell the engine refuses (exactly_once_v2 without transactions on the Kafka backend)
// is printed as "refused: <reason>", never as a figure.
//
// Checks (unless --no-verify), after each run, outside the timing: streamprocesswithsink — the
// sink topic holds exactly --records records (read_committed under exactly_once_v2);
// streamcount — the count store's changelog (<application.id>-count-store-changelog, read
// after the app closed and flushed) holds min(--records, --keys) distinct keys whose last counts
// sum to --records; streamcountwindowed — its changelog holds every window: 2 × --records
// distinct (key, window) pairs (each record falls in two hopping windows; a key's records are
// --keys ms apart, more than a window), counts summing to 2 × --records. The plain loop keeps its
// counts in memory and reports them in its result line; those are checked the same way.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const dist = new URL('../../packages/engine/dist/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('backends/kafka/index.js', dist)))) {
  console.error(
    'packages/engine/dist is missing: run `pnpm exec turbo run build --filter=@streamwright/engine...`',
  );
  process.exit(1);
}
const { createKafkaBackend } = await import(new URL('backends/kafka/index.js', dist).href);
const { median } = await import('../engine/report.mjs');
const { ensurePeerBuilt, peerClasspath } = await import('../../tools/java-peer/index.mjs');
const { startBroker, ensureBrokerJars, VERSIONS, DEFAULT_VERSION } =
  await import('../../tools/kafka/index.mjs');

const CASES = ['streamprocess', 'streamprocesswithsink', 'streamcount', 'streamcountwindowed'];
const GUARANTEES = ['at_least_once', 'exactly_once_v2'];
const PEERS = ['engine', 'kafka-streams', 'plain'];
const SOURCE = 'simpleBenchmarkSourceTopic';
const SINK = 'simpleBenchmarkSinkTopic';
const STORES = { streamcount: 'count-store', streamcountwindowed: 'windowed-counts' };
/** Records per produce call of the preload (~230 KB with 100-byte values, under message.max.bytes). */
const SEND_SLICE = 2000;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** Refusal reasons, numbered once each, for the table's footnotes. */
const refusals = [];

const args = parseArgs(process.argv.slice(2));
if (args.peers.some((p) => p !== 'engine')) ensurePeerBuilt({ verbose: true });

const broker = args.bootstrapServers
  ? null
  : await timed(`broker ${args.brokerVersion} start`, () => {
      ensureBrokerJars({ version: args.brokerVersion, verbose: true });
      return startBroker({ version: args.brokerVersion, startTimeoutMs: 180_000 });
    });
const bootstrap = args.bootstrapServers ?? broker.bootstrapServers;
const results = [];
let failed = false;
try {
  log(
    `# node ${process.version}, ${availableParallelism()} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )}; broker ${broker ? `Kafka ${args.brokerVersion} at ` : ''}${bootstrap}; ${args.records} records, ${args.valueSize}-byte values, ` +
      `${args.keys} keys, ${args.partitions} partitions, ${args.runs} runs; peers ${args.peers.join(', ')}`,
  );
  for (const name of args.cases) {
    // A topic of its own per case and per sink run: a topic created right after the deletion of
    // one of the same name can fail on KRaft ("This server does not host this topic-partition").
    const source = `${SOURCE}-${name}`;
    await timed(`${name}: load ${source}`, () => loadSource(source));
    for (let run = 0; run < args.runs; run++)
      for (const guarantee of args.guarantees)
        for (const threads of args.threads)
          for (const peer of args.peers) {
            const result = await runCell({ name, source, guarantee, threads, peer, run });
            results.push(result);
            log(`  ${describeRun(result)}`);
          }
    await withAdmin((admin) => admin.deleteTopics([source]));
  }
  const rows = summarize(results);
  printTable(rows);
  printRatios(rows);
  if (args.json) console.log(JSON.stringify({ args, results, rows }));
  failed = results.some((r) => r.error || (r.check && !r.check.ok));
} catch (error) {
  failed = true;
  console.error(`FAILED: ${error.stack ?? error}`);
} finally {
  await broker?.stop();
}
process.exit(failed ? 1 : 0);

// ---- runs ---------------------------------------------------------------------------------------

async function loadSource(topic) {
  await withAdmin((admin) => load(admin, topic));
}

async function load(admin, topic) {
  await admin.createTopics([{ name: topic, partitions: args.partitions }]);
  const pool = randomBytes(args.valueSize * 4096);
  const now = Date.now();
  for (let i = 0; i < args.records;) {
    const batch = [];
    for (const end = Math.min(args.records, i + SEND_SLICE); i < end; i++) {
      const key = Buffer.alloc(4);
      key.writeInt32BE(i % args.keys);
      const at = ((i * 7919) % 4096) * args.valueSize;
      batch.push({
        topic,
        key,
        value: pool.subarray(at, at + args.valueSize),
        timestamp: now + i,
      });
    }
    await admin.produce(batch, { positions: false });
  }
}

/** One run of one cell in a fresh child process: its figures, its check, or why it has none. */
async function runCell({ name, source, guarantee, threads, peer, run }) {
  const cell = { case: name, guarantee, threads, peer, run };
  const applicationId = `bench-${peer}-${name}-${guarantee}-${threads}t-r${run}-${Date.now()}`;
  const sink = `${SINK}-${applicationId}`;
  if (name === 'streamprocesswithsink')
    await withAdmin((admin) => admin.createTopics([{ name: sink, partitions: args.partitions }]));
  const peerArgs = [
    '--bootstrap-servers',
    bootstrap,
    '--topic',
    source,
    '--sink',
    sink,
    '--records',
    String(args.records),
    '--case',
    name,
    '--guarantee',
    guarantee,
    '--threads',
    String(threads),
    '--application-id',
    applicationId,
    '--pause-at-end',
  ];
  const [command, argv] =
    peer === 'engine'
      ? [
          process.execPath,
          [
            ...args.nodeOpts,
            fileURLToPath(new URL('./engine-peer.mjs', import.meta.url)),
            ...peerArgs,
            '--partitions',
            String(args.partitions),
          ],
        ]
      : [
          'java',
          [
            ...args.javaOpts,
            '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
            '-cp',
            peerClasspath(),
            `dev.streamwright.peer.bench.${peer === 'plain' ? 'PlainClientLoop' : 'SimpleBenchmark'}`,
            ...peerArgs,
          ],
        ];
  let outcome;
  try {
    outcome = await runChild(command, argv, `${peer} ${name} ${guarantee} ${threads}t run ${run}`);
  } catch (error) {
    return { ...cell, error: String(error.message ?? error) };
  }
  if (outcome.result.refused) return { ...cell, refused: outcome.result.refused };
  const figures = {
    ...cell,
    recordsPerSec: outcome.result.recordsPerSec,
    elapsedMs: outcome.result.elapsedMs,
    cpuMs: outcome.cpuMs,
    cpuNsPerRecord: (outcome.cpuMs * 1e6) / args.records,
    processWallMs: outcome.wallMs,
  };
  if (args.verify) {
    try {
      figures.check = await withAdmin((admin) =>
        verify(admin, name, guarantee, peer, applicationId, sink, outcome.result),
      );
    } catch (error) {
      figures.check = { ok: false, detail: `check failed: ${error.message ?? error}` };
    }
  }
  await withAdmin((admin) => deleteTopicsOf(admin, applicationId));
  return figures;
}

/**
 * Spawns a peer; on its result line reads its CPU time from /proc, then lets it close (a line on
 * its stdin) and waits for its exit. Fails when it exits non-zero, prints no result, or makes no
 * progress for --stall-ms (then it is killed by its pid).
 */
function runChild(command, argv, tag) {
  return new Promise((resolve, reject) => {
    const spawnedAt = performance.now();
    const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    let result = null;
    let cpuMs = null;
    let wallMs = null;
    let stdout = '';
    let stderrTail = [];
    let progress = -1;
    let movedAt = performance.now();
    const stall = setInterval(() => {
      if (performance.now() - movedAt > args.stallMs) {
        clearInterval(stall);
        child.kill('SIGKILL');
        reject(
          new Error(
            `${tag}: stalled at ${progress} records (no progress for ${args.stallMs} ms); last stderr: ${stderrTail.join(' | ')}`,
          ),
        );
      }
    }, 1000);
    // A peer that refused to start exits without reading its stdin: the line may meet a closed pipe.
    child.stdin.on('error', () => {});
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (result !== null || !stdout.includes('\n')) return;
      const line = stdout.slice(0, stdout.indexOf('\n'));
      try {
        cpuMs = cpuTimeMs(child.pid);
        wallMs = performance.now() - spawnedAt;
        result = JSON.parse(line);
      } catch (error) {
        result = { error: `unreadable result line '${line}': ${error.message}` };
      }
      child.stdin.end('\n');
    });
    const stderr = createLineReader((line) => {
      const m = /^progress (\d+)$/.exec(line);
      if (m) {
        if (Number(m[1]) !== progress) movedAt = performance.now();
        progress = Number(m[1]);
        log(`    ${tag}: ${progress}/${args.records}`);
        return;
      }
      stderrTail = [...stderrTail.slice(-9), line];
      if (args.verbose) log(`    [${tag}] ${line}`);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', stderr);
    child.on('error', (error) => {
      clearInterval(stall);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearInterval(stall);
      if (result?.error) return reject(new Error(`${tag}: ${result.error}`));
      if (code !== 0 || result === null)
        return reject(
          new Error(
            `${tag}: exited with ${signal ?? code}${result === null ? ' before its result' : ''}; stderr: ${stderrTail.join(' | ')}`,
          ),
        );
      resolve({ result, cpuMs, wallMs });
    });
  });
}

/** utime + stime of a process (all its threads, live and ended), in ms. */
function cpuTimeMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command (which may hold spaces) in parentheses: state is field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / CLOCK_TICKS;
}

// ---- checks -------------------------------------------------------------------------------------

async function verify(admin, name, guarantee, peer, applicationId, sink, result) {
  const n = args.records;
  if (name === 'streamprocess') return { ok: true, detail: 'timing only' };
  if (name === 'streamprocesswithsink') {
    const isolationLevel = guarantee === 'exactly_once_v2' ? 'read_committed' : 'read_uncommitted';
    let held = 0;
    await readTopic(admin, sink, isolationLevel, () => held++);
    return { ok: held === n, detail: `sink holds ${held} of ${n} records` };
  }
  const windowed = name === 'streamcountwindowed';
  const expectedEntries = windowed ? 2 * n : Math.min(n, args.keys);
  const expectedSum = windowed ? 2 * n : n;
  let entries;
  let sum;
  let late = 0;
  let prefixed = 0;
  if (peer === 'plain') {
    entries = windowed ? result.distinctWindows : result.distinctKeys;
    sum = result.countSum;
    late = result.late ?? 0;
  } else {
    entries = 0;
    sum = 0;
    // Key → last count, one partition at a time: a changelog's keys never span partitions, and
    // one Map for all could exceed V8's 2^24 entries (20M windows at 10M records).
    let last = new Map();
    const endPartition = () => {
      for (const count of last.values()) {
        if (count === null) continue;
        entries++;
        sum += count;
      }
      last = new Map();
    };
    const changelog = `${applicationId}-${STORES[name]}-changelog`;
    const each = (r) => {
      // Keys as bytes (windowed: key, window start, sequence number). Kafka Streams logs a
      // timestamped store's plain value (the count, int64) and puts the timestamp in the
      // record's; a value of 16 bytes is read as timestamp + count, and named.
      const key = Buffer.from(r.key).toString('latin1');
      const v =
        r.value === null
          ? null
          : Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength);
      let count = null;
      if (v?.byteLength === 8) count = Number(v.readBigInt64BE(0));
      else if (v?.byteLength === 16) {
        count = Number(v.readBigInt64BE(8));
        prefixed++;
      } else if (v !== null) count = NaN;
      last.set(key, count);
    };
    await readTopic(admin, changelog, 'read_committed', each, endPartition);
  }
  const what = windowed ? 'windows' : 'keys';
  return {
    ok: entries === expectedEntries && sum === expectedSum && late === 0 && prefixed === 0,
    detail:
      `${entries} ${what} (expected ${expectedEntries}), counts sum to ${sum} (expected ${expectedSum})` +
      (late ? `, ${late} late` : '') +
      (prefixed
        ? `, ${prefixed} values of 16 bytes (timestamp + count; Kafka Streams' changelog holds the 8-byte count)`
        : '') +
      (peer === 'plain' ? ' [in memory]' : ' [changelog]'),
  };
}

/** Reads a topic from its start to its end as it is now, calling `each` per record. */
async function readTopic(admin, topic, isolationLevel, each, endPartition = () => {}) {
  const description = await admin.describeTopic(topic);
  if (!description) throw new Error(`topic ${topic} does not exist`);
  for (const { partition, earliest, latest } of description.offsets) {
    let offset = earliest;
    while (offset < latest) {
      const records = await admin.fetch({ topic, partition }, offset, 10_000, 1000, {
        isolationLevel,
      });
      if (records.length === 0) break;
      for (const r of records) each(r);
      offset = records[records.length - 1].offset + 1;
    }
    endPartition(partition);
  }
}

/** The run's internal topics (changelogs) and its sink, so a long benchmark does not fill the disk. */
async function deleteTopicsOf(admin, applicationId) {
  const topics = (await admin.listTopics())
    .map((t) => t.name)
    .filter((name) => name.startsWith(`${applicationId}-`) || name === `${SINK}-${applicationId}`);
  if (topics.length > 0) await admin.deleteTopics(topics);
}

// ---- report -------------------------------------------------------------------------------------

function summarize(all) {
  const rows = [];
  for (const name of args.cases)
    for (const guarantee of args.guarantees)
      for (const threads of args.threads) {
        const row = { case: name, guarantee, threads, peers: {} };
        for (const peer of args.peers) {
          const runs = all.filter(
            (r) =>
              r.case === name &&
              r.guarantee === guarantee &&
              r.threads === threads &&
              r.peer === peer,
          );
          const good = runs.filter((r) => r.recordsPerSec !== undefined);
          row.peers[peer] = {
            runs: runs.length,
            refused: runs.find((r) => r.refused)?.refused,
            errors: runs.filter((r) => r.error).map((r) => r.error),
            checks: runs.filter((r) => r.check).map((r) => r.check),
            recordsPerSec: good.length ? median(good.map((r) => r.recordsPerSec)) : null,
            cpuNsPerRecord: good.length ? median(good.map((r) => r.cpuNsPerRecord)) : null,
            each: good.map((r) => Math.round(r.recordsPerSec)),
          };
        }
        rows.push(row);
      }
  return rows;
}

function printTable(rows) {
  console.log(
    `\n${args.records.toLocaleString('en-US')} records, medians of ${args.runs} run(s): records/s end to end (from the app's start) | CPU µs per record (the app process, start-up included)\n`,
  );
  const header = ['case', 'guarantee', 'threads', ...args.peers];
  const lines = rows.map((row) => [
    row.case,
    row.guarantee,
    String(row.threads),
    ...args.peers.map((peer) => cellText(row.peers[peer])),
  ]);
  printColumns([header, ...lines]);
  for (const [i, reason] of refusals.entries()) console.log(`[${i + 1}] refused: ${reason}`);
  const problems = [];
  for (const row of rows)
    for (const [peer, p] of Object.entries(row.peers)) {
      for (const e of p.errors)
        problems.push(`${row.case} ${row.guarantee} ${row.threads}t ${peer}: ${e}`);
      for (const c of p.checks)
        if (!c.ok)
          problems.push(
            `${row.case} ${row.guarantee} ${row.threads}t ${peer}: CHECK FAILED: ${c.detail}`,
          );
    }
  const checked = rows.flatMap((row) =>
    Object.entries(row.peers).flatMap(([peer, p]) =>
      p.checks.map(
        (c) =>
          `${row.case} ${row.guarantee} ${row.threads}t ${peer}: ${c.ok ? 'ok' : 'FAILED'}, ${c.detail}`,
      ),
    ),
  );
  if (checked.length > 0) console.log(`\nchecks:\n  ${checked.join('\n  ')}`);
  if (problems.length > 0) console.log(`\nproblems:\n  ${problems.join('\n  ')}`);
}

function cellText(p) {
  if (!p || p.runs === 0) return '';
  if (p.refused) {
    if (!refusals.includes(p.refused)) refusals.push(p.refused);
    return `refused [${refusals.indexOf(p.refused) + 1}]`;
  }
  if (p.recordsPerSec === null) return `failed (${p.errors.length} of ${p.runs})`;
  const bad = p.checks.filter((c) => !c.ok).length;
  return (
    `${fmtRate(p.recordsPerSec)} | ${(p.cpuNsPerRecord / 1000).toFixed(2)} µs` +
    (p.errors.length ? ` (${p.errors.length} failed)` : '') +
    (bad ? ` CHECK FAILED ×${bad}` : '')
  );
}

/** The issue's targets, from the medians (engine = ours, kafka-streams = the peer). */
function printRatios(rows) {
  const at = (name, guarantee, threads, peer) =>
    rows.find((r) => r.case === name && r.guarantee === guarantee && r.threads === threads)?.peers[
      peer
    ];
  const lines = [['case', 'guarantee', 'ratio', 'engine', 'kafka-streams', 'plain', 'target']];
  const engineRefused = (guarantee) =>
    rows.some((r) => r.guarantee === guarantee && r.peers.engine?.refused);
  const value = (x, digits = 2) =>
    x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits);
  const per = (f) => args.peers.map((peer) => f(peer));
  for (const name of args.cases)
    for (const guarantee of args.guarantees) {
      for (const threads of args.threads) {
        const ks = at(name, guarantee, threads, 'kafka-streams');
        const ours = at(name, guarantee, threads, 'engine');
        if (ks?.cpuNsPerRecord && (ours?.cpuNsPerRecord || ours?.refused))
          lines.push([
            name,
            guarantee,
            `${threads}t records per CPU-second vs Kafka Streams`,
            ours.refused ? 'refused' : value(ks.cpuNsPerRecord / ours.cpuNsPerRecord),
            '1.00',
            '',
            '≥ 2 (at 10M)',
          ]);
      }
      if (args.threads.includes(1) && args.threads.includes(2)) {
        const ratio = (peer, field) => {
          const one = at(name, guarantee, 1, peer)?.[field];
          const two = at(name, guarantee, 2, peer)?.[field];
          return one && two ? two / one : null;
        };
        const cpu = Object.fromEntries(per((peer) => [peer, ratio(peer, 'cpuNsPerRecord')]));
        const rate = Object.fromEntries(per((peer) => [peer, ratio(peer, 'recordsPerSec')]));
        lines.push([
          name,
          guarantee,
          'CPU/record 2t / 1t',
          engineRefused(guarantee) ? 'refused' : value(cpu.engine),
          value(cpu['kafka-streams']),
          value(cpu.plain),
          'engine ≤ 1.15',
        ]);
        lines.push([
          name,
          guarantee,
          'records/s 2t / 1t',
          engineRefused(guarantee) ? 'refused' : value(rate.engine),
          value(rate['kafka-streams']),
          value(rate.plain),
          'engine ≥ kafka-streams',
        ]);
      }
    }
  if (args.guarantees.includes('at_least_once') && args.guarantees.includes('exactly_once_v2'))
    for (const name of args.cases)
      for (const threads of args.threads) {
        const ratio = (peer) => {
          const alos = at(name, 'at_least_once', threads, peer)?.recordsPerSec;
          const eos = at(name, 'exactly_once_v2', threads, peer)?.recordsPerSec;
          return alos && eos ? eos / alos : null;
        };
        lines.push([
          name,
          '',
          `${threads}t records/s exactly_once_v2 / at_least_once`,
          engineRefused('exactly_once_v2') ? 'refused' : value(ratio('engine')),
          value(ratio('kafka-streams')),
          value(ratio('plain')),
          'engine ≥ 0.7',
        ]);
      }
  if (lines.length > 1) {
    console.log('\nratios (from the medians; – where a side has no figure):\n');
    printColumns(lines);
  }
}

function printColumns(table) {
  const widths = table[0].map((_, i) =>
    Math.max(...table.map((row) => String(row[i] ?? '').length)),
  );
  for (const row of table)
    console.log(
      row
        .map((c, i) => String(c ?? '').padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
}

function describeRun(r) {
  const tag = `${r.case} ${r.guarantee} ${r.threads}t ${r.peer} run ${r.run}`;
  if (r.refused) return `${tag}: refused: ${r.refused}`;
  if (r.error) return `${tag}: FAILED: ${r.error}`;
  return (
    `${tag}: ${fmtRate(r.recordsPerSec)} records/s, ${(r.cpuNsPerRecord / 1000).toFixed(2)} µs CPU/record` +
    (r.check ? `; check ${r.check.ok ? 'ok' : 'FAILED'}: ${r.check.detail}` : '')
  );
}

function fmtRate(rate) {
  return Math.round(rate).toLocaleString('en-US');
}

// ---- helpers ------------------------------------------------------------------------------------

/**
 * A Kafka backend for one step, closed after it: kafkajs keeps every topic a client has touched
 * in its metadata requests, and once such a topic is deleted each refresh of that client fails
 * ("This server does not host this topic-partition"), so no client outlives a deletion here.
 */
async function withAdmin(fn) {
  const admin = await createKafkaBackend({ bootstrapServers: [bootstrap] });
  try {
    return await fn(admin);
  } finally {
    await admin.close().catch(() => {});
  }
}

function createLineReader(onLine) {
  let buffered = '';
  return (chunk) => {
    buffered += chunk;
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      onLine(buffered.slice(0, at));
      buffered = buffered.slice(at + 1);
    }
  };
}

async function timed(what, fn) {
  const t0 = performance.now();
  const result = await fn();
  log(`  ${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return result;
}

function log(line) {
  console.error(line);
}

function parseArgs(argv) {
  const list = (v) => v.split(',').filter((x) => x !== '');
  const numbers = (v) => list(v).map(Number);
  const options = {
    records: [2_000_000, Number],
    runs: [3, Number],
    cases: [CASES, list],
    threads: [[1, 2], numbers],
    guarantees: [GUARANTEES, list],
    peers: [PEERS, list],
    partitions: [4, Number],
    'value-size': [100, Number],
    keys: [10_000, Number],
    'bootstrap-servers': [null, String],
    'broker-version': [DEFAULT_VERSION, String],
    'stall-ms': [60_000, Number],
    'java-opts': [['-Xms1g', '-Xmx1g'], (v) => v.split(' ').filter((x) => x !== '')],
    // The engine peer's Node options, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (a profile per
    // run, its threads' each; not allowed in NODE_OPTIONS).
    'node-opts': [[], (v) => v.split(' ').filter((x) => x !== '')],
  };
  const camel = (name) => name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  const out = { json: false, verify: true, verbose: false };
  for (const [name, [value]] of Object.entries(options)) out[camel(name)] = value;
  const usage = (message) => {
    console.error(`${message}\nusage: node bench/kafka/peer.mjs [options] (see the file's header)`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith('--') ? argv[i].slice(2) : null;
    if (name === 'json') out.json = true;
    else if (name === 'no-verify') out.verify = false;
    else if (name === 'verbose') out.verbose = true;
    else if (name !== null && options[name] && i + 1 < argv.length)
      out[camel(name)] = options[name][1](argv[++i]);
    else usage(`unknown or incomplete option ${argv[i]}`);
  }
  const within = (what, values, known) => {
    for (const v of values)
      if (!known.includes(v)) usage(`--${what}: unknown '${v}'; known: ${known.join(', ')}`);
  };
  within('cases', out.cases, CASES);
  within('guarantees', out.guarantees, GUARANTEES);
  within('peers', out.peers, PEERS);
  within('broker-version', [out.brokerVersion], VERSIONS);
  for (const t of out.threads)
    if (!Number.isInteger(t) || t < 1) usage(`--threads: '${t}' is not a positive integer`);
  for (const name of ['records', 'runs', 'partitions', 'value-size', 'keys', 'stall-ms'])
    if (!Number.isInteger(out[camel(name)]) || out[camel(name)] < 1)
      usage(`--${name} must be a positive integer`);
  return out;
}
