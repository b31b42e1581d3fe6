// The `streamwright` CLI as users run it: the built bin in a child process.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, cli as runCli, ensureBuilt, spawnCli } from './cli-harness.js';
import { makeDataDir, removeDataDir, startTestRuntime } from './harness.js';
import { ordersPipeline } from './topologies.js';

let dataDir: string;

beforeAll(async () => {
  await ensureBuilt();
  dataDir = await makeDataDir();
}, 300_000);

afterAll(async () => {
  await removeDataDir(dataDir);
});

const cli = (args: string[]) => runCli(args, { cwd: dataDir });

// Each test spawns CLI processes one after another: slow on a loaded machine.
describe('streamwright CLI', { timeout: 120_000 }, () => {
  it('has --help with examples on every command', async () => {
    const top = await cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/serve[\s\S]*validate[\s\S]*describe/);
    for (const command of [
      'serve',
      'validate',
      'describe',
      'topics',
      'topics create',
      'topics list',
      'topics describe',
      'topics delete',
      'produce',
      'consume',
      'app',
      'app deploy',
      'app status',
      'app lag',
      'app reset',
    ]) {
      const help = await cli([...command.split(' '), '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Examples:/);
      expect(help.stdout).toContain(`streamwright ${command}`);
    }
  });

  it('prints its help examples as they are typed', async () => {
    // an example's `\n` was once printed as a line break, splitting the command in two
    const drive = await cli(['drive', '--help']);
    expect(drive.stdout).toContain(`$ printf '%s\\n' '{"topic":"words"`);
    const consume = await cli(['consume', '--help']);
    expect(consume.stdout).toMatch(
      /--from-beginning\s+start at the earliest offset instead of the/,
    );
    expect(consume.stdout).not.toMatch(/\(default: [^)]*\)\s*\(default:/);
  });

  it('lists every command in the top-level help', async () => {
    const top = await cli(['--help']);
    for (const command of [
      'serve',
      'validate',
      'describe',
      'topics',
      'produce',
      'consume',
      'app',
    ]) {
      expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
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
    // one line, as every failing command writes it
    expect(missing.stderr).toMatch(/^error: cannot read .*nope\.json: ENOENT[^\n]*\n$/);
    const notDescribed = await cli(['describe', join(dataDir, 'nope.json')]);
    expect(notDescribed.code).toBe(1);
    expect(notDescribed.stderr).toMatch(/^error: cannot read .*nope\.json/);
  });

  it('validate warns about application-config keys that are not honoured, and refuses bad values', async () => {
    const withConfig = (config: Record<string, unknown>) => ({
      ...ordersPipeline(),
      application: { id: 'orders-app', config },
    });
    const tuned = withConfig({
      'consumer.session.timeout.ms': 6000,
      'producer.linger.ms': 5,
      'consumer.no.such.setting': 1,
    });
    const file = join(dataDir, 'tuned.json');
    await writeFile(file, JSON.stringify(tuned));
    const plain = await cli(['validate', file]);
    expect(plain).toMatchObject({ code: 0, stdout: 'valid\n' });
    expect(plain.stderr).toBe(
      `warning: application.config["consumer.no.such.setting"]: unknown_config: 'no.such.setting' is not a consumer config: Kafka's main consumer logs "The configuration 'no.such.setting' was supplied but isn't a known config." and ignores it; so does Streamwright\n`,
    );
    // Per backend: what it does not implement too (the Kafka backend applies the group timings).
    const kafka = await cli(['validate', file, '--backend', 'kafka']);
    expect(kafka.code).toBe(0);
    expect(kafka.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('consumer.no.such.setting'),
      'warning: application.config["producer.linger.ms"]: unsupported_config: linger.ms of the producer is not implemented by the kafka backend: producer.linger.ms is ignored',
    ]);
    const embedded = await cli(['validate', file, '--backend', 'embedded']);
    expect(embedded.stderr).toMatch(
      /consumer\.session\.timeout\.ms"\]: unsupported_config: session\.timeout\.ms of the main consumer is not implemented by the embedded backend/,
    );

    await writeFile(file, JSON.stringify(withConfig({ 'producer.linger.ms': 'soon' })));
    const bad = await cli(['validate', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      'application.config["producer.linger.ms"]: invalid_config: Invalid value soon for configuration producer.linger.ms: Not a number of type LONG',
    );
  });

  it('validate judges co-partitioning with the partition counts of the topics that exist', async () => {
    // orders ⋈ users, both declared with 2 partitions; on the data dir orders already has 3
    const joined = {
      schemaVersion: 1,
      application: { id: 'join-app', config: {} },
      topics: [
        { name: 'orders', partitions: 2 },
        { name: 'users', partitions: 2 },
        { name: 'enriched', partitions: 2 },
      ],
      nodes: [
        { id: 'orders', kind: 'source', config: { topic: 'orders' } },
        { id: 'users', kind: 'table', config: { topic: 'users' } },
        { id: 'join', kind: 'streamTableJoin', config: { joiner: 'left' } },
        { id: 'out', kind: 'sink', config: { topic: 'enriched' } },
      ],
      edges: [
        { from: 'orders', to: 'join', toPort: 'left' },
        { from: 'users', to: 'join', toPort: 'right' },
        { from: 'join', to: 'out' },
      ],
    };
    const file = join(dataDir, 'joined.json');
    await writeFile(file, JSON.stringify(joined));
    expect(await cli(['validate', file])).toMatchObject({ code: 0, stdout: 'valid\n' });
    const topicsDir = join(dataDir, 'existing');
    const created = await cli(['topics', 'create', 'orders', '-p', '3', '--data-dir', topicsDir]);
    expect(created.code).toBe(0);
    const judged = await cli(['validate', file, '--data-dir', topicsDir]);
    expect(judged.code).toBe(1);
    expect(judged.stderr).toMatch(/topics_not_copartitioned/);
    expect(judged.stderr).toMatch(/orders/);
    expect(judged.stderr).toMatch(/3/);
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
      // The URL for machines reading the JSON logs too.
      expect(logs).toContainEqual(
        expect.objectContaining({ msg: 'listening', url, host: '127.0.0.1', token: 'none' }),
      );
      expect(logs.at(-1)?.msg).toBe('stopped cleanly');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('serve --log-format pretty writes readable log lines; a bad --log-format is a clear error', async () => {
    const child = spawnCli(
      ['serve', '--port', '0', '--log-format', 'pretty', '--data-dir', join(dataDir, 'pretty')],
      { cwd: dataDir },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL; stderr: ${stderr}`)), 20_000);
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toMatch(/^\d\d:\d\d:\d\d INFO {2}shutting down signal=SIGTERM$/m);
      expect(stderr.trim().split('\n').at(-1)).toMatch(/^\d\d:\d\d:\d\d INFO {2}stopped cleanly$/);
      expect(stderr).not.toContain('{"level"');
      // Readable logs are for a human, who has the URL on stdout: no second `listening` line.
      expect(stderr).not.toMatch(/listening/);
      expect(stdout.match(/listening on/g)).toHaveLength(1);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const bad = await cli([
      'serve',
      '--port',
      '0',
      '--log-format',
      'yaml',
      '--data-dir',
      join(dataDir, 'bad'),
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: --log-format: expected auto, json or pretty, got "yaml"');
  }, 60_000);

  it('serve on a port in use says so and how to choose another', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await cli([
        'serve',
        '--port',
        String(port),
        '--data-dir',
        join(dataDir, 'taken'),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `error: port ${port} on 127.0.0.1 is already in use (another runtime or program): choose another with --port, or --port 0 for any free port`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('refuses to serve a data dir another runtime holds', async () => {
    const held = join(dataDir, 'held');
    const first = await startTestRuntime({ dataDir: held });
    try {
      const second = await cli(['serve', '--port', '0', '--data-dir', held]);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(
        /the data dir .*held is in use by a running runtime \(pid \d+, http:\/\/127\.0\.0\.1:\d+\)/,
      );
    } finally {
      await first.close();
    }
  });

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
