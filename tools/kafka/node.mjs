// One KRaft node (broker and controller in one JVM) as a process that can be started, killed,
// stopped and started again on the same ports and data dir, so its clients see a real outage and
// recovery rather than a new cluster. Stopped by its pid, never by name: also when the process
// that started it exits (an exit hook) or is killed (a detached watchdog outlives it).
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** `java` with a version's classpath and logging config. */
export function javaArgs(lib, logFlag, args) {
  return ['-Xshare:auto', '-cp', `${lib}/*`, logFlag, ...args];
}

/** Formats a node's storage (StorageTool format; static voters, so no --standalone). */
export function formatStorage({ lib, logFlag, dir, propsFile, clusterId, extraArgs }) {
  const formatted = spawnSync(
    'java',
    javaArgs(lib, logFlag, [
      'kafka.tools.StorageTool',
      'format',
      '-t',
      clusterId,
      '-c',
      propsFile,
      ...extraArgs,
    ]),
    { cwd: dir, encoding: 'utf8' },
  );
  if (formatted.status !== 0) {
    throw new Error(
      `formatting the Kafka storage in ${dir} failed: ${formatted.stdout}${formatted.stderr}`,
    );
  }
}

// The log file's size now: a start waits for "Kafka Server started" after this offset only
// (the log is appended to across restarts).
function sizeOf(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function readFrom(file, offset) {
  if (!existsSync(file)) return '';
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    if (size <= offset) return '';
    const buf = Buffer.alloc(size - offset);
    readSync(fd, buf, 0, buf.length, offset);
    return buf.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * A node's process life. `describe` names it in errors. `removeDir`: the node's dir is a temp dir
 * of ours, removed on the final stop. `exitCleanupDir`: a temp dir removed when this process exits
 * (or dies: the watchdog) before that final stop (the node's own, or its cluster's).
 */
export class KafkaNodeProcess {
  constructor({
    lib,
    logFlag,
    dir,
    propsFile,
    logFile,
    heap,
    startTimeoutMs,
    removeDir,
    exitCleanupDir,
    describe,
  }) {
    Object.assign(this, {
      lib,
      logFlag,
      dir,
      propsFile,
      logFile,
      heap,
      startTimeoutMs,
      removeDir,
      exitCleanupDir,
      describe,
    });
    this.pidFile = join(dir, 'broker.pid');
    this.proc = undefined; // { child, pid, exited, exitedPromise, stderr }
    this.lastPid = undefined;
    this.removed = false;
    this.watchdog = undefined;
    this.onExit = () => this.#exitHook();
  }

  get running() {
    return this.proc !== undefined && !this.proc.exited;
  }

  get pid() {
    return this.proc?.pid ?? this.lastPid;
  }

  /** Starts the JVM (when it is not running) and resolves once it serves clients. */
  async start() {
    if (this.removed)
      throw new Error(
        `${this.describe} was stopped and its dir ${this.dir} removed: it cannot start again`,
      );
    if (this.running) return;
    this.#guard();
    const from = sizeOf(this.logFile);
    const heap = this.heap;
    const child = spawn(
      'java',
      javaArgs(this.lib, this.logFlag, [
        `-Xms${heap}`,
        `-Xmx${heap}`,
        '-XX:+UseG1GC',
        'kafka.Kafka',
        this.propsFile,
      ]),
      { cwd: this.dir, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const proc = { child, pid: child.pid, exited: false, stderr: '' };
    child.stderr.on('data', (d) => (proc.stderr = (proc.stderr + d).slice(-4000)));
    proc.exitedPromise = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        proc.exited = true;
        // Never leave a dead pid for the watchdog to signal (pids are reused).
        if (this.proc === proc) writeFileSync(this.pidFile, '');
        resolve({ code, signal });
      }),
    );
    this.proc = proc;
    this.lastPid = proc.pid;
    writeFileSync(this.pidFile, String(proc.pid));

    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      const log = readFrom(this.logFile, from);
      if (/Kafka Server started/.test(log)) return;
      if (proc.exited || Date.now() > deadline) {
        const tail = log.split('\n').slice(-30).join('\n');
        await this.#end('SIGKILL');
        throw new Error(
          proc.exited
            ? `${this.describe} exited during start-up:\n${proc.stderr}\n${tail}`
            : `${this.describe} did not start within ${this.startTimeoutMs} ms (log ${this.logFile}):\n${tail}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** SIGKILL (a crash: no clean shutdown); waits for the exit. The dir stays for a restart. */
  async kill() {
    await this.#end('SIGKILL');
  }

  /**
   * SIGTERM (a clean shutdown; SIGKILL after 30 s) and waits for the exit. With `keepDir` the
   * node can start again on its data; without it the node is done (its temp dir removed).
   */
  async stop({ keepDir = false } = {}) {
    await this.#end('SIGTERM');
    if (!keepDir) this.#release();
  }

  /** Stops (keeping the dir) when running, then starts again on the same ports and data. */
  async restart() {
    await this.stop({ keepDir: true });
    await this.start();
  }

  async #end(signal) {
    const proc = this.proc;
    if (!proc || proc.exited) return;
    process.kill(proc.pid, signal);
    const timer =
      signal === 'SIGKILL'
        ? undefined
        : setTimeout(() => !proc.exited && process.kill(proc.pid, 'SIGKILL'), 30_000);
    await proc.exitedPromise;
    clearTimeout(timer);
  }

  // The exit hook and the watchdog live from the first start to the final stop, across restarts.
  #guard() {
    if (this.watchdog) return;
    process.once('exit', this.onExit);
    this.watchdog = spawn(
      process.execPath,
      [join(here, 'watchdog.mjs'), String(process.pid), this.pidFile, this.exitCleanupDir ?? ''],
      { detached: true, stdio: 'ignore' },
    );
    this.watchdog.unref();
  }

  #release() {
    if (this.removed) return;
    process.removeListener('exit', this.onExit);
    if (this.watchdog) {
      try {
        process.kill(this.watchdog.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      this.watchdog = undefined;
    }
    if (this.removeDir) {
      rmSync(this.dir, { recursive: true, force: true });
      this.removed = true;
    }
  }

  // This process is exiting without having stopped the node: kill it now, synchronously.
  #exitHook() {
    if (this.running) {
      try {
        process.kill(this.proc.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    try {
      if (this.watchdog) process.kill(this.watchdog.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    if (this.exitCleanupDir) rmSync(this.exitCleanupDir, { recursive: true, force: true });
  }
}
