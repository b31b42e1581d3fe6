// `streamwright app status|lag|reset|start|stop --url`: the built CLI against a running env.runtime.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt } from './cli-harness.js';
import { eventually, makeDataDir, removeDataDir, useTestRuntime } from './harness.js';
import { ordersPipeline, wordCount } from './topologies.js';

beforeAll(ensureBuilt, 300_000);
const env = useTestRuntime();

const app = (args: string[]) => cli(['app', ...args, '--url', env.runtime.url]);

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('streamwright app', { timeout: 120_000 }, () => {
  it('says when nothing is deployed, and fails clearly for lag', async () => {
    expect(await app(['status'])).toMatchObject({ code: 0, stdout: 'Nothing is deployed.\n' });
    const lag = await app(['lag']);
    expect(lag.code).toBe(1);
    expect(lag.stderr).toMatch(/^error: nothing is deployed: deploy a topology first\n$/);
  });

  it('deploys a topology file: started, or stopped with --no-start; an invalid one lists its errors and deploys nothing', async () => {
    const dir = await makeDataDir();
    try {
      const file = join(dir, 'pipeline.topology.json');
      await writeFile(file, JSON.stringify(ordersPipeline()));
      const stopped = await app(['deploy', file, '--no-start']);
      expect(stopped).toMatchObject({ code: 0, stderr: '' });
      expect(stopped.stdout).toMatch(/^Deployed orders-app \(version [0-9a-f]+\): CREATED\n$/);
      expect((await env.client.app.status.query()).status?.state).toBe('CREATED');

      const started = await app(['deploy', file]);
      expect(started.code).toBe(0);
      expect(started.stdout).toMatch(/^Deployed orders-app \(version [0-9a-f]+\): \w+\n$/);
      await eventually(
        async () =>
          (await env.client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
        'running',
      );

      const bad = join(dir, 'bad.json');
      await writeFile(
        bad,
        JSON.stringify({ ...ordersPipeline(), edges: [{ from: 'x', to: 'y' }] }),
      );
      const refused = await app(['deploy', bad]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^.*bad\.json: invalid, \d+ errors?; nothing deployed\n/);
      expect(refused.stderr).toContain('edges[0].from: dangling_edge');
      expect((await env.client.app.status.query()).deployment?.applicationId).toBe('orders-app');

      await writeFile(bad, '{"schemaVersion": 1,');
      const notJson = await app(['deploy', bad]);
      expect(notJson.code).toBe(1);
      expect(notJson.stderr).toMatch(/^error: .*bad\.json is not JSON: .*streamwright validate/);
    } finally {
      await removeDataDir(dir);
    }
  });

  it('shows status with tasks, and lag per input partition', async () => {
    expect((await env.client.app.deploy.mutate({ topology: wordCount() })).ok).toBe(true);
    const words = ['apple', 'banana', 'elder', 'fig', 'apple'];
    await env.client.topics.produceBatch.mutate({
      topic: 'words',
      records: words.map((w) => ({
        key: Buffer.from(w).toString('base64'),
        value: Buffer.from(w).toString('base64'),
      })),
    });
    await eventually(
      async () =>
        (await env.client.app.lag.query()).total === 0 &&
        (await env.client.app.lag.query()).partitions.every((p) => p.committed !== null)
          ? true
          : undefined,
      'zero lag',
    );

    const status = await app(['status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Application word-count: RUNNING\n/);
    expect(status.stdout).toMatch(/^TASK\s+PARTITIONS\s+THREAD\s+STATE\s+STREAM TIME\s+RESTORED$/m);
    expect(status.stdout).toMatch(
      /^0_0\s+words-0\s+word-count-StreamThread-1\s+RUNNING\s+\d{4}-\d\d-\d\dT\S+\s+\d+$/m,
    );
    expect(status.stdout).toMatch(/^0_1\s+words-1\s+/m);

    const json = JSON.parse((await app(['status', '--json'])).stdout) as {
      status: { tasks: unknown[] };
    };
    expect(json.status.tasks).toHaveLength(2);

    const lag = await app(['lag']);
    expect(lag.code).toBe(0);
    const [groupPart, changelogPart] = lag.stdout.split('\n\n');
    expect(groupPart).toBe(
      [
        'Application word-count (consumer group word-count)',
        'TOPIC  PARTITION  COMMITTED  END  LAG',
        'words  0          2          2    0',
        'words  1          3          3    0',
        'Total lag: 0',
      ].join('\n'),
    );
    // the count's changelog and how many records a restore would read (1 to 5 updates logged)
    expect(changelogPart).toMatch(
      /^Changelogs \(records a restore from scratch reads\):\nSTORE +TOPIC +RECORDS\ncounts +word-count-counts-changelog +[1-5]\n$/,
    );
  });

  it('resets (dry run first), stays stopped, and starts again', async () => {
    const dry = await app(['reset', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: nothing is changed\.\n/);
    expect(dry.stdout).toMatch(/Would delete internal topics: word-count-counts-changelog/);
    expect((await env.client.app.status.query()).status?.state).toBe('RUNNING');

    const reset = await app(['reset']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/^Stopped word-count \(NOT_RUNNING\)\.\n/);
    expect(reset.stdout).toContain('\n  Topic: words Partition: 0 Offset: 0\n');
    expect(reset.stdout).toContain('\n  Topic: words Partition: 1 Offset: 0\n');
    expect(reset.stdout).toMatch(/^Deleted internal topics: word-count-counts-changelog$/m);

    const lag = await app(['lag']);
    expect(lag.stdout).toMatch(/^words +1 +0 +3 +3$/m);
    expect(lag.stdout).toMatch(/^Total lag: 5$/m);

    expect(await app(['start'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^word-count: (RUNNING|REBALANCING)\n$/),
    });
    await eventually(
      async () => ((await env.client.app.lag.query()).total === 0 ? true : undefined),
      'reprocessed',
    );
    expect(await app(['stop'])).toMatchObject({ code: 0, stdout: 'word-count: NOT_RUNNING\n' });
  });
});
