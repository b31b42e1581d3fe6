// The designer's workspace through the API: versions on disk, rename, delete, structural diffs.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusal, useTestRuntime } from './harness.js';
import { ordersPipeline } from './topologies.js';

const env = useTestRuntime();

function edited() {
  const doc = ordersPipeline() as {
    nodes: { id: string; config: Record<string, unknown> }[];
  } & Record<string, unknown>;
  doc.nodes[1]!.config.expression = 'value.amount > 500';
  return doc;
}

describe('workspace', () => {
  it('saves versions with their time, lists and opens them', async () => {
    const before = Date.now();
    const v1 = await env.client.workspace.save.mutate({
      name: 'Orders pipeline',
      topology: ordersPipeline(),
      message: 'first',
    });
    expect(v1).toMatchObject({
      name: 'Orders pipeline',
      version: 1,
      valid: true,
      message: 'first',
      errors: [],
    });
    expect(v1.savedAt).toBeGreaterThanOrEqual(before);
    const v2 = await env.client.workspace.save.mutate({
      name: 'Orders pipeline',
      topology: edited(),
    });
    expect(v2).toMatchObject({ version: 2, valid: true, message: null });
    await env.client.workspace.save.mutate({ name: 'Another', topology: ordersPipeline() });

    const list = await env.client.workspace.list.query();
    expect(list.map((e) => [e.name, e.versions, e.latest.version])).toEqual([
      ['Another', 1, 1],
      ['Orders pipeline', 2, 2],
    ]);
    const history = await env.client.workspace.history.query({ name: 'Orders pipeline' });
    expect(history.versions.map((v) => [v.version, v.message])).toEqual([
      [2, null],
      [1, 'first'],
    ]);
    const first = await env.client.workspace.open.query({ name: 'Orders pipeline', version: 1 });
    expect(first).toMatchObject({ name: 'Orders pipeline', version: 1, valid: true });
    // Valid topologies are kept in canonical form (defaults filled in, as exported).
    expect(first.topology).toMatchObject({
      schemaVersion: 1,
      application: { id: 'orders-app' },
      layout: { nodes: {} },
    });
    const latest = await env.client.workspace.open.query({ name: 'Orders pipeline' });
    expect(latest.version).toBe(2);
    // Each version is a file of its own.
    const dirs = await readdir(join(env.dataDir, 'workspace'));
    expect(dirs).toHaveLength(2);
  });

  it('diffs two versions field by field', async () => {
    const result = await env.client.workspace.diff.query({
      name: 'Orders pipeline',
      from: 1,
      to: 2,
    });
    expect(result.from.version).toBe(1);
    expect(result.to.version).toBe(2);
    expect(result.diff).toMatchObject({
      identical: false,
      layoutOnly: false,
      nodes: {
        added: [],
        removed: [],
        changed: [
          {
            id: 'large',
            kind: 'filter',
            changes: [
              {
                path: 'config.expression',
                change: 'changed',
                from: 'value.amount > 100',
                to: 'value.amount > 500',
              },
            ],
          },
        ],
      },
      edges: { added: [], removed: [] },
    });
    expect(result.diff.summary).toEqual([
      'node large (filter): config.expression: "value.amount > 100" → "value.amount > 500"',
    ]);
    const same = await env.client.workspace.diff.query({ name: 'Orders pipeline', from: 2, to: 2 });
    expect(same.diff.identical).toBe(true);
  });

  it('reports layout-only changes apart', async () => {
    const moved = edited();
    moved.layout = { nodes: { orders: { x: 10, y: 20 } } };
    const v3 = await env.client.workspace.save.mutate({ name: 'Orders pipeline', topology: moved });
    const result = await env.client.workspace.diff.query({
      name: 'Orders pipeline',
      from: 2,
      to: v3.version,
    });
    expect(result.diff.layoutOnly).toBe(true);
    expect(result.diff.summary).toEqual(['layout nodes.orders added: {"x":10,"y":20}']);
  });

  it('keeps an invalid draft, flagged with its errors; refuses what is not a topology', async () => {
    const draft = { ...ordersPipeline(), edges: [{ from: 'orders', to: 'ghost' }] };
    const saved = await env.client.workspace.save.mutate({ name: 'Draft', topology: draft });
    expect(saved.valid).toBe(false);
    expect(saved.errors.map((e) => e.code)).toContain('dangling_edge');
    const opened = await env.client.workspace.open.query({ name: 'Draft' });
    expect(opened.valid).toBe(false);
    expect((opened.topology as { edges: unknown[] }).edges).toEqual([
      { from: 'orders', fromPort: 'out', to: 'ghost', toPort: 'in' },
    ]);

    const notATopology = await refusal(
      env.client.workspace.save.mutate({ name: 'Junk', topology: [1, 2] }),
    );
    expect(notATopology.data).toMatchObject({ code: 'BAD_REQUEST', runtimeCode: 'NOT_A_TOPOLOGY' });
    const future = await refusal(
      env.client.workspace.save.mutate({
        name: 'Junk',
        topology: { ...ordersPipeline(), schemaVersion: 99 },
      }),
    );
    expect(future.message).toMatch(/schemaVersion 99 is newer/);
    expect((await env.client.workspace.list.query()).map((e) => e.name)).not.toContain('Junk');
  });

  it('renames and deletes, refusing a taken name and unknown names', async () => {
    const taken = await refusal(
      env.client.workspace.rename.mutate({ from: 'Another', to: 'Draft' }),
    );
    expect(taken.data).toMatchObject({ code: 'CONFLICT', runtimeCode: 'WORKSPACE_EXISTS' });
    const renamed = await env.client.workspace.rename.mutate({
      from: 'Another',
      to: 'Renamed/with spaces ✓',
    });
    expect(renamed).toMatchObject({ name: 'Renamed/with spaces ✓', versions: 1 });
    expect((await env.client.workspace.open.query({ name: 'Renamed/with spaces ✓' })).name).toBe(
      'Renamed/with spaces ✓',
    );
    const gone = await refusal(env.client.workspace.open.query({ name: 'Another' }));
    expect(gone.data).toMatchObject({ code: 'NOT_FOUND', runtimeCode: 'WORKSPACE_NOT_FOUND' });

    expect(await env.client.workspace.delete.mutate({ name: 'Draft' })).toEqual({
      deleted: 'Draft',
    });
    expect((await env.client.workspace.list.query()).map((e) => e.name)).toEqual([
      'Orders pipeline',
      'Renamed/with spaces ✓',
    ]);
    const noVersion = await refusal(
      env.client.workspace.open.query({ name: 'Orders pipeline', version: 9 }),
    );
    expect(noVersion.message).toBe('"Orders pipeline" has no version 9 (versions 1..3)');
    const badName = await refusal(
      env.client.workspace.save.mutate({ name: '  ', topology: ordersPipeline() }),
    );
    expect(badName.data?.issues?.[0]?.path).toBe('name');
  });

  it('survives a runtime restart', async () => {
    await env.restart();
    const list = await env.client.workspace.list.query();
    expect(list.map((e) => [e.name, e.versions])).toEqual([
      ['Orders pipeline', 3],
      ['Renamed/with spaces ✓', 1],
    ]);
  });
});
