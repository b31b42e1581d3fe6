// Issue 27's "must show" under kills: a windowed count as a Java Kafka Streams 4.1 app
// (tools/java-peer listener.StreamsWindowedCount, exactly_once_v2, record cache off) runs against
// `streamwright serve --kafka-listener` in a child process. While it works, the Java app is
// SIGKILLed and started again, then the runtime is SIGKILLed and started again on the same data
// dir and port while the app keeps running. Afterwards the output topic, read read_committed,
// holds exactly what Streamwright's engine writes for the same topology and input: every update
// of every window once, in order per window — 0 duplicates, 0 missing.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import {
  Consumed,
  createTestDriver,
  Materialized,
  Produced,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  WindowedSerdes,
} from '@streamwright/engine';
import { javaProduce, peerClasspath, runPeer } from '@streamwright/java-peer';
import { Log } from '@streamwright/log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, ensureBuilt } from './cli-harness.js';
import { eventually, makeDataDir, removeDataDir } from './harness.js';

const WINDOW_MS = 10_000;
const RECORDS = 2000;
const USERS = 10;
const DELAY_MS = 5; // per record in the Java app: ~10 s of work, time to kill in the middle

let root: string;
let dataDir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
  root = await makeDataDir();
  dataDir = join(root, 'data');
}, 300_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await removeDataDir(root);
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  out: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function track(child: ChildProcess): Proc {
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, out: () => out, exited };
}

async function serve(port: number): Promise<Proc> {
  const p = track(
    spawn(
      process.execPath,
      [bin, 'serve', '--port', '0', '--data-dir', dataDir, '--kafka-listener', `127.0.0.1:${port}`],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  await eventually(
    () => {
      if (p.child.exitCode !== null) throw new Error(`serve exited: ${p.out()}`);
      return p.out().includes('Kafka listener on') ? true : undefined;
    },
    'the runtime with its Kafka listener',
    60_000,
  );
  return p;
}

/** The Java app; `committed()` is how many output records it has read read_committed. */
function streamsApp(bootstrap: string): Proc & { committed: () => number } {
  const p = track(
    spawn(
      'java',
      [
        '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
        '-cp',
        peerClasspath(),
        'dev.streamwright.peer.listener.StreamsWindowedCount',
        '--bootstrap-servers',
        bootstrap,
        '--guarantee',
        'exactly_once_v2',
        '--window-ms',
        String(WINDOW_MS),
        '--delay-ms',
        String(DELAY_MS),
        '--state-dir',
        join(root, 'kafka-streams-state'),
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    ),
  );
  const committed = () => {
    const all = [...p.out().matchAll(/^committed (\d+)$/gm)];
    return all.length === 0 ? 0 : Number(all[all.length - 1]![1]);
  };
  return { ...p, committed };
}

const waitCommitted = (app: { committed: () => number; out: () => string }, n: number) =>
  eventually(
    () => (app.committed() >= n ? true : undefined),
    `${n} committed output records (the app said: ${app.out().slice(-2000)})`,
    180_000,
  );

interface Row {
  key: string; // hex: the windowed key as written (String key + 8-byte window start)
  value: number;
  timestamp: number;
}

function engineOutput(inputs: { key: string; value: string; timestamp: number }[]): Row[] {
  const builder = new StreamsBuilder();
  builder
    .stream('clicks', Consumed.with(Serdes.String(), Serdes.String()))
    .groupByKey()
    .windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_MS))
    .count(Materialized.as('click-counts-store'))
    .toStream()
    .to(
      'click-counts',
      Produced.with(
        WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), WINDOW_MS),
        Serdes.Long(),
      ),
    );
  const driver = createTestDriver(builder.build({ applicationId: 'click-count' }));
  for (const r of inputs) driver.pipeInput('clicks', r.key, r.value, r.timestamp);
  const out = driver.readRawOutput('click-counts').map((r) => ({
    key: Buffer.from(r.key!).toString('hex'),
    value: Number(Buffer.from(r.value!).readBigInt64BE()),
    timestamp: r.timestamp,
  }));
  driver.close();
  return out;
}

