// Runs the `streamwright` CLI as users do: the built bin in a child process, with stdin, env and
// exit code. The bin runs dist/, so the runtime and its dependencies are built first when dist
// is missing or older than the sources.
import { exec, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(exec);
export const runtimeDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(runtimeDir, '..', '..');
export const bin = join(runtimeDir, 'bin', 'streamwright.mjs');

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

// The packages the bin runs, each after the ones it depends on.
const packages = [
  join(repoRoot, 'packages', 'log'),
  join(repoRoot, 'packages', 'kafka-protocol'),
  join(repoRoot, 'packages', 'kafka-listener'),
  join(repoRoot, 'packages', 'topology-model'),
  join(repoRoot, 'packages', 'engine'),
  runtimeDir,
];

function needsBuild(): boolean {
  return packages.some((dir) => {
    const built = newest(join(dir, 'dist'));
    return built === 0 || newest(join(dir, 'src')) > built;
  });
}

/**
 * Runs a package's `build` script the way a package manager does (a shell, with the package's
 * and the repo's node_modules/.bin and this node on PATH), but without one: plain `npx vitest`
 * has no pnpm on PATH.
 */
async function buildPackage(dir: string): Promise<void> {
  const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    scripts: { build: string };
  };
  const path = [
    join(dir, 'node_modules', '.bin'),
    join(repoRoot, 'node_modules', '.bin'),
    dirname(process.execPath),
    process.env.PATH ?? '',
  ].join(delimiter);
  await run(scripts.build, { cwd: dir, env: { ...process.env, PATH: path }, timeout: 240_000 });
}

let building: Promise<void> | null = null;

export function ensureBuilt(): Promise<void> {
  building ??= (async () => {
    if (!needsBuild()) return;
    for (const dir of packages) await buildPackage(dir);
  })();
  return building;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  /** Written to stdin, which is then closed. */
  input?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

/** Runs the CLI to completion. STREAMWRIGHT_URL / _TOKEN are cleared unless given in `env`. */
export function cli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`streamwright ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

export function spawnCli(args: string[], options: CliOptions = {}): ChildProcessWithoutNullStreams {
  const env: Record<string, string | undefined> = {
    ...process.env,
    STREAMWRIGHT_URL: undefined,
    STREAMWRIGHT_TOKEN: undefined,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? runtimeDir,
    env: env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Parses JSON lines (the consume command's output). */
export function jsonLines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
