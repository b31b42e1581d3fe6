import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeploymentStore } from './deployment-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'streamwright-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DeploymentStore', () => {
  it('has nothing saved in a new data dir', async () => {
    expect(await new DeploymentStore(dir).load()).toBeNull();
  });

  it('keeps the topology and the running flag across instances', async () => {
    const saved = { topology: { schemaVersion: 1, nodes: [] }, running: true, deployedAt: 123 };
    await new DeploymentStore(dir).save(saved);
    expect(await new DeploymentStore(dir).load()).toEqual(saved);
    await new DeploymentStore(dir).save({ ...saved, running: false });
    expect((await new DeploymentStore(dir).load())?.running).toBe(false);
    // Written by rename: no temporary file is left behind.
    expect(await readdir(dir)).toEqual(['app.json']);
  });

  it('refuses an unreadable file and can move it aside', async () => {
    const store = new DeploymentStore(dir);
    await writeFile(store.path, '{"version": 1, "running": "yes"');
    await expect(store.load()).rejects.toThrow();
    const aside = await store.quarantine();
    expect(aside).toMatch(/app\.json\.unreadable-\d+$/);
    expect(await store.load()).toBeNull();
  });
});
