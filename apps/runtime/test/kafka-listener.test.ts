// `serve --kafka-listener` in a real runtime: what the Java client produces through the listener
// is what the runtime's topic API reads, and the other way round; the cluster id survives a
// restart of the runtime.
import { runPeer } from '@streamwright/java-peer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import type { Runtime } from '../src/runtime.js';

async function java<T>(mode: string, bootstrap: string, opts: Record<string, string | number>) {
  const args = [mode, '--bootstrap-servers', bootstrap];
  for (const [k, v] of Object.entries(opts)) args.push(`--${k}`, String(v));
  const out = await runPeer('listener.ListenerInterop', {
    args,
    jvmArgs: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

const listener = { host: '127.0.0.1', port: 0, autoCreateTopics: false };
let dataDir: string;
let runtime: Runtime;

beforeAll(async () => {
  dataDir = await makeDataDir();
  runtime = await startTestRuntime({ dataDir, kafkaListener: listener });
});
afterAll(async () => {
  await runtime?.close();
  await removeDataDir(dataDir);
});

describe('the runtime with --kafka-listener', () => {
  it('shares its topics both ways with Kafka clients and keeps its cluster id across restarts', async () => {
    const k = runtime.kafkaListener!;
    expect(k.address).toMatch(/^127\.0\.0\.1:\d+$/);
    const admin = await java<{ clusterId: string; topics: Record<string, number> }>(
      'admin',
      k.address,
      { create: 'orders:1' },
    );
    expect(admin.clusterId).toBe(k.clusterId);
    const client = makeClient(runtime.url);
    expect((await client.topics.list.query()).map((t) => t.name)).toContain('orders');

    await java('produce', k.address, { topic: 'orders', count: 20, 'key-prefix': 'java' });
    const read = await client.topics.read.query({
      topic: 'orders',
      limit: 50,
      valueSerde: 'string',
    });
    expect(read.map((r) => r.value).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `value-java-${i}`).sort(),
    );

    await client.topics.produce.mutate({
      topic: 'orders',
      key: 'from-runtime',
      value: 'hello',
      valueSerde: 'string',
    });
    const consumed = await java<{ records: { key: string; value: string }[] }>(
      'consume',
      k.address,
      { topic: 'orders', group: 'g', expect: 21 },
    );
    expect(consumed.records).toHaveLength(21);
    expect(consumed.records).toContainEqual(
      expect.objectContaining({ key: 'from-runtime', value: 'hello' }),
    );

    const clusterId = k.clusterId;
    await runtime.close();
    runtime = await startTestRuntime({ dataDir, kafkaListener: listener });
    expect(runtime.kafkaListener!.clusterId).toBe(clusterId);
    const again = await java<{ clusterId: string; topics: Record<string, number> }>(
      'admin',
      runtime.kafkaListener!.address,
      {},
    );
    expect(again.clusterId).toBe(clusterId);
    expect(again.topics).toEqual({ orders: 1 });
  }, 120_000);
});
