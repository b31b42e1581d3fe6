// Where a key's state lives (KafkaStreams#queryMetadataForKey, #streamsMetadataForStore) on a
// real broker: two instances of a count application, each with its application.server and one
// standby replica. The group's assignment tells both instances every instance's tasks, so each
// answers the same for every key: the instance named as active holds the key's count in its
// store, the other holds the standby and has no active copy to answer from.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createStreamsApp } from '../../src/app/streams-app.js';
import { encode } from '../fixtures/records.js';
import { tempStateDir } from '../fixtures/state-dir.js';
import { waitFor } from '../fixtures/wait.js';
import { kafkaBackend } from './kafka-fixtures.js';
import { scaleOutTopology, type ScaleOutAppOptions } from './scale-out-topology.js';

const HOSTS = ['instance-a:7001', 'instance-b:7002'];
const KEYS = 40;

describe('interactive query metadata on Kafka', () => {
  it('both instances name the same active and standby host for every key', async () => {
    const backend = await kafkaBackend({ sessionTimeoutMs: 6_000 });
    onTestFinished(() => backend.close());
    const run = `q${Date.now()}`;
    const options = (server: string): ScaleOutAppOptions => ({
      applicationId: `query-metadata-${run}`,
      words: `query-words-${run}`,
      counts: `query-counts-${run}`,
      partitions: 4,
      config: {
        'application.server': server,
        'num.standby.replicas': 1,
        'commit.interval.ms': 100,
      },
    });
    await backend.createTopics([
      { name: `query-words-${run}`, partitions: 4 },
      { name: `query-counts-${run}`, partitions: 1 },
    ]);
    const apps = HOSTS.map((host) => {
      const app = createStreamsApp({
        topology: scaleOutTopology(options(host)),
        backend,
        stateDir: tempStateDir(),
      });
      onTestFinished(() => app.close());
      return app;
    });
    for (const app of apps) await app.start();
    // Keys go to partitions by the default partitioner, as a Java producer would send them.
    await backend.produce(
      Array.from({ length: KEYS }, (_, i) => ({
        topic: `query-words-${run}`,
        key: encode('string', `k${i}`),
        value: encode('string', 'x'),
      })),
      { positions: false },
    );
    const counted = (app: (typeof apps)[number], key: string) =>
      (app.store('counts-store')?.get(key)?.value as number | undefined) ?? null;
    // Settled: both running, each with active tasks and every key counted by one of them.
    await waitFor(
      () =>
        apps.every((a) => a.state() === 'RUNNING') &&
        apps.every((a) => a.status().tasks.some((t) => !t.standby && t.state === 'RUNNING')) &&
        Array.from({ length: KEYS }, (_, i) => `k${i}`).every((k) =>
          apps.some((a) => counted(a, k) === 1),
        ),
      120_000,
      () =>
        `both instances running, every key counted (${JSON.stringify(apps.map((a) => a.status().tasks))})`,
    );
    for (let i = 0; i < KEYS; i++) {
      const key = `k${i}`;
      const [a, b] = await Promise.all(
        apps.map((app) => app.queryMetadataForKey('counts-store', key)),
      );
      expect(a, key).toEqual(b);
      const owner = HOSTS.indexOf(a!.activeHost!);
      expect(owner, key).toBeGreaterThanOrEqual(0);
      expect(counted(apps[owner]!, key), key).toBe(1);
      expect(counted(apps[1 - owner]!, key), key).toBeNull();
      expect(a!.standbyHosts, key).toEqual([HOSTS[1 - owner]]);
    }
    // Every task once as an active, and its standby on the other instance.
    const metadata = apps[0]!.streamsMetadataForStore('counts-store')!;
    expect(metadata.map((m) => m.host).sort()).toEqual(HOSTS);
    expect(metadata.flatMap((m) => m.activeTasks).sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
    expect(metadata.flatMap((m) => m.standbyTasks).sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
    expect(apps[1]!.streamsMetadataForStore('counts-store')).toEqual(metadata);
    expect(await apps[0]!.queryMetadataForKey('no-such-store', 'k0')).toBeNull();

    // The status names every instance and its tasks (the designer's per-task table shows which
    // instance runs a task); each instance marks itself, and its own active tasks are the ones it
    // reports running.
    apps.forEach((app, i) => {
      const { instances, tasks } = app.status();
      expect(instances?.map((x) => [x.host, x.self])).toEqual(HOSTS.map((h, j) => [h, i === j]));
      const self = instances!.find((x) => x.self)!;
      const running = tasks.filter((t) => !t.standby).map((t) => t.taskId);
      expect([...self.activeTasks].sort()).toEqual([...running].sort());
      for (const x of instances!) {
        const m = metadata.find((h) => h.host === x.host)!;
        expect([...x.activeTasks].sort()).toEqual([...m.activeTasks].sort());
        expect([...x.standbyTasks].sort()).toEqual([...m.standbyTasks].sort());
      }
    });
  });
});
