// A real schema registry for the tests: Apicurio Registry 2.6 with in-memory storage, its runnable
// distribution fetched from Maven Central (pom.xml), started as one JVM on a free loopback port.
// Its Confluent-compatible API, /apis/ccompat/v7, is what the registry serdes talk to.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const APICURIO_VERSION = '2.6.13.Final';
const home = join(here, 'target', `apicurio-${APICURIO_VERSION}`);
const runner = join(home, `apicurio-registry-app-${APICURIO_VERSION}-runner.jar`);

/** Unpacks the registry's distribution into target/ with Maven when missing (~/.m2 caches it). */
export function ensureRegistry({ verbose = false } = {}) {
  if (existsSync(runner)) return runner;
  // flock: concurrent test workers never run two Maven builds over the same target/ folder.
  const result = spawnSync(
    'flock',
    [join(tmpdir(), 'streamwright-schema-registry.lock'), 'mvn', '-B', '-q', 'dependency:unpack'],
    { cwd: here, stdio: verbose ? 'inherit' : 'pipe', encoding: 'utf8' },
  );
  if (result.status !== 0 || !existsSync(runner)) {
    throw new Error(
      `fetching Apicurio Registry failed (mvn dependency:unpack in ${here}):\n${result.stdout ?? ''}${result.stderr ?? ''}`,
    );
  }
  return runner;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Stops the registry when the process that started it dies without stopping it (no orphan JVMs).
const WATCHDOG = `
const [starter, child] = process.argv.slice(1).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
setInterval(() => {
  if (!alive(child)) process.exit(0);
  if (!alive(starter)) { try { process.kill(child, 'SIGKILL'); } catch {} process.exit(0); }
}, 1000);
`;

/**
 * Starts the registry; resolves once its Confluent-compatible API answers, with
 * `{ url, baseUrl, pid, logFile, stop() }` (`url` is the ccompat API's base).
 */
export async function startSchemaRegistry({ heap = '384m', startTimeoutMs = 120_000 } = {}) {
  ensureRegistry();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'schema-registry-'));
  const logFile = join(dir, 'registry.log');
  const out = openSync(logFile, 'a');
  const child = spawn(
    'java',
    [
      `-Xms${heap}`,
      `-Xmx${heap}`,
      '-XX:TieredStopAtLevel=1',
      `-Dquarkus.http.port=${port}`,
      '-Dquarkus.http.host=127.0.0.1',
      `-Djava.io.tmpdir=${dir}`,
      '-jar',
      runner,
    ],
    { cwd: dir, stdio: ['ignore', out, out] },
  );
  const watchdog = spawn(
    process.execPath,
    ['-e', WATCHDOG, String(process.pid), String(child.pid)],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  watchdog.unref();
  let exited = null;
  const exit = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve((exited = signal ?? code))),
  );
  const onExit = () => child.kill('SIGKILL');
  process.on('exit', onExit);
  const baseUrl = `http://127.0.0.1:${port}`;
  const url = `${baseUrl}/apis/ccompat/v7`;
  const stop = async () => {
    process.off('exit', onExit);
    if (exited === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited !== null) {
      const log = readFileSync(logFile, 'utf8').slice(-3000);
      await stop();
      throw new Error(`Apicurio Registry exited (${exited}) before it answered:\n${log}`);
    }
    try {
      const response = await fetch(`${url}/subjects`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const log = readFileSync(logFile, 'utf8').slice(-3000);
      await stop();
      throw new Error(`Apicurio Registry did not answer within ${startTimeoutMs} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, baseUrl, pid: child.pid, logFile, stop };
}
