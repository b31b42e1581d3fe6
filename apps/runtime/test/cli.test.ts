// The `streamwright` CLI as users run it: the built bin in a child process.
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDataDir, removeDataDir } from './harness.js';
import { ordersPipeline } from './topologies.js';

const run = promisify(execFile);
const runtimeDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(runtimeDir, '..', '..');
const bin = join(runtimeDir, 'bin', 'streamwright.mjs');

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** The bin runs dist/: build the runtime and its dependencies when dist is missing or stale. */
function needsBuild(): boolean {
  const packages = [
    runtimeDir,
    join(repoRoot, 'packages', 'engine'),
    join(repoRoot, 'packages', 'topology-model'),
  ];
  return packages.some((dir) => {
    const built = newest(join(dir, 'dist'));
    return built === 0 || newest(join(dir, 'src')) > built;
  });
}

let dataDir: string;

beforeAll(async () => {
  if (needsBuild()) {
    await run('pnpm', ['--filter', '@streamwright/runtime...', 'build'], {
      cwd: repoRoot,
      timeout: 240_000,
    });
  }
  dataDir = await makeDataDir();
}, 300_000);

afterAll(async () => {
  await removeDataDir(dataDir);
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: dataDir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('streamwright CLI', () => {
  it('has --help with examples on every command', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/serve[\s\S]*validate[\s\S]*describe/);
    for (const command of ['serve', 'validate', 'describe']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Examples:/);
      expect(help.stdout).toContain(`streamwright ${command}`);
    }
  });

  it('validate: "valid" and exit 0, or every error with its path and node and exit 1', async () => {
    const good = join(dataDir, 'good.json');
    await writeFile(good, JSON.stringify(ordersPipeline()));
    expect(await cli(['validate', good])).toMatchObject({ code: 0, stdout: 'valid\n' });

    const broken = ordersPipeline();
    broken.nodes = [
      { id: 'orders', kind: 'source', config: { topic: 'orders' } },
      { id: 'large', kind: 'filter', config: { expression: 'value.amount >' } },
      { id: 'mystery', kind: 'teleport', config: {} },
      { id: 'out', kind: 'sink', config: { topic: 'large-orders' } },
    ];
    broken.edges = [{ from: 'orders', to: 'large' }];
    const bad = join(dataDir, 'bad.json');
    await writeFile(bad, JSON.stringify(broken));
    const result = await cli(['validate', bad]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/invalid, \d+ errors/);
    expect(result.stderr).toMatch(/nodes\[1\]\.config\.expression, node large, at 1:\d+: /);
    expect(result.stderr).toMatch(/nodes\[2\]\.kind, node mystery: /);

    const missing = await cli(['validate', join(dataDir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read/);
  });

  it("describe prints Kafka Streams' describe() text", async () => {
    const file = join(dataDir, 'pipeline.json');
    await writeFile(file, JSON.stringify(ordersPipeline()));
    const result = await cli(['describe', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Topologies:\n {3}Sub-topology: 0\n {4}Source: KSTREAM-SOURCE-0000000000 \(topics: \[orders\]\)/,
    );
  });

  it('serve prints its URL, serves, and exits 0 after a graceful close on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--port', '0', '--data-dir', join(dataDir, 'serve')],
      {
        cwd: dataDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no URL printed; stderr: ${stderr}`)),
          20_000,
        );
        child.stdout.on('data', () => {
          const match = /Streamwright runtime listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(
            stdout,
          );
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.on('exit', () => reject(new Error(`exited early; stderr: ${stderr}`)));
      });
      const deployed = await fetch(`${url}/trpc/app.deploy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ topology: ordersPipeline() }),
      });
      expect(deployed.status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      // Structured JSON logs on stderr, ending with the clean stop.
      const logs = stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { msg: string });
      expect(logs.map((l) => l.msg)).toContain('shutting down');
      expect(logs.at(-1)?.msg).toBe('stopped cleanly');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('refuses to serve on a non-loopback address without a token', async () => {
    const result = await cli([
      'serve',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data-dir',
      join(dataDir, 'open'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without a token/);
  });
});
