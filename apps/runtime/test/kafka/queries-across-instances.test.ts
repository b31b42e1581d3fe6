// Interactive queries across instances (Kafka Streams' queryMetadataForKey routing, KIP-535): two
// runtimes of one application on a real broker, one in this process and one a `streamwright
// serve` child (SIGKILLed at the end), sharing one API token. A key queried on either instance
// returns the owner's value; all() on either returns the union, in the order one instance holding
// both tasks answered; with stale reads a standby answers and reports its lag. (How the shares of
// window and session stores merge: the engine's src/app/scoped-query.test.ts.)
// During the rebalances (the second instance joining; the first taking over from the killed one)
// every answer is the right value or MIGRATING, never a wrong or empty one.
//
// Expected values: a count per key is the number of its records.
import { TRPCClientError } from '@trpc/client';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { BackendChoice } from '../../src/service/data-dir.js';
import { ensureBuilt, spawnCli } from '../cli-harness.js';
import {
  eventually,
  makeClient,
  makeDataDir,
  removeDataDir,
  startTestRuntime,
  type Client,
} from '../harness.js';

const TOKEN = 'shared-token-of-the-iq-application';
const T0 = 1_700_000_000_000;
const KEYS = Array.from({ length: 40 }, (_, i) => `w${i}`);
/** wI gets (I mod 3) + 1 records. */
const expectedCount = (key: string) => (Number(key.slice(1)) % 3) + 1;

const topology = {
  schemaVersion: 1,
  application: {
    id: 'runtime-iq',
    config: {
      'num.standby.replicas': 1,
      'commit.interval.ms': 200,
      'session.timeout.ms': 6_000,
      'heartbeat.interval.ms': 1_000,
    },
  },
  topics: [
    { name: 'iq-words', partitions: 2 },
    { name: 'iq-word-counts', partitions: 2 },
  ],
  nodes: [
    {
      id: 'words',
      kind: 'source',
      config: { topic: 'iq-words', keySerde: 'string', valueSerde: 'string' },
    },
    { id: 'group', kind: 'groupByKey', config: {} },
    { id: 'count', kind: 'count', config: { store: 'iq-counts' } },
    { id: 'changes', kind: 'toStream', config: {} },
    {
      id: 'out',
      kind: 'sink',
      config: { topic: 'iq-word-counts', keySerde: 'string', valueSerde: 'long' },
    },
  ],
  edges: [
    { from: 'words', to: 'group' },
    { from: 'group', to: 'count' },
    { from: 'count', to: 'changes' },
    { from: 'changes', to: 'out' },
  ],
};

const kafka = (): BackendChoice => ({
  kind: 'kafka',
  bootstrapServers: [inject('kafkaBootstrapServers')],
});

/** The runtime code of a refused call (MIGRATING, …), or null for another failure. */
function runtimeCodeOf(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = (error as TRPCClientError<never>).data as { runtimeCode?: string } | undefined;
  return data?.runtimeCode ?? null;
}

/** The call's answer, or 'MIGRATING' when it says so; any other failure fails the test. */
async function orMigrating<T>(call: () => Promise<T>): Promise<T | 'MIGRATING'> {
  try {
    return await call();
  } catch (error) {
    if (runtimeCodeOf(error) === 'MIGRATING') return 'MIGRATING';
    throw error;
  }
}

const expectedAll = () =>
  [...KEYS]
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((key) => ({ key, value: expectedCount(key) }));

async function tasksOf(client: Client) {
  return (await client.app.status.query()).status?.tasks ?? [];
}

/** One running active and one caught-up standby on this instance. */
async function settled(client: Client): Promise<boolean> {
  const tasks = await tasksOf(client);
  const actives = tasks.filter((t) => t.standby !== true && t.state === 'RUNNING');
  const standbys = tasks.filter((t) => t.standby === true && t.state === 'RUNNING');
  return (
    tasks.length === 2 &&
    actives.length === 1 &&
    standbys.length === 1 &&
    standbys[0]!.standbyLag === 0
  );
}

interface Tally {
  migrating: number;
  right: number;
  /** Wrong answers and other failures: none may happen. */
  wrong: string[];
}

