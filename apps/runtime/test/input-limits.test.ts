// Input that should be a client error is a 4xx naming the limit, never a 500 or a stalled server:
// a record over max.message.bytes, input nested 20,000 deep, a topology over 2,000 nodes or over
// 2 MB (refused from its Content-Length, before the body is parsed), node ids named like
// Object.prototype's properties.
import { exampleTopology } from '@streamwright/topology-model';
import { describe, expect, it } from 'vitest';
import { refusal, useTestRuntime } from './harness.js';

describe('input limits', () => {
  const env = useTestRuntime();

  it('a record over max.message.bytes through topics.produce is a 413 naming the limit', async () => {
    await env.client.topics.create.mutate({ name: 'big', partitions: 1 });
    const error = await refusal(
      env.client.topics.produce.mutate({
        topic: 'big',
        key: 'k',
        value: 'x'.repeat(2 * 1024 * 1024),
        keySerde: 'string',
        valueSerde: 'string',
      }),
    );
    expect(error.data?.httpStatus).toBe(413);
    expect(error.message).toMatch(/larger than max\.message\.bytes of topic big/);
  });

  it('input nested 20,000 deep is a 413 naming the depth limit', async () => {
    // Sent as text: the tRPC client's own JSON.stringify cannot nest that deep.
    const config = `${'{"a":'.repeat(20_000)}"x"${'}'.repeat(20_000)}`;
    const response = await fetch(`${env.runtime.url}/trpc/topics.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"deep","partitions":1,"config":${config}}`,
    });
    const answer = (await response.json()) as { error: { message: string } };
    expect(response.status).toBe(413);
    expect(answer.error.message).toMatch(/deeper than the limit of 64 levels/);
  });

  it('a topology of more than 2,000 nodes is a 413 naming the limit', async () => {
    const doc = exampleTopology() as { nodes: { id: string }[] };
    const node = doc.nodes[1]!;
    const nodes = Array.from({ length: 2001 }, (_, i) => ({ ...node, id: `n${i}` }));
    const error = await refusal(
      env.client.topology.validate.mutate({ topology: { ...doc, nodes } }),
    );
    expect(error.data?.httpStatus).toBe(413);
    expect(error.message).toMatch(/2001 nodes, more than the limit of 2000/);
  });

  it('a request of more than 2 MB carrying a topology is refused before it is parsed', async () => {
    const body = JSON.stringify({ topology: { pad: 'x'.repeat(3 * 1024 * 1024) } });
    const response = await fetch(`${env.runtime.url}/trpc/topology.validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    const answer = (await response.json()) as { error: { message: string } };
    expect(answer.error.message).toMatch(/more than the limit of 2097152 bytes/);
    expect((await fetch(`${env.runtime.url}/healthz`)).status).toBe(200);
  });

  it('node ids named like Object.prototype properties validate, describe and save', async () => {
    const doc = exampleTopology() as {
      nodes: { id: string }[];
      edges: { from: string; to: string }[];
    };
    const names = [
      'constructor',
      '__proto__',
      'toString',
      'valueOf',
      'hasOwnProperty',
      'isPrototypeOf',
      'propertyIsEnumerable',
      'toLocaleString',
    ];
    const rename = new Map(doc.nodes.map((n, i) => [n.id, names[i % names.length]!]));
    const renamed = JSON.parse(JSON.stringify(doc)) as typeof doc;
    for (const n of renamed.nodes) n.id = rename.get(n.id)!;
    for (const e of renamed.edges) {
      e.from = rename.get(e.from)!;
      e.to = rename.get(e.to)!;
    }
    // Layout keys too: JSON.parse makes "__proto__" an ordinary own key, as a client's JSON does.
    const layout = (renamed as { layout?: { nodes: Record<string, unknown> } }).layout;
    if (layout)
      layout.nodes = JSON.parse(
        `{${Object.entries(layout.nodes)
          .map(([k, v]) => `${JSON.stringify(rename.get(k) ?? k)}:${JSON.stringify(v)}`)
          .join(',')}}`,
      ) as Record<string, unknown>;
    expect(await env.client.topology.validate.mutate({ topology: renamed })).toEqual({ ok: true });
    const described = await env.client.topology.describe.mutate({ topology: renamed });
    expect(described.ok).toBe(true);
    await env.client.workspace.save.mutate({ name: 'protos', topology: renamed });
    const deployed = await env.client.app.deploy.mutate({ topology: renamed, start: false });
    expect(deployed).toBeTruthy();
  });
});