/** Each windowed key's updates in order (per key the order is the task's; keys interleave). */
function byKey(rows: Row[]): Map<string, Row[]> {
  const m = new Map<string, Row[]>();
  for (const r of rows) {
    const list = m.get(r.key) ?? [];
    list.push(r);
    m.set(r.key, list);
  }
  return new Map([...m].sort(([a], [b]) => a.localeCompare(b)));
}

async function logOutput(isolationLevel: 'read_committed' | 'read_uncommitted'): Promise<Row[]> {
  const log = await Log.open({ dataDir: join(dataDir, 'log') });
  try {
    const rows: Row[] = [];
    let offset = log.earliestOffset('click-counts', 0);
    const end = log.latestOffset('click-counts', 0, isolationLevel);
    while (offset < end) {
      const r = await log.fetch('click-counts', 0, offset, { isolationLevel, maxBytes: 4 << 20 });
      for (const rec of r.records)
        rows.push({
          key: Buffer.from(rec.key!).toString('hex'),
          value: Number(Buffer.from(rec.value!).readBigInt64BE()),
          timestamp: rec.timestamp,
        });
      if (r.nextOffset <= offset) break;
      offset = r.nextOffset;
    }
    return rows;
  } finally {
    await log.close();
  }
}

describe('Java Kafka Streams under exactly_once_v2 on the listener, with kills', () => {
  it('a windowed count survives a SIGKILL of the app and of the runtime: 0 duplicates, 0 missing', async () => {
    const port = await freePort();
    const bootstrap = `127.0.0.1:${port}`;
    let runtime = await serve(port);

    await runPeer('listener.ListenerInterop', {
      args: ['admin', '--bootstrap-servers', bootstrap, '--create', 'clicks:2,click-counts:1'],
      jvmArgs: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
    });
    // Recent timestamps (the log's 7-day retention must not touch them), in order, 50 ms apart.
    const base = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS - 200_000;
    const inputs = Array.from({ length: RECORDS }, (_, i) => ({
      key: `user-${i % USERS}`,
      value: `click-${i}`,
      timestamp: base + i * 50,
    }));
    await javaProduce({
      bootstrapServers: bootstrap,
      topic: 'clicks',
      records: inputs.map((r) => ({
        key: Buffer.from(r.key),
        value: Buffer.from(r.value),
        timestamp: r.timestamp,
      })),
    });
    const expected = engineOutput(inputs);
    expect(expected).toHaveLength(RECORDS); // every record updates its window once

    // 1. The Java app is SIGKILLed in the middle of its work, and started again.
    let app = streamsApp(bootstrap);
    await waitCommitted(app, RECORDS * 0.25);
    app.child.kill('SIGKILL');
    expect((await app.exited).signal).toBe('SIGKILL');
    app = streamsApp(bootstrap);
    await waitCommitted(app, RECORDS * 0.55);

    // 2. The runtime (log + listener) is SIGKILLed under the running app, and started again.
    runtime.child.kill('SIGKILL');
    expect((await runtime.exited).signal).toBe('SIGKILL');
    runtime = await serve(port);
    await waitCommitted(app, RECORDS);
    await new Promise((r) => setTimeout(r, 2000)); // a duplicate would show up meanwhile
    app.child.stdin!.end(); // a clean close
    expect((await app.exited).code).toBe(0);
    runtime.child.kill('SIGTERM');
    expect((await runtime.exited).code).toBe(0);

    const got = await logOutput('read_committed');
    expect(got).toHaveLength(expected.length);
    expect(byKey(got)).toEqual(byKey(expected));
    // The kills hit open transactions (the app's producer does not linger, so each kill finds
    // one with records in the log, unless it fell right after a commit): their records are in the
    // log, aborted, and unseen above.
    const aborted = (await logOutput('read_uncommitted')).length - got.length;
    console.log(`click-counts: ${got.length} committed records, ${aborted} aborted by the kills`);
    expect(aborted).toBeGreaterThan(0);
  }, 300_000);
});
