// Custom processors and functions from the operator's module (`serve --processors`): registered
// at start, referred to by name in topologies, validated against the registry, never taken from
// the API.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodeModule, type CodeRegistry } from '../src/service/code-module.js';
import { cli, ensureBuilt, spawnCli } from './cli-harness.js';
import { eventually, makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import { ordersPipeline } from './topologies.js';

let root: string;
let modulePath: string;
let code: CodeRegistry;

const MODULE = `
// Trusted operator code: a Processor API processor and a function for a logic field.
export const processors = {
  'tag-with-partition': (params) => {
    let context;
    return {
      init(ctx) { context = ctx; },
      process(record) {
        const meta = context.recordMetadata();
        context.forward({ ...record, value: { ...record.value, tag: params.tag, fromPartition: meta.partition } });
      },
    };
  },
};
// KTable#transformValues' ValueTransformerWithKey: the card number masked (a tombstone stays one).
export const valueTransformers = {
  'mask-card': () => ({
    transform: (key, value) => (value === null ? null : { ...value, card: '****' }),
  }),
};
export const functions = {
  isLarge: ({ value }) => value.amount > 100,
};
// A foreign-key join's TableJoined partitioner: "o7" / "p7" → partition 7 % n.
export const partitioners = {
  'by-number': (topic, key, value, numPartitions) => Number(String(key).slice(1)) % numPartitions,
};
`;

/** Orders joined with products by foreign key, both internal topics routed by 'by-number'. */
function fkTopology(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    application: { id: 'fk-app', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'orders', partitions: 3 },
      { name: 'products', partitions: 2 },
      { name: 'enriched', partitions: 1 },
    ],
    nodes: [
      { id: 'orders', kind: 'table', config: { topic: 'orders' } },
      { id: 'products', kind: 'table', config: { topic: 'products' } },
      {
        id: 'j',
        kind: 'foreignKeyJoin',
        config: {
          foreignKeyExtractor: 'value.product',
          joiner: '{"qty": left.qty, "name": right.name}',
          partitioner: 'by-number',
          otherPartitioner: 'by-number',
        },
      },
      { id: 't', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'enriched' } },
    ],
    edges: [
      { from: 'orders', to: 'j', toPort: 'left' },
      { from: 'products', to: 'j', toPort: 'right' },
      { from: 'j', to: 't' },
      { from: 't', to: 'out' },
    ],
  };
}

/** A table of cards, masked by the registered value transformer, as a changelog stream. */
function maskTopology(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    application: { id: 'mask-app', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'cards', partitions: 1 },
      { name: 'masked', partitions: 1 },
    ],
    nodes: [
      { id: 'cards', kind: 'table', config: { topic: 'cards' } },
      { id: 'mask', kind: 'transformValues', config: { transformer: 'mask-card' } },
      { id: 't', kind: 'toStream', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'masked' } },
    ],
    edges: [
      { from: 'cards', to: 'mask' },
      { from: 'mask', to: 't' },
      { from: 't', to: 'out' },
    ],
  };
}

function customTopology(): Record<string, unknown> {
  return {
    schemaVersion: 1,
    application: { id: 'custom-app', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'payments', partitions: 2 },
      { name: 'tagged', partitions: 2 },
    ],
    nodes: [
      { id: 'payments', kind: 'source', config: { topic: 'payments' } },
      {
        id: 'tag',
        kind: 'process',
        config: { processor: 'tag-with-partition', params: { tag: 'seen' } },
      },
      { id: 'large', kind: 'filter', config: { expression: { function: 'isLarge' } } },
      { id: 'out', kind: 'sink', config: { topic: 'tagged' } },
    ],
    edges: [
      { from: 'payments', to: 'tag' },
      { from: 'tag', to: 'large' },
      { from: 'large', to: 'out' },
    ],
  };
}

beforeAll(async () => {
  root = await makeDataDir();
  modulePath = join(root, 'processors.mjs');
  await writeFile(modulePath, MODULE);
  code = await loadCodeModule(modulePath);
});

afterAll(async () => {
  await removeDataDir(root);
});

