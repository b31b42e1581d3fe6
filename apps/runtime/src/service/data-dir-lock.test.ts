import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuntimeError } from '../errors.js';
import { LOCK_FILE, lockDataDir, lockHolder } from './data-dir-lock.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'streamwright-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (so the pid is free, or reused much later). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('the data dir lock', () => {
  it('is taken, named, refused to a second owner while held, and released', async () => {
    const lock = await lockDataDir(dir, 'runtime');
    await lock.setUrl('http://127.0.0.1:4300');
    expect(await lockHolder(dir)).toMatchObject({
      pid: process.pid,
      owner: 'runtime',
      url: 'http://127.0.0.1:4300',
    });
    const refused = await lockDataDir(dir, 'topics list').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RuntimeError);
    expect((refused as RuntimeError).code).toBe('DATA_DIR_LOCKED');
    expect((refused as RuntimeError).message).toBe(
      `the data dir ${dir} is in use by a running runtime (pid ${process.pid}, http://127.0.0.1:4300). ` +
        'Work through it instead: --url http://127.0.0.1:4300',
    );
    await lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    expect(await lockHolder(dir)).toBeNull();
    const again = await lockDataDir(dir, 'produce orders');
    await again.release();
  });

  it('names another command that holds it', async () => {
    const lock = await lockDataDir(dir, 'produce orders');
    const refused = (await lockDataDir(dir, 'runtime').catch((e: unknown) => e)) as Error;
    expect(refused.message).toMatch(
      /in use by another streamwright command \(produce orders, pid \d+\)\. Wait for it to finish\./,
    );
    await lock.release();
  });

  it('takes over a lock whose process is gone, and one left half-written', async () => {
    const stale = {
      pid: await deadPid(),
      hostname: hostname(),
      owner: 'runtime',
      url: null,
      since: 1,
    };
    await writeFile(join(dir, LOCK_FILE), JSON.stringify(stale));
    expect(await lockHolder(dir)).toBeNull();
    const lock = await lockDataDir(dir, 'runtime');
    expect(JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    await lock.release();

    await writeFile(join(dir, LOCK_FILE), '');
    const second = await lockDataDir(dir, 'runtime');
    await second.release();
  });

  it('does not remove a lock another owner took after a takeover', async () => {
    const lock = await lockDataDir(dir, 'runtime');
    // Someone else now owns the file (e.g. it was taken over after this process was presumed dead).
    const other = {
      pid: process.pid,
      hostname: hostname(),
      owner: 'runtime',
      url: null,
      since: 42,
    };
    await writeFile(join(dir, LOCK_FILE), JSON.stringify(other));
    await lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });
});
