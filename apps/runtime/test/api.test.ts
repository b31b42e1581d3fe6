// The tRPC API through a real HTTP server, engine and embedded backend.
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '../src/index.js';
import { eventually, useTestRuntime } from './harness.js';
import { collectMetrics, perModelNode, taskSum } from './metrics-helpers.js';
import { expectedSink, orders, ordersPipeline } from './topologies.js';

const env = useTestRuntime();

async function badRequest(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  const clientError = error as TRPCClientError<AppRouter>;
  expect(clientError.data?.code).toBe('BAD_REQUEST');
  expect(clientError.data?.httpStatus).toBe(400);
  return clientError.message;
}

describe('health and topology tools', () => {
  it('reports health', async () => {
    const health = await env.client.health.query();
    expect(health).toEqual({
      ok: true,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      backend: 'embedded',
    });
  });

  it('lists every validation error with its path and node id', async () => {
    const broken = ordersPipeline();
    broken.nodes = [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'large', kind: 'filter', config: { expression: 'value.amount >' } },
      { id: 'mystery', kind: 'teleport', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 42 } },
    ];
    broken.edges = [
      { from: 'orders', to: 'large' },
      { from: 'large', to: 'ghost' },
    ];
    const result = await env.client.topology.validate.mutate({ topology: broken });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byNode = (id: string) => result.errors.filter((e) => e.nodeId === id);
    // A syntax error in the filter, with its position in the expression.
    const syntax = byNode('large').find((e) => e.path.includes('expression'));
    expect(syntax?.path).toMatch(/^nodes\[1\]\.config\.expression$/);
    expect(syntax?.position).toMatchObject({ line: 1 });
    // An unknown kind, an ill-typed config field, a dangling edge.
    expect(byNode('mystery').map((e) => [e.path, e.code])).toContainEqual([
      'nodes[2].kind',
      'unknown_kind',
    ]);
    expect(byNode('out').map((e) => [e.path, e.code])).toContainEqual([
      'nodes[3].config.topic',
      'invalid_config',
    ]);
    expect(result.errors.map((e) => [e.path, e.code])).toContainEqual([
      'edges[1].to',
      'dangling_edge',
    ]);
  });

  it('describes a topology in Kafka Streams text', async () => {
    const result = await env.client.topology.describe.mutate({ topology: ordersPipeline() });
    expect(result).toEqual({
      ok: true,
      text: [
        'Topologies:',
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [orders])',
        '      --> KSTREAM-FILTER-0000000001',
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])',
        '      --> KSTREAM-MAPVALUES-0000000002',
        '      <-- KSTREAM-SOURCE-0000000000',
        '    Processor: KSTREAM-MAPVALUES-0000000002 (stores: [])',
        '      --> KSTREAM-SINK-0000000003',
        '      <-- KSTREAM-FILTER-0000000001',
        '    Sink: KSTREAM-SINK-0000000003 (topic: large-orders)',
        '      <-- KSTREAM-MAPVALUES-0000000002',
        '',
        '',
      ].join('\n'),
    });
  });

  it('describes nothing for an invalid topology, listing its errors', async () => {
    const result = await env.client.topology.describe.mutate({ topology: { schemaVersion: 1 } });
    expect(result.ok).toBe(false);
  });

  it('returns the example topology as a canonical document', async () => {
    const example = await env.client.topology.example.query();
    expect(example.schemaVersion).toBe(1);
    expect(example.nodes.some((n) => n.kind === 'generator')).toBe(true);
    const validation = await env.client.topology.validate.mutate({ topology: example });
    expect(validation).toEqual({ ok: true });
  });
});

