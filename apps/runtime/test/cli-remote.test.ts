// The topic commands through a running runtime (`--url`), the data-dir lock that keeps direct
// access out while the runtime holds the data dir, a token-protected runtime, and --follow.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../src/runtime.js';
import { cli, ensureBuilt, jsonLines, spawnCli } from './cli-harness.js';
import { eventually, makeClient, makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import { ordersPipeline } from './topologies.js';

let root: string;
let runtime: Runtime;

beforeAll(async () => {
  await ensureBuilt();
  root = await makeDataDir();
  runtime = await startTestRuntime({ dataDir: join(root, 'data') });
}, 300_000);

afterAll(async () => {
  await runtime?.close();
  await removeDataDir(root);
});

interface Line {
  partition: number;
  offset: number;
  key: unknown;
  value: unknown;
  headers: unknown[];
}

const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('through a running runtime', { timeout: 120_000 }, () => {
  it('refuses direct access to the data dir it holds, naming its URL', async () => {
    const result = await cli(['topics', 'list', '--data-dir', join(root, 'data')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /the data dir .* is in use by a running runtime \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)/,
    );
    expect(result.stderr).toContain(`--url ${runtime.url}`);
  });

  it('creates, produces, consumes and deletes with --url', async () => {
    const url = ['--url', runtime.url];
    expect(
      (await cli(['topics', 'create', 'events', '-p', '2', '-c', 'retention.ms=60000', ...url]))
        .code,
    ).toBe(0);
    const described = JSON.parse(
      (await cli(['topics', 'describe', 'events', '--json', ...url])).stdout,
    );
    expect(described).toMatchObject({
      name: 'events',
      partitions: 2,
      config: { 'retention.ms': '60000' },
    });

    const input = lines(
      ...Array.from({ length: 40 }, (_, i) => ({
        key: `k${i}`,
        value: { n: i },
        // an old-form object, then the array form with a repeated key and bytes that are not UTF-8
        headers:
          i % 2 === 0
            ? { i: String(i) }
            : [
                { key: 'i', value: String(i) },
                { key: 'raw', value: { base64: '/wA=' } },
                { key: 'i', value: null },
              ],
      })),
    );
    const produced = await cli(['produce', 'events', '--value-format', 'json', ...url], { input });
    expect(produced).toMatchObject({ code: 0, stderr: 'produced 40 records to events\n' });

    const consumed = await cli([
      'consume',
      'events',
      '--from-beginning',
      '--value-format',
      'json',
      ...url,
    ]);
    const records = jsonLines<Line>(consumed.stdout);
    expect(records).toHaveLength(40);
    expect(records.map((r) => (r.value as { n: number }).n).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i),
    );
    for (const r of records) {
      const n = (r.value as { n: number }).n;
      expect(r.headers).toEqual(
        n % 2 === 0
          ? [{ key: 'i', value: String(n) }]
          : [
              { key: 'i', value: String(n) },
              { key: 'raw', value: { base64: '/wA=' } },
              { key: 'i', value: null },
            ],
      );
    }

    // STREAMWRIGHT_URL works as --url.
    const viaEnv = await cli(['topics', 'list'], { env: { STREAMWRIGHT_URL: runtime.url } });
    expect(viaEnv.stdout).toMatch(/^events\s+2\s+40$/m);

    // The same bad-line rule as on a data dir.
    const bad = await cli(['produce', 'events', ...url], {
      input: '{"value":"ok"}\n{"value":5}\n',
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /line 2: value: the string format takes a JSON string.*\(1 record acknowledged before it\)/,
    );

    expect((await cli(['topics', 'delete', 'events', ...url])).code).toBe(0);
    const gone = await cli(['consume', 'events', ...url]);
    expect(gone).toMatchObject({ code: 1, stderr: 'error: topic "events" does not exist\n' });
  });

  it("refuses to delete a topic of the running app, and to commit its group's offsets", async () => {
    const client = makeClient(runtime.url);
    expect((await client.app.deploy.mutate({ topology: ordersPipeline() })).ok).toBe(true);
    await eventually(
      async () =>
        (await client.app.status.query()).status?.state === 'RUNNING' ? true : undefined,
      'RUNNING',
    );
    const url = ['--url', runtime.url];
    const deleted = await cli(['topics', 'delete', 'orders', ...url]);
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toMatch(
      /topic "orders" is used by the running application orders-app: stop it first/,
    );

    const consumed = await cli(['consume', 'orders', '--group', 'orders-app', ...url]);
    expect(consumed.code).toBe(1);
    expect(consumed.stderr).toMatch(/group "orders-app" belongs to the running application/);
  });

  it('follows a topic until interrupted, committing the group offsets of what it printed', async () => {
    const url = ['--url', runtime.url];
    expect((await cli(['topics', 'create', 'ticks', ...url])).code).toBe(0);
    expect(
      (await cli(['produce', 'ticks', ...url], { input: lines({ value: 'before' }) })).code,
    ).toBe(0);

    const child = spawnCli([
      'consume',
      'ticks',
      '--follow',
      '--from-beginning',
      '--group',
      'tail',
      ...url,
    ]);
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('close', (code) => resolve(code)),
    );
    try {
      await eventually(
        () => (jsonLines(stdout).length === 1 ? true : undefined),
        'the first record',
        20_000,
      );
      expect(
        (
          await cli(['produce', 'ticks', ...url], {
            input: lines({ value: 'after-1' }, { value: 'after-2' }),
          })
        ).code,
      ).toBe(0);
      await eventually(
        () => (jsonLines(stdout).length === 3 ? true : undefined),
        'the new records',
        20_000,
      );
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    expect(jsonLines<Line>(stdout).map((r) => r.value)).toEqual(['before', 'after-1', 'after-2']);
    expect(stderr).toMatch(/consumed 3 records from ticks\n$/);
    // Committed: the group resumes after them.
    const client = makeClient(runtime.url);
    expect(await client.groups.committed.query({ group: 'tail', topic: 'ticks' })).toEqual([
      { partition: 0, offset: 3 },
    ]);
  }, 60_000);

  it('works on the data dir directly again once the runtime is gone', async () => {
    const dataDir = join(root, 'second');
    const second = await startTestRuntime({ dataDir });
    const url = second.url;
    expect((await cli(['topics', 'create', 'kept', '--url', url])).code).toBe(0);
    await second.close();
    const list = await cli(['topics', 'list', '--data-dir', dataDir]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^kept\s+1\s+0$/m);
    // And the runtime says where it is unreachable.
    const down = await cli(['topics', 'list', '--url', url]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(
      /cannot reach the runtime at http:\/\/127\.0\.0\.1:\d+.*is `streamwright serve` running there\?/,
    );
  });
});

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('a token-protected runtime', { timeout: 120_000 }, () => {
  it('needs the token, from --token or STREAMWRIGHT_TOKEN', async () => {
    const token = 'cli-test-token-0123456789';
    const dataDir = join(root, 'token');
    const locked = await startTestRuntime({ dataDir, token });
    try {
      const url = ['--url', locked.url];
      const refused = await cli(['topics', 'list', ...url]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /requires a token: pass --token <token> or set STREAMWRIGHT_TOKEN/,
      );
      const wrong = await cli(['topics', 'list', ...url, '--token', 'wrong']);
      expect(wrong.code).toBe(1);
      expect((await cli(['topics', 'create', 'secret', ...url, '--token', token])).code).toBe(0);
      const viaEnv = await cli(['topics', 'list', ...url], { env: { STREAMWRIGHT_TOKEN: token } });
      expect(viaEnv.stdout).toMatch(/^secret\s+1\s+0$/m);
      const status = await cli(['app', 'status', ...url], { env: { STREAMWRIGHT_TOKEN: token } });
      expect(status).toMatchObject({ code: 0, stdout: 'Nothing is deployed.\n' });
    } finally {
      await locked.close();
    }
  });
});
