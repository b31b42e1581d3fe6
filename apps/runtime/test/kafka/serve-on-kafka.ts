// Shared by the serve-on-Kafka security tests: `streamwright serve` (the built CLI, a child
// process) started with the given flags must come up on Kafka, answer /healthz with the Kafka
// backend, name the brokers, and exit 0 on SIGTERM.
import { expect } from 'vitest';
import { spawnCli } from '../cli-harness.js';
import { makeDataDir, removeDataDir } from '../harness.js';

/** `serve` on a free port on Kafka at `bootstrapServers`, then `extra` flags. */
export function serveOnKafkaFlags(bootstrapServers: string, ...extra: string[]): string[] {
  return [
    'serve',
    '--port',
    '0',
    '--backend',
    'kafka',
    '--bootstrap-servers',
    bootstrapServers,
    ...extra,
  ];
}

export async function expectServesOnKafka(
  flags: (dataDir: string) => Promise<string[]> | string[],
  bootstrapServers: string,
  env: Record<string, string> = {},
): Promise<void> {
  const dataDir = await makeDataDir();
  const child = spawnCli([...(await flags(dataDir)), '--data-dir', dataDir], { env });
  child.stdin.end();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /listening on (\S+)/.exec(stdout);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`serve exited: ${stderr}`)));
    });
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ backend: 'kafka' });
    expect(stdout).toContain(`Topics on Kafka at ${bootstrapServers}`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await removeDataDir(dataDir);
  }
}