describe('malformed input is a BAD_REQUEST naming the field', () => {
  it('names a field of the wrong type', async () => {
    const message = await badRequest(
      env.client.topics.produce.mutate({
        topic: 'orders',
        key: 5 as unknown as string,
        value: null,
      }),
    );
    expect(message).toMatch(/\bkey\b/);
    expect(message).toBe('Invalid input: key: must be text, got 5');
  });

  it('names a field out of range', async () => {
    expect(await badRequest(env.client.topics.read.query({ topic: 'orders', limit: 0 }))).toMatch(
      /\blimit\b/,
    );
    expect(await badRequest(env.client.topics.read.query({ topic: 'orders', limit: 501 }))).toBe(
      'Invalid input: limit: must be an integer from 1 to 500, got 501',
    );
    expect(
      await badRequest(env.client.topics.read.query({ topic: 'orders', partition: -1 })),
    ).toMatch(/\bpartition\b/);
  });

  it('names a missing field and a wrong serde', async () => {
    expect(
      await badRequest(env.client.topics.produce.mutate({ key: null, value: null } as never)),
    ).toMatch(/\btopic\b/);
    expect(
      await badRequest(
        env.client.topics.read.query({ topic: 'orders', valueSerde: 'avro' as never }),
      ),
    ).toMatch(/\bvalueSerde\b/);
    expect(
      await badRequest(env.client.app.deploy.mutate({ topology: {}, start: 'yes' as never })),
    ).toMatch(/\bstart\b/);
  });

  it('names a header of the wrong type', async () => {
    const message = await badRequest(
      env.client.topics.produce.mutate({
        topic: 'orders',
        key: null,
        value: null,
        headers: { a: 1 as never },
      }),
    );
    expect(message).toMatch(/headers\.a/);
    const entry = await badRequest(
      env.client.topics.produce.mutate({
        topic: 'orders',
        key: null,
        value: null,
        headers: [{ key: 'a', value: { base64: '%%' } }],
      }),
    );
    expect(entry).toMatch(/headers\[0\]\.value: expected text, \{"base64": "…"\} or null/);
  });
});

