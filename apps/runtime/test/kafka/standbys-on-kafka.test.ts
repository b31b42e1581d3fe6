// Standby replicas as the runtime's API reports them (what the designer's task table and
// `streamwright app status` show): two runtimes on one Kafka broker run one application with
// num.standby.replicas=1. Each instance runs one of the two count tasks and keeps the other's
// standby — reported with `standby: true` and its changelog lag, which drops back to 0 once the
// standby has applied what the other instance's active wrote.
import { describe, expect, inject, it } from 'vitest';
import type { BackendChoice } from '../../src/service/data-dir.js';
import {
  eventually,
  makeClient,
  makeDataDir,
  removeDataDir,
  startTestRuntime,
  type Client,
} from '../harness.js';
import { collectMetrics } from '../metrics-helpers.js';

const kafka = (): BackendChoice => ({
  kind: 'kafka',
  bootstrapServers: [inject('kafkaBootstrapServers')],
});

/** words (2 partitions) → groupByKey → count (a persistent store with a changelog), 1 standby. */
const topology = {
  schemaVersion: 1,
  application: {
    id: 'runtime-standbys',
    config: {
      'num.standby.replicas': 1,
      'commit.interval.ms': 200,
      'session.timeout.ms': 6_000,
      'heartbeat.interval.ms': 1_000,
    },
  },
  topics: [
    { name: 'standby-words', partitions: 2 },
    { name: 'standby-word-counts', partitions: 2 },
  ],
  nodes: [
    {
      id: 'words',
      kind: 'source',
      config: { topic: 'standby-words', keySerde: 'string', valueSerde: 'string' },
    },
    { id: 'group', kind: 'groupByKey', config: {} },
    { id: 'count', kind: 'count', config: { store: 'counts' } },
    { id: 'changes', kind: 'toStream', config: {} },
    {
      id: 'out',
      kind: 'sink',
      config: { topic: 'standby-word-counts', keySerde: 'string', valueSerde: 'long' },
    },
  ],
  edges: [
    { from: 'words', to: 'group' },
    { from: 'group', to: 'count' },
    { from: 'count', to: 'changes' },
    { from: 'changes', to: 'out' },
  ],
};

async function tasksOf(client: Client) {
  return (await client.app.status.query()).status?.tasks ?? [];
}

/** One active and one standby here, the standby caught up (lag 0): that standby's task id. */
async function settled(client: Client, updates: () => boolean = () => true) {
  const tasks = await tasksOf(client);
  const actives = tasks.filter((t) => t.standby !== true && t.state === 'RUNNING');
  const standbys = tasks.filter((t) => t.standby === true && t.state === 'RUNNING');
  if (tasks.length !== 2 || actives.length !== 1 || standbys.length !== 1) return undefined;
  if (standbys[0]!.standbyLag !== 0 || !updates()) return undefined;
  return { active: actives[0]!, standby: standbys[0]! };
}

async function produceWords(client: Client, n: number, round: string) {
  for (let i = 0; i < n; i++)
    await client.topics.produce.mutate({
      topic: 'standby-words',
      key: `w${i}`,
      value: round,
      valueSerde: 'string',
    });
}

describe('standby replicas through the runtime API (Kafka)', () => {
  it('each instance reports its active task and the standby of the other, with its lag', async () => {
    const dirs = [await makeDataDir(), await makeDataDir()];
    const runtimes: Awaited<ReturnType<typeof startTestRuntime>>[] = [];
    try {
      runtimes.push(await startTestRuntime({ dataDir: dirs[0]!, backend: kafka() }));
      const first = makeClient(runtimes[0]!.url);
      expect((await first.app.deploy.mutate({ topology })).ok).toBe(true);
      await eventually(
        async () => ((await tasksOf(first)).length === 2 ? true : undefined),
        'the first instance running both tasks',
        60_000,
      );
      // Alone, it has no other instance for the standbys: both tasks are active here.
      expect((await tasksOf(first)).every((t) => t.standby !== true)).toBe(true);
      await produceWords(first, 40, 'a');

      runtimes.push(await startTestRuntime({ dataDir: dirs[1]!, backend: kafka() }));
      const second = makeClient(runtimes[1]!.url);
      expect((await second.app.deploy.mutate({ topology })).ok).toBe(true);

      // Two tasks, two instances, one standby each: every task is active on one instance and a
      // standby on the other.
      const [a, b] = await eventually(
        async () => {
          const both = [await settled(first), await settled(second)];
          return both[0] && both[1] ? both : undefined;
        },
        'each instance with one active and one caught-up standby',
        90_000,
      );
      expect(a!.standby.taskId).toBe(b!.active.taskId);
      expect(b!.standby.taskId).toBe(a!.active.taskId);
      expect(a!.active.taskId).not.toBe(b!.active.taskId);
      // A standby reads no input: no partitions of its own; an active has its input partition.
      expect(a!.standby.partitions).toEqual([]);
      expect(a!.active.partitions).toEqual([
        { topic: 'standby-words', partition: Number(a!.active.taskId.split('_')[1]) },
      ]);

      // More input: the standbys apply what the actives write to the changelogs (update-total
      // grows on both instances) and are caught up again (lag 0).
      // (the metrics stream the designer subscribes to: Kafka Streams' update-total, KIP-869)
      const updates = async (client: Client, task: string) => {
        const [event] = await collectMetrics(client, 1);
        return Number(event!.data.metrics?.tasks[task]?.['update-total'] ?? 0);
      };
      const before = [
        await updates(first, a!.standby.taskId),
        await updates(second, b!.standby.taskId),
      ];
      await produceWords(first, 40, 'b');
      await eventually(
        async () => {
          const now = [
            await updates(first, a!.standby.taskId),
            await updates(second, b!.standby.taskId),
          ];
          if (!(now[0]! > before[0]! && now[1]! > before[1]!)) return undefined;
          const both = [await settled(first), await settled(second)];
          return both[0] && both[1] ? true : undefined;
        },
        'both standbys applying the new changelog records and caught up again',
        90_000,
      );
    } finally {
      for (const r of runtimes.reverse()) await r.close();
      for (const d of dirs) await removeDataDir(d);
    }
  });
});