describe('operator processors', () => {
  it('runs a topology that refers to registered processors and functions by name', async () => {
    const dataDir = join(root, 'data');
    const runtime = await startTestRuntime({ dataDir, code });
    try {
      const client = makeClient(runtime.url);
      expect(await client.registry.list.query()).toEqual({
        processors: ['tag-with-partition'],
        valueTransformers: ['mask-card'],
        functions: ['isLarge'],
        partitioners: ['by-number'],
      });
      const deployed = await client.app.deploy.mutate({ topology: customTopology() });
      expect(deployed.ok).toBe(true);
      for (const amount of [50, 150, 250]) {
        await client.topics.produce.mutate({
          topic: 'payments',
          partition: 1,
          key: `p${amount}`,
          value: JSON.stringify({ amount }),
        });
      }
      const out = await eventually(async () => {
        const read = await client.topics.read.query({ topic: 'tagged', limit: 10 });
        return read.length === 2 ? read : undefined;
      }, 'the tagged records');
      expect(out.map((r) => [r.key, r.value])).toEqual([
        ['p150', { amount: 150, tag: 'seen', fromPartition: 1 }],
        ['p250', { amount: 250, tag: 'seen', fromPartition: 1 }],
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('runs a KTable#transformValues with the value transformer the module registers', async () => {
    const runtime = await startTestRuntime({ dataDir: join(root, 'mask'), code });
    try {
      const client = makeClient(runtime.url);
      const deployed = await client.app.deploy.mutate({ topology: maskTopology() });
      expect(deployed.ok).toBe(true);
      await client.topics.produce.mutate({
        topic: 'cards',
        key: 'ann',
        value: JSON.stringify({ card: '4111-1111', limit: 500 }),
      });
      await client.topics.produce.mutate({ topic: 'cards', key: 'ann', value: null });
      const out = await eventually(async () => {
        const read = await client.topics.read.query({ topic: 'masked', limit: 10 });
        return read.length === 2 ? read : undefined;
      }, 'the masked changes');
      expect(out.map((r) => [r.key, r.value])).toEqual([
        ['ann', { card: '****', limit: 500 }],
        ['ann', null],
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('routes a foreign-key join by the partitioners the module registers', async () => {
    const runtime = await startTestRuntime({ dataDir: join(root, 'fk'), code });
    try {
      const client = makeClient(runtime.url);
      const deployed = await client.app.deploy.mutate({ topology: fkTopology() });
      expect(deployed.ok).toBe(true);
      // Both tables partitioned by the number in their keys, as the partitioner routes.
      for (const p of [1, 2])
        await client.topics.produce.mutate({
          topic: 'products',
          partition: p % 2,
          key: `p${p}`,
          value: JSON.stringify({ name: `name-${p}` }),
        });
      for (const o of [3, 4, 5])
        await client.topics.produce.mutate({
          topic: 'orders',
          partition: o % 3,
          key: `o${o}`,
          value: JSON.stringify({ product: `p${(o % 2) + 1}`, qty: o }),
        });
      const out = await eventually(async () => {
        const read = await client.topics.read.query({ topic: 'enriched', limit: 10 });
        return read.length === 3 ? read : undefined;
      }, 'the joined orders');
      expect(Object.fromEntries(out.map((r) => [r.key, r.value]))).toEqual({
        o3: { qty: 3, name: 'name-2' },
        o4: { qty: 4, name: 'name-1' },
        o5: { qty: 5, name: 'name-2' },
      });
      const responses = await client.topics.read.query({
        topic: 'fk-app-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic',
        limit: 10,
        valueSerde: 'bytes',
      });
      expect(responses.map((r) => [r.key, r.partition]).sort()).toEqual([
        ['o3', 0],
        ['o4', 1],
        ['o5', 2],
      ]);
    } finally {
      await runtime.close();
    }
  });

  it('refuses, as validation errors, names the runtime has not registered', async () => {
    const runtime = await startTestRuntime({ dataDir: join(root, 'bare') });
    try {
      const client = makeClient(runtime.url);
      expect(await client.registry.list.query()).toEqual({
        processors: [],
        valueTransformers: [],
        functions: [],
        partitioners: [],
      });
      const result = await client.app.deploy.mutate({ topology: customTopology() });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors.map((e) => [e.path, e.code, e.nodeId])).toEqual(
        expect.arrayContaining([
          ['nodes[1].config.processor', 'unknown_processor', 'tag'],
          ['nodes[2].config.expression.function', 'unknown_function', 'large'],
        ]),
      );
      expect((await client.topology.validate.mutate({ topology: customTopology() })).ok).toBe(
        false,
      );
      const fk = await client.topology.validate.mutate({ topology: fkTopology() });
      expect(fk.ok).toBe(false);
      if (fk.ok) return;
      expect(fk.errors.map((e) => [e.path, e.code, e.nodeId])).toEqual([
        ['nodes[2].config.partitioner', 'unknown_partitioner', 'j'],
        ['nodes[2].config.otherPartitioner', 'unknown_partitioner', 'j'],
      ]);
      const mask = await client.topology.validate.mutate({ topology: maskTopology() });
      expect(mask.ok).toBe(false);
      if (mask.ok) return;
      expect(mask.errors.map((e) => [e.path, e.code, e.nodeId, e.message])).toEqual([
        [
          'nodes[1].config.transformer',
          'unknown_transformer',
          'mask',
          'no value transformer "mask-card" is registered',
        ],
      ]);
      expect((await client.app.status.query()).deployed).toBe(false);
    } finally {
      await runtime.close();
    }
  });

  it('resumes a saved topology only when restarted with its processors', async () => {
    const dataDir = join(root, 'data'); // deployed and running by the first test
    const without = await startTestRuntime({ dataDir });
    try {
      expect((await makeClient(without.url).app.status.query()).deployed).toBe(false);
    } finally {
      await without.close();
    }
    const again = await startTestRuntime({ dataDir, code });
    try {
      const client = makeClient(again.url);
      await eventually(
        async () =>
          (await client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
        'resumed with its processors',
      );
    } finally {
      await again.close();
    }
  });
});

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('serve --processors', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it('refuses to start with a module that does not load or exports no registry', async () => {
    const missing = await cli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      join(root, 's1'),
      '--processors',
      join(root, 'nope.mjs'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot load processors from .*nope\.mjs/);

    const notFunctions = join(root, 'bad.mjs');
    await writeFile(notFunctions, 'export const processors = { broken: 5 };\n');
    const bad = await cli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      join(root, 's2'),
      '--processors',
      notFunctions,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/processors\.broken is not a function/);

    const empty = join(root, 'empty.mjs');
    await writeFile(empty, 'export const other = {};\n');
    const none = await cli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      join(root, 's3'),
      '--processors',
      empty,
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /exports neither `processors` nor `valueTransformers` nor `functions`/,
    );
  });

  it('says what to do with a TypeScript module where Node imports JavaScript only', async () => {
    const file = join(root, 'processors.ts');
    await writeFile(file, 'export const functions: Record<string, () => boolean> = {};\n');
    const topology = join(root, 'pipeline.json');
    await writeFile(topology, JSON.stringify(ordersPipeline()));
    const result = await cli(['drive', topology, '--records', '-', '--processors', file]);
    if ((process.features as { typescript?: unknown }).typescript) {
      // a Node that strips types imports it (Node 22.18+, 23.6+)
      expect(result).toMatchObject({ code: 0, stderr: '' });
    } else {
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^error: cannot load processors from .*processors\.ts: .*: compile it to JavaScript \(tsc\) or write the module as \.mjs\n$/,
      );
    }
  });

  it('takes a default export function returning the registries, as worker threads do', async () => {
    const factory = join(root, 'factory.mjs');
    await writeFile(
      factory,
      'export default async () => ({ functions: { isLarge: ({ value }) => value.amount > 1 } });\n',
    );
    const loaded = await loadCodeModule(factory);
    expect(Object.keys(loaded.functions)).toEqual(['isLarge']);
    expect(loaded.processors).toEqual({});
  });

  it('registers the module at start: the runtime lists and runs its processors', async () => {
    const child = spawnCli([
      'serve',
      '--port',
      '0',
      '--data-dir',
      join(root, 's4'),
      '--processors',
      modulePath,
    ]);
    child.stdin.end();
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    try {
      const url = await eventually(
        () => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1],
        'the URL',
        20_000,
      );
      const client = makeClient(url);
      expect((await client.registry.list.query()).processors).toEqual(['tag-with-partition']);
      // Two stream threads run in worker threads, which import the same module themselves.
      const threaded = customTopology() as { application: { config: Record<string, unknown> } };
      threaded.application.config['num.stream.threads'] = 2;
      expect((await client.app.deploy.mutate({ topology: threaded })).ok).toBe(true);
      for (const [partition, amount] of [
        [0, 500],
        [1, 700],
        [1, 5],
      ] as const) {
        await client.topics.produce.mutate({
          topic: 'payments',
          partition,
          key: `k${amount}`,
          value: JSON.stringify({ amount }),
        });
      }
      const out = await eventually(
        async () => {
          const read = await client.topics.read.query({ topic: 'tagged', limit: 10 });
          return read.length === 2 ? read : undefined;
        },
        'the records tagged in worker threads',
        20_000,
      );
      expect(
        out.map((r) => r.value).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ).toEqual([
        { amount: 500, tag: 'seen', fromPartition: 0 },
        { amount: 700, tag: 'seen', fromPartition: 1 },
      ]);
      const status = await client.app.status.query();
      expect(new Set(status.status?.tasks.map((t) => t.thread))).toEqual(
        new Set(['custom-app-StreamThread-1', 'custom-app-StreamThread-2']),
      );
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
