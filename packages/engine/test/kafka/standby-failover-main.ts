// The full-size standby failover run (scripts/standby-failover.mjs runs this through tsx): a
// broker of its own, instance A counts --keys distinct keys (one stateful task, its changelog
// --keys records), instance B joins (with --standbys 1 it keeps a standby of the task and catches
// up), input keeps trickling in, A is SIGKILLed; prints when B was handed the task and when it
// processed its first record, and how many changelog records it restored first.
//   standby-failover-main.ts --keys 1000000 --standbys 1 [--version 4.1.1] [--bootstrap host:port]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startBroker, type KafkaVersion } from '@streamwright/kafka-broker';
import { createKafkaBackend } from '../../src/backends/kafka/index.js';
import { encode } from '../fixtures/records.js';
import { pinProcessId, STANDBY_APP_ID, STANDBY_COUNTS, STANDBY_WORDS } from './standby-topology.js';

const { values } = parseArgs({
  options: {
    keys: { type: 'string', default: '1000000' },
    standbys: { type: 'string', default: '1' },
    version: { type: 'string', default: '4.1.1' },
    bootstrap: { type: 'string' },
  },
});
const KEYS = Number(values.keys);
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const CHILD = fileURLToPath(new URL('./standby-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'streamwright-standby-'));
const broker = values.bootstrap
  ? null
  : await startBroker({ version: values.version as KafkaVersion, heap: '1g' });
const bootstrap = values.bootstrap ?? broker!.bootstrapServers;
const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

interface Child {
  kill(): void;
  exited: Promise<void>;
  last: () => {
    state: string;
    tasks: { taskId: string; standby: boolean; standbyLag: number | null; state: string }[];
  } | null;
  events: { event: string; at: number; restoredRecords?: number }[];
}
// A sorts before B, so the assignor's round robin starts the task on A, which is caught up:
// nothing moves when B joins. (With B first the active would be moved back to A and B given a
// warm-up replica even with --standbys 0, a standby by another name: no baseline.)
const PROCESS_IDS: Record<string, string> = {
  a: '10000000-0000-4000-8000-00000000000a',
  b: '20000000-0000-4000-8000-00000000000b',
};
function child(name: string): Child {
  const stateDir = pinProcessId(join(dir, name), PROCESS_IDS[name]!);
  const proc = spawn(
    process.execPath,
    ['--conditions=source', '--import', TSX, CHILD, bootstrap, stateDir, values.standbys!],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const c: Child = {
    kill: () => proc.kill('SIGKILL'),
    exited: new Promise((r) => proc.once('exit', () => r())),
    last: () => null,
    events: [],
  };
  let last: ReturnType<Child['last']> = null;
  c.last = () => last;
  let buffered = '';
  proc.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith('{"state"')) last = JSON.parse(line);
      else if (line.startsWith('{"event"')) c.events.push(JSON.parse(line));
    }
  });
  proc.stderr.on('data', () => {});
  return c;
}
const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 1_800_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const backend = await createKafkaBackend({ bootstrapServers: [bootstrap] });
const children: Child[] = [];
try {
  await backend.createTopics([
    { name: STANDBY_WORDS, partitions: 1 },
    { name: STANDBY_COUNTS, partitions: 1 },
  ]);
  const a = child('a');
  children.push(a);
  await until('A active', () => a.events.some((e) => e.event === 'active'));
  log(`producing ${KEYS} keys`);
  for (let i = 0; i < KEYS; i += 10_000) {
    const batch = [];
    for (let k = i; k < Math.min(KEYS, i + 10_000); k++)
      batch.push({
        topic: STANDBY_WORDS,
        key: encode('string', `k${k}`),
        value: encode('string', 'x'),
      });
    await backend.produce(batch, { positions: false });
  }
  const changelog = `${STANDBY_APP_ID}-counts-store-changelog`;
  const end = async (topic: string) =>
    (await backend.describeTopic(topic))?.offsets[0]?.latest ?? 0;
  await until('A counted every key', async () => {
    const committed = await backend.committedOffsets(STANDBY_APP_ID, [
      { topic: STANDBY_WORDS, partition: 0 },
    ]);
    return committed.get(`${STANDBY_WORDS}:0`) === (await end(STANDBY_WORDS));
  });
  log(`changelog ${await end(changelog)} records; starting B`);
  const b = child('b');
  children.push(b);
  const standbys = Number(values.standbys);
  await until('B in the group', () =>
    standbys > 0
      ? b.last()?.tasks.some((t) => t.standby && t.standbyLag === 0 && t.state === 'RUNNING') ===
        true
      : b.last()?.state === 'RUNNING',
  );
  log('B ready; trickling input, then killing A');
  let stop = false;
  const trickle = (async () => {
    for (let n = 0; !stop; n++) {
      await backend.produce([
        {
          topic: STANDBY_WORDS,
          key: encode('string', `t${n % 100}`),
          value: encode('string', 'x'),
        },
      ]);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 3_000));
  const killedAt = Date.now();
  a.kill();
  await a.exited;
  await until('B processed as active', () => b.events.some((e) => e.event === 'first-processed'));
  stop = true;
  await trickle;
  const assigned = b.events.find((e) => e.event === 'active')!;
  const first = b.events.find((e) => e.event === 'first-processed')!;
  process.stdout.write(
    `${JSON.stringify(
      {
        broker: broker?.version ?? bootstrap,
        keys: KEYS,
        standbys,
        changelogRecords: await end(changelog),
        restoredRecords: first.restoredRecords,
        assignmentToFirstRecordMs: first.at - assigned.at,
        killToFirstRecordMs: first.at - killedAt,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  for (const c of children) c.kill();
  await Promise.all(children.map((c) => c.exited));
  await backend.close();
  await broker?.stop();
  rmSync(dir, { recursive: true, force: true });
}