/** Every key's get and the all() on `client`, tallied: right, MIGRATING, or wrong. */
async function rightOrMigrating(client: Client, tally: Tally): Promise<number> {
  let migratingNow = 0;
  const judge = async <T>(what: string, call: () => Promise<T>, right: (v: T) => boolean) => {
    try {
      const got = await call();
      if (right(got)) tally.right++;
      else tally.wrong.push(`${what}: ${JSON.stringify(got)}`);
    } catch (error) {
      if (runtimeCodeOf(error) !== 'MIGRATING')
        tally.wrong.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      tally.migrating++;
      migratingNow++;
    }
  };
  for (const key of KEYS)
    await judge(
      `get ${key}`,
      () => client.state.get.query({ store: 'iq-counts', key }),
      (got) => got.found && got.value === expectedCount(key),
    );
  await judge(
    'all()',
    () => client.state.all.query({ store: 'iq-counts', limit: 1000 }),
    (all) =>
      JSON.stringify(all.entries.map((e) => ({ key: e.key, value: e.value }))) ===
      JSON.stringify(expectedAll()),
  );
  return migratingNow;
}

/** `streamwright serve` on Kafka as a child process; its URL once it listens. */
async function serveChild(
  dataDir: string,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawnCli([
    'serve',
    '--port',
    '0',
    '--backend',
    'kafka',
    '--bootstrap-servers',
    inject('kafkaBootstrapServers'),
    '--data-dir',
    dataDir,
    '--token',
    TOKEN,
    '--log-format',
    'json',
  ]);
  child.stdin.end();
  let out = '';
  // Drained all along: a full pipe would stall the child.
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out.slice(-4000)}`)));
  });
  return { child, url, output: () => out };
}

// The second instance is the built CLI: built first when its dist is missing or stale.
beforeAll(ensureBuilt, 300_000);

describe('interactive queries across instances (Kafka)', () => {
  it("A key queried on any instance returns the owner's value; during a rebalance the query says the store is migrating instead of answering wrongly.", async () => {
    const began = Date.now();
    const phase = (what: string) => console.info(`${what}: ${Date.now() - began} ms`);
    const dirs = [await makeDataDir(), await makeDataDir()];
    const first = await startTestRuntime({ dataDir: dirs[0]!, backend: kafka(), token: TOKEN });
    let second: Awaited<ReturnType<typeof serveChild>> | null = null;
    try {
      const a = makeClient(first.url, TOKEN);
      const aHost = new URL(first.url).host;
      expect((await a.app.deploy.mutate({ topology })).ok).toBe(true);
      await eventually(
        async () => ((await tasksOf(a)).length === 2 ? true : undefined),
        'the first instance running both tasks',
        60_000,
      );
      for (const key of KEYS)
        for (let j = 0; j < expectedCount(key); j++)
          await a.topics.produce.mutate({
            topic: 'iq-words',
            key,
            value: `${key}-${j}`,
            valueSerde: 'string',
            timestamp: T0 + j * 1000,
          });
      // Alone, the first instance holds both tasks: its answers are the single-instance ones.
      const alone = await eventually(
        async () => {
          const all = await a.state.all.query({ store: 'iq-counts', limit: 1000 });
          const values = all.entries.map((e) => ({ key: e.key, value: e.value }));
          return JSON.stringify(values) === JSON.stringify(expectedAll()) ? all : undefined;
        },
        'every count on the first instance',
        60_000,
      );
      phase('first instance counted everything');
      // The second instance joins (a cooperative rebalance moves one task to it, after a
      // restore): all along, the first answers each key and all() rightly or says MIGRATING.
      second = await serveChild(dirs[1]!);
      phase('second instance listening');
      const b = makeClient(second.url, TOKEN);
      const bHost = new URL(second.url).host;
      expect((await b.app.deploy.mutate({ topology })).ok).toBe(true);
      const duringJoin: Tally = { migrating: 0, right: 0, wrong: [] };
      await eventually(
        async () => {
          await rightOrMigrating(a, duringJoin);
          return (await settled(a)) && (await settled(b)) ? true : undefined;
        },
        'each instance with one active task and one caught-up standby',
        120_000,
      );
      console.info(
        `while the second instance joined: ${duringJoin.right} right answers, ${duringJoin.migrating} MIGRATING`,
      );
      expect(duringJoin.wrong).toEqual([]);

      phase('settled');
      // Settled: either instance answers every key with the owner's value, and all() with the
      // union in the single-instance order.
      for (const client of [a, b]) {
        for (const key of KEYS) {
          const got = await client.state.get.query({ store: 'iq-counts', key });
          expect({ key, value: got.value }).toEqual({ key, value: expectedCount(key) });
          expect(got.servedBy).toBeUndefined();
        }
        expect(await client.state.all.query({ store: 'iq-counts', limit: 1000 })).toEqual(alone);
        const stores = await client.state.stores.query();
        expect(stores.find((s) => s.name === 'iq-counts')?.entries).toBe(KEYS.length);
      }

      // KIP-535 stale reads: each instance answers every key itself, from its active or its
      // standby, and says which and how far behind (caught up: lag 0).
      const standbyKeysOfA: string[] = [];
      for (const [client, host] of [
        [a, aHost],
        [b, bHost],
      ] as const) {
        for (const key of KEYS) {
          const got = await client.state.get.query({ store: 'iq-counts', key, stale: true });
          expect(got.value).toBe(expectedCount(key));
          expect(got.servedBy).toHaveLength(1);
          const served = got.servedBy![0]!;
          expect(served.host).toBe(host);
          expect(served.lag).toBe(0);
          if (served.standby && client === a) standbyKeysOfA.push(key);
        }
      }
      expect(standbyKeysOfA.length).toBeGreaterThan(0);
      expect(standbyKeysOfA.length).toBeLessThan(KEYS.length);

      phase('queried');
      // SIGKILL the second instance: until the group notices (session.timeout.ms), its tasks'
      // keys have no instance that answers for them: MIGRATING, not an empty answer.
      second.child.kill('SIGKILL');
      await new Promise((resolve) => second!.child.once('exit', resolve));
      const lostKey = standbyKeysOfA[0]!;
      const lost = await orMigrating(() => a.state.get.query({ store: 'iq-counts', key: lostKey }));
      expect(lost).toBe('MIGRATING');
      await expect(a.state.get.query({ store: 'iq-counts', key: lostKey })).rejects.toThrow(
        /store "iq-counts" is migrating: the key "w\d+" is in task 0_\d/,
      );
      expect(await orMigrating(() => a.state.all.query({ store: 'iq-counts', limit: 1000 }))).toBe(
        'MIGRATING',
      );
      // With stale reads the first instance's standby answers, and reports its lag.
      const stale = await a.state.get.query({ store: 'iq-counts', key: lostKey, stale: true });
      expect(stale.value).toBe(expectedCount(lostKey));
      expect(stale.servedBy).toEqual([
        { host: aHost, taskId: expect.stringMatching(/^0_\d$/) as string, standby: true, lag: 0 },
      ]);
      const staleAll = await a.state.all.query({ store: 'iq-counts', limit: 1000, stale: true });
      expect(staleAll.entries).toEqual(alone.entries);
      expect(staleAll.servedBy?.map((s) => s.standby).sort()).toEqual([false, true]);

      // The group rebalances and the first instance takes the task over (restoring only the
      // tail after its standby): right or MIGRATING all along, then right for every key.
      const takeover: Tally = { migrating: 0, right: 0, wrong: [] };
      await eventually(
        async () => ((await rightOrMigrating(a, takeover)) === 0 ? true : undefined),
        'the first instance answering every key after taking over',
        120_000,
      );
      console.info(
        `after the SIGKILL: ${takeover.right} right answers, ${takeover.migrating} MIGRATING`,
      );
      expect(takeover.wrong).toEqual([]);
      expect(await a.state.all.query({ store: 'iq-counts', limit: 1000 })).toEqual(alone);
      phase('taken over');
    } finally {
      if (second !== null && second.child.exitCode === null && second.child.signalCode === null)
        second.child.kill('SIGKILL');
      await first.close();
      for (const d of dirs) await removeDataDir(d);
    }
  });
});