describe('deploying', () => {
  it('deploys nothing for an invalid topology', async () => {
    const broken = { ...ordersPipeline(), edges: [{ from: 'orders', to: 'nowhere' }] };
    const result = await env.client.app.deploy.mutate({ topology: broken });
    expect(result.ok).toBe(false);
    expect(await env.client.app.status.query()).toEqual({
      deployed: false,
      topology: null,
      deployment: null,
      status: null,
    });
    const topics = await env.client.topics.list.query();
    expect(topics.map((t) => t.name)).not.toContain('orders');
  });

  it('refuses start and stop with nothing deployed', async () => {
    const error = await env.client.app.start.mutate().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<AppRouter>).data?.code).toBe('PRECONDITION_FAILED');
  });

  it('runs source → filter → mapValues → sink over 3 partitions with exact results and counters', async () => {
    const deployed = await env.client.app.deploy.mutate({ topology: ordersPipeline() });
    expect(deployed.ok).toBe(true);

    const topics = await env.client.topics.list.query();
    expect(topics.find((t) => t.name === 'orders')?.partitions).toBe(3);
    expect(topics.find((t) => t.name === 'large-orders')?.partitions).toBe(3);

    const input = orders(30);
    for (const order of input) {
      const written = await env.client.topics.produce.mutate({
        topic: 'orders',
        key: order.key,
        value: JSON.stringify({ user: order.user, amount: order.amount }),
      });
      expect(written.partition).toBeGreaterThanOrEqual(0);
      expect(written.partition).toBeLessThan(3);
    }
    const expected = expectedSink(input);

    const records = await eventually(async () => {
      const read = await env.client.topics.read.query({ topic: 'large-orders', limit: 500 });
      return read.length >= expected.length ? read : undefined;
    }, 'the sink records');
    expect(records).toHaveLength(expected.length);
    const got = records
      .map((r) => ({ key: r.key, value: r.value }))
      .sort((a, b) => String(a.key).localeCompare(String(b.key)));
    expect(got).toEqual([...expected].sort((a, b) => a.key.localeCompare(b.key)));
    for (const record of records) expect(record.undecodable).toEqual({ key: false, value: false });
    // Ordered by timestamp, then partition and offset.
    for (let i = 1; i < records.length; i++) {
      const [a, b] = [records[i - 1]!, records[i]!];
      expect(
        a.timestamp < b.timestamp ||
          (a.timestamp === b.timestamp &&
            (a.partition < b.partition || (a.partition === b.partition && a.offset < b.offset))),
      ).toBe(true);
    }

    const view = await env.client.app.status.query();
    expect(view.deployed).toBe(true);
    expect(view.topology?.application.id).toBe('orders-app');
    expect(view.status?.state).toBe('RUNNING');
    expect(view.status?.tasks.map((t) => t.taskId).sort()).toEqual(['0_0', '0_1', '0_2']);

    const metrics = await eventually(async () => {
      const [event] = await collectMetrics(env.client, 1);
      const snapshot = event?.data.metrics;
      return snapshot && perModelNode(snapshot, 'process-total').out === expected.length
        ? snapshot
        : undefined;
    }, 'the counters');
    expect(Object.keys(metrics.tasks).sort()).toEqual(['0_0', '0_1', '0_2']);
    expect(taskSum(metrics, 'process-total')).toBe(input.length);
    expect(perModelNode(metrics, 'process-total')).toEqual({
      orders: input.length,
      large: input.length,
      shape: expected.length,
      out: expected.length,
    });
  });

  it('streams status and metrics every second on one subscription, the first at once', async () => {
    const events = await collectMetrics(env.client, 3);
    // The first event does not wait for the interval; the next ones follow it (the upper bound
    // is loose: a loaded CI machine delays timers, it never makes them early).
    expect(events[0]!.after).toBeLessThan(1000);
    const gap1 = events[1]!.data.at - events[0]!.data.at;
    const gap2 = events[2]!.data.at - events[1]!.data.at;
    for (const gap of [gap1, gap2]) {
      expect(gap).toBeGreaterThanOrEqual(990);
      expect(gap).toBeLessThan(2500);
    }
    const last = events[2]!.data;
    expect(last.status?.tasks.map((t) => t.taskId).sort()).toEqual(['0_0', '0_1', '0_2']);
    expect(Object.keys(last.metrics?.tasks ?? {}).sort()).toEqual(['0_0', '0_1', '0_2']);
  });

  it('tells the deployer when a declared topic exists with another partition count', async () => {
    await env.client.topics.create.mutate({ name: 'counted-in', partitions: 2 });
    const declared = {
      schemaVersion: 1,
      application: { id: 'partition-note', config: {} },
      topics: [
        { name: 'counted-in', partitions: 4, config: {} },
        { name: 'counted-out', partitions: 1, config: {} },
      ],
      nodes: [
        { id: 'in', kind: 'source', config: { topic: 'counted-in' } },
        { id: 'out', kind: 'sink', config: { topic: 'counted-out' } },
      ],
      edges: [{ from: 'in', to: 'out' }],
    };
    const result = await env.client.app.deploy.mutate({ topology: declared, start: false });
    expect(result).toMatchObject({
      ok: true,
      warnings: [
        'topic "counted-in" already exists with 2 partitions, not the 4 declared: an existing topic keeps its partition count (delete it to recreate it)',
      ],
    });
    // the created one matches its declaration, so it has no note
    const topics = await env.client.topics.list.query();
    expect(topics.find((t) => t.name === 'counted-out')?.partitions).toBe(1);
    expect(topics.find((t) => t.name === 'counted-in')?.partitions).toBe(2);
    // put back the app the following tests expect
    const back = await env.client.app.deploy.mutate({ topology: ordersPipeline() });
    expect(back).toMatchObject({ ok: true, warnings: [] });
  });

  it('tells the deployer which application-config keys are not honoured on this backend', async () => {
    const tuned = {
      ...ordersPipeline(),
      application: { id: 'orders-app', config: { 'producer.linger.ms': 5, 'no.such.key': 'x' } },
    };
    const result = await env.client.app.deploy.mutate({ topology: tuned, start: false });
    expect(result).toMatchObject({
      ok: true,
      warnings: [
        expect.stringMatching(
          /^application\.config\["no\.such\.key"\]: 'no\.such\.key' is not a Kafka Streams config/,
        ),
        'application.config["producer.linger.ms"]: linger.ms of the producer is not implemented by the embedded backend: producer.linger.ms is ignored',
      ],
    });
    const back = await env.client.app.deploy.mutate({ topology: ordersPipeline() });
    expect(back).toMatchObject({ ok: true, warnings: [] });
  });

  it('leaves the running app alone when a new deploy is invalid', async () => {
    const before = await env.client.app.status.query();
    const broken = {
      ...ordersPipeline(),
      nodes: [{ id: 'orders', kind: 'source', config: {} }],
      edges: [],
    };
    const result = await env.client.app.deploy.mutate({ topology: broken });
    expect(result.ok).toBe(false);
    const after = await env.client.app.status.query();
    expect(after.topology).toEqual(before.topology);
    expect(after.deployment).toEqual(before.deployment);
    expect(after.status?.state).toBe('RUNNING');
  });

  it('names the deployed topology: a version equal for the same topology wherever its nodes are drawn', async () => {
    const first = await env.client.app.deploy.mutate({ topology: ordersPipeline() });
    if (!first.ok) throw new Error('expected a deploy');
    expect(first.deployment).toMatchObject({
      applicationId: 'orders-app',
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const view = await env.client.app.status.query();
    expect(view.deployment).toEqual(first.deployment);
    const [event] = await collectMetrics(env.client, 1);
    expect(event?.data.deployment).toEqual(first.deployment);

    const moved = { ...ordersPipeline(), layout: { nodes: { orders: { x: 500, y: 40 } } } };
    const again = await env.client.app.deploy.mutate({ topology: moved });
    if (!again.ok) throw new Error('expected a deploy');
    expect(again.deployment.version).toBe(first.deployment.version);

    const other = ordersPipeline() as { nodes: { kind: string }[] };
    const edited = {
      ...other,
      nodes: other.nodes.map((n) =>
        n.kind === 'filter' ? { ...n, config: { expression: 'value.amount > 1' } } : n,
      ),
    };
    const changed = await env.client.app.deploy.mutate({ topology: edited });
    if (!changed.ok) throw new Error('expected a deploy');
    expect(changed.deployment.version).not.toBe(first.deployment.version);
    // put back the app the following tests expect
    expect((await env.client.app.deploy.mutate({ topology: ordersPipeline() })).ok).toBe(true);
  });

  it('reads one partition, the latest records only', async () => {
    const all = await env.client.topics.read.query({ topic: 'orders', limit: 500 });
    expect(all).toHaveLength(30);
    const latest = await env.client.topics.read.query({ topic: 'orders', limit: 5 });
    expect(latest).toEqual(all.slice(-5));
    const p1 = await env.client.topics.read.query({ topic: 'orders', partition: 1, limit: 500 });
    expect(p1.length).toBeGreaterThan(0);
    expect(p1.every((r) => r.partition === 1)).toBe(true);
  });

  it('refuses bad JSON for the json serde and a partition out of range', async () => {
    const message = await badRequest(
      env.client.topics.produce.mutate({ topic: 'orders', key: 'k', value: '{"a":' }),
    );
    expect(message).toMatch(/value: not valid JSON/);
    const range = await badRequest(
      env.client.topics.produce.mutate({ topic: 'orders', partition: 3, key: 'k', value: '{}' }),
    );
    expect(range).toMatch(/partition/);
    const missing = await env.client.topics.read
      .query({ topic: 'no-such-topic' })
      .catch((e: unknown) => e);
    expect((missing as TRPCClientError<AppRouter>).data?.code).toBe('NOT_FOUND');
  });

  it('produces with serdes, headers and a partition, and shows undecodable bytes as base64', async () => {
    await env.client.app.deploy.mutate({
      topology: {
        ...ordersPipeline(),
        topics: [...(ordersPipeline().topics as object[]), { name: 'misc', partitions: 2 }],
      },
    });
    const long = await env.client.topics.produce.mutate({
      topic: 'misc',
      partition: 1,
      key: '42',
      keySerde: 'long',
      value: 'plain text',
      valueSerde: 'string',
      headers: { source: 'test' },
    });
    expect(long.partition).toBe(1);
    const [asText] = await env.client.topics.read.query({
      topic: 'misc',
      partition: 1,
      keySerde: 'long',
      valueSerde: 'string',
    });
    expect(asText).toMatchObject({
      key: 42,
      value: 'plain text',
      headers: [{ key: 'source', value: 'test' }],
      undecodable: { key: false, value: false },
    });
    const [asJson] = await env.client.topics.read.query({
      topic: 'misc',
      partition: 1,
      keySerde: 'long',
      valueSerde: 'json',
    });
    expect(asJson).toMatchObject({
      key: 42,
      value: Buffer.from('plain text').toString('base64'),
      undecodable: { key: false, value: true },
    });
    const badLong = await badRequest(
      env.client.topics.produce.mutate({
        topic: 'misc',
        key: '4.2',
        keySerde: 'long',
        value: null,
      }),
    );
    expect(badLong).toMatch(/key: the long serde needs an integer/);
  });
});

describe('HTTP endpoints', () => {
  it('serves /healthz as JSON', async () => {
    const response = await fetch(`${env.runtime.url}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ ok: true, backend: 'embedded', app: 'RUNNING' });
  });

  it('serves /metrics in the OpenMetrics text format', async () => {
    const response = await fetch(`${env.runtime.url}/metrics`);
    expect(response.headers.get('content-type')).toMatch(
      /^application\/openmetrics-text; version=1\.0\.0/,
    );
    const text = await response.text();
    expect(text).toMatch(/^kafka_streams_task_process_total\{task_id="0_0"\} \d+$/m);
    expect(text).toMatch(
      /^kafka_streams_processor_node_process_total\{task_id="0_2",processor_node_id="KSTREAM-SOURCE-0000000000"\} \d+$/m,
    );
    // The embedded log's background jobs, each counted from 0.
    expect(text).toMatch(/^streamwright_backend_background_failures_total\{job="checkpoint"\} 0$/m);
    expect(text.endsWith('# EOF\n')).toBe(true);
  });
});
