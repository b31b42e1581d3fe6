// A full state dir (issue 24): a persistent store's commit on a full disk fails with the store,
// its directory and the way out, keeps what it could not write, and writes it once space
// returns. A real full file system: a small tmpfs, mounted here (these machines and CI run as
// root; anything else fails loudly, never skips).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LmdbKeyValueStore } from '../src/state/lmdb-key-value-store.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'sw-state-full-'));
afterAll(() => {
  execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const spec = {
  name: 'profiles',
  keySerde: 'string' as const,
  valueSerde: 'string' as const,
  changelogTopic: 'app-profiles-changelog',
};

describe('a full state dir', () => {
  it('fails the commit naming the store and path, keeps the writes, and commits after space returns', async () => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
    } catch (error) {
      throw new Error(`this test mounts a tmpfs and needs root: ${(error as Error).message}`);
    }
    const path = join(mountPoint, 'app', '0_0', 'lmdb', 'profiles');
    const store = new LmdbKeyValueStore(spec, 0, path);
    const value = 'v'.repeat(2000);
    const ballast = join(mountPoint, 'ballast');
    writeFileSync(ballast, Buffer.alloc(1 << 20));
    let failure: unknown = null;
    let committed = 0;
    for (let batch = 0; batch < 100 && failure === null; batch++) {
      for (let i = 0; i < 100; i++) store.put(`k${batch}-${i}`, value, batch);
      try {
        committed += store.takeChangelogRecords().length;
      } catch (error) {
        failure = error;
      }
    }
    expect(committed).toBeGreaterThan(0);
    expect(failure).toBeInstanceOf(Error);
    const error = failure as Error & { code?: string };
    expect(error.code).toBe('ENOSPC');
    expect(error.message).toMatch(
      new RegExp(
        `persistent store 'profiles' cannot write its lmdb files in ${path}: no space left`,
      ),
    );
    expect(error.message).toMatch(/Free space there, then start the application again/);

    // The batch that failed is still to be written: once space returns, the next commit has it.
    rmSync(ballast);
    const retried = store.takeChangelogRecords();
    expect(retried).toHaveLength(100);
    expect(store.approximateNumEntries()).toBe(committed + 100);
    store.close();
  });
});
