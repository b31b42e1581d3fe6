// topics.browse on a real server: pages of one partition from an offset, from a time (Kafka's
// offsetsForTimes: the first record at or after it) and from the end, with older/newer links.
import { TRPCClientError } from '@trpc/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestRuntime } from './harness.js';

const env = useTestRuntime();

beforeAll(async () => {
  await env.client.topics.create.mutate({ name: 'pages', partitions: 2 });
  // 25 records on partition 0 at t = 1000, 1010, …, 1240; one on partition 1.
  await env.client.topics.produceBatch.mutate({
    topic: 'pages',
    records: Array.from({ length: 25 }, (_, i) => ({
      key: Buffer.from(`k${i}`).toString('base64'),
      value: Buffer.from(`v${i}`).toString('base64'),
      partition: 0,
      timestamp: 1000 + i * 10,
    })),
  });
  await env.client.topics.produceBatch.mutate({
    topic: 'pages',
    records: [{ key: null, value: Buffer.from('other').toString('base64'), partition: 1 }],
  });
});

const browse = (start: { offset: number } | { timestamp: number } | { latest: true }, limit = 10) =>
  env.client.topics.browse.query({
    topic: 'pages',
    partition: 0,
    start,
    limit,
    valueSerde: 'string',
  });

describe('topics.browse', () => {
  it('pages back from the latest records and forward again', async () => {
    const latest = await browse({ latest: true });
    expect(latest.records.map((r) => r.offset)).toEqual([15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    expect(latest).toMatchObject({ partition: 0, logStartOffset: 0, logEndOffset: 25, from: 15 });
    expect(latest.newer).toBeNull();
    expect(latest.older).toBe(5);
    const older = await browse({ offset: latest.older! });
    expect(older.records.map((r) => r.value)).toEqual([
      'v5',
      'v6',
      'v7',
      'v8',
      'v9',
      'v10',
      'v11',
      'v12',
      'v13',
      'v14',
    ]);
    expect(older).toMatchObject({ older: 0, newer: 15 });
    const first = await browse({ offset: 0 });
    expect(first.older).toBeNull();
    expect(first.records[0]).toMatchObject({ offset: 0, key: 'k0', value: 'v0', timestamp: 1000 });
  });

  it('starts at the first record at or after a time', async () => {
    const page = await browse({ timestamp: 1105 }, 3);
    expect(page.records.map((r) => [r.offset, r.timestamp])).toEqual([
      [11, 1110],
      [12, 1120],
      [13, 1130],
    ]);
    expect(page.timestampPastEnd).toBe(false);
    const exact = await browse({ timestamp: 1000 }, 1);
    expect(exact.records[0]!.offset).toBe(0);
    const past = await browse({ timestamp: 999_999 });
    expect(past).toMatchObject({ records: [], timestampPastEnd: true, from: 25, newer: null });
  });

  it('clamps an offset past the end, and refuses a partition the topic lacks', async () => {
    const end = await browse({ offset: 1000 });
    expect(end).toMatchObject({ records: [], from: 25, newer: null, older: 15 });
    const error = await env.client.topics.browse
      .query({ topic: 'pages', partition: 7, start: { offset: 0 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<never>).message).toMatch(/partition/);
  });
});
