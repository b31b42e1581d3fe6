// app.lag and app.reset through the API, with a stateful topology (count → changelog): after a
// reset the application reprocesses its input from scratch, as after Kafka's application reset
// tool plus KafkaStreams#cleanUp().
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { eventually, useTestRuntime } from './harness.js';
import { wordCount } from './topologies.js';

const env = useTestRuntime();

// murmur2 puts apple and banana on partition 1, elder and fig on partition 0.
const WORDS = ['apple', 'banana', 'elder', 'fig'];
const CHANGELOG = 'word-count-counts-changelog';

async function produceWords(rounds: number): Promise<void> {
  const records = [];
  for (let r = 0; r < rounds; r++) {
    for (const word of WORDS)
      records.push({
        key: Buffer.from(word).toString('base64'),
        value: Buffer.from(word).toString('base64'),
      });
  }
  await env.client.topics.produceBatch.mutate({ topic: 'words', records });
}

/** Latest count per word in the output topic, and how many records it holds. */
async function counts(): Promise<{ latest: Record<string, number>; total: number }> {
  const records = await env.client.topics.read.query({
    topic: 'word-counts',
    limit: 500,
    valueSerde: 'long',
  });
  const byOffset = [...records].sort((a, b) => a.partition - b.partition || a.offset - b.offset);
  const latest: Record<string, number> = {};
  for (const r of byOffset) latest[String(r.key)] = r.value as number;
  return { latest, total: records.length };
}

describe('app.lag', () => {
  it('needs a deployment', async () => {
    const error = await env.client.app.lag.query().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data).toMatchObject({
      code: 'PRECONDITION_FAILED',
      runtimeCode: 'NOT_DEPLOYED',
    });
  });

  it('reports committed and end offsets per input partition, reaching zero lag', async () => {
    expect((await env.client.app.deploy.mutate({ topology: wordCount() })).ok).toBe(true);
    await produceWords(5);
    const lag = await eventually(async () => {
      const l = await env.client.app.lag.query();
      return l.partitions.length === 2 && l.partitions.every((p) => p.committed === p.end)
        ? l
        : undefined;
    }, 'zero lag');
    expect(lag.applicationId).toBe('word-count');
    expect(lag.total).toBe(0);
    expect(lag.partitions.map((p) => [p.topic, p.partition, p.internal, p.lag])).toEqual([
      ['words', 0, false, 0],
      ['words', 1, false, 0],
    ]);
    expect(lag.partitions.reduce((n, p) => n + p.end, 0)).toBe(20);
    // the count's changelog: at least the four words' latest counts, at most one per update
    await eventually(async () => {
      const l = await env.client.app.lag.query();
      return l.changelogs.length === 1 && l.changelogs[0]!.records >= 4 ? true : undefined;
    }, 'the changelog written');
    const [changelog] = (await env.client.app.lag.query()).changelogs;
    expect(changelog).toMatchObject({ store: 'counts', topic: CHANGELOG });
    expect(changelog!.records).toBeLessThanOrEqual(20);
    const { latest } = await eventually(async () => {
      const c = await counts();
      return Object.values(c.latest).filter((v) => v === 5).length === 4 ? c : undefined;
    }, 'the counts');
    expect(latest).toEqual({ apple: 5, banana: 5, elder: 5, fig: 5 });
  });
});

describe('app.reset', () => {
  it('dry run: lists what it would do and changes nothing', async () => {
    const report = await env.client.app.reset.mutate({ dryRun: true });
    expect(report).toMatchObject({
      applicationId: 'word-count',
      dryRun: true,
      inputOffsets: [
        { topic: 'words', partition: 0, offset: 0 },
        { topic: 'words', partition: 1, offset: 0 },
      ],
      deletedTopics: [CHANGELOG],
      stateDir: join(env.dataDir, 'state', 'word-count'),
    });
    expect(report.status?.state).toBe('RUNNING');
    const topics = (await env.client.topics.list.query()).map((t) => t.name);
    expect(topics).toContain(CHANGELOG);
    expect((await env.client.app.lag.query()).total).toBe(0);
  });

  it('stops the app, rewinds its input, deletes internal topics and local state, stays stopped', async () => {
    const appState = join(env.dataDir, 'state', 'word-count');
    await mkdir(appState, { recursive: true });
    await writeFile(join(appState, 'checkpoint'), 'stale');

    const report = await env.client.app.reset.mutate();
    expect(report.dryRun).toBe(false);
    expect(report.status?.state).toBe('NOT_RUNNING');
    expect(report.deletedTopics).toEqual([CHANGELOG]);
    expect(existsSync(appState)).toBe(false);

    const topics = (await env.client.topics.list.query()).map((t) => t.name);
    expect(topics).not.toContain(CHANGELOG);
    expect(topics).toEqual(expect.arrayContaining(['words', 'word-counts']));
    const lag = await env.client.app.lag.query();
    expect(lag.partitions.map((p) => p.committed)).toEqual([0, 0]);
    expect(lag.total).toBe(20);

    const view = await env.client.app.status.query();
    expect(view.deployed).toBe(true);
    expect(view.status?.state).toBe('NOT_RUNNING');
    // Saved as stopped: a restarted runtime keeps it stopped.
    const saved = JSON.parse(await readFile(join(env.dataDir, 'app.json'), 'utf8')) as {
      running: boolean;
    };
    expect(saved.running).toBe(false);
  });

  it('reprocesses from scratch on the next start: counts start over, not from the old state', async () => {
    const before = await counts();
    expect(before.total).toBe(20);
    await env.client.app.start.mutate();
    const after = await eventually(async () => {
      const c = await counts();
      return c.total === 40 ? c : undefined;
    }, 'the reprocessed counts');
    // Had the changelog or the local state survived, the counts would have gone on to 10.
    expect(after.latest).toEqual({ apple: 5, banana: 5, elder: 5, fig: 5 });
    await eventually(
      async () => ((await env.client.app.lag.query()).total === 0 ? true : undefined),
      'zero lag again',
    );
  });
});
