// `streamwright log check|repair` on a data dir whose log has a damaged, checkpointed batch: the
// runtime's log refuses the partition (naming the repair), check lists it, repair cuts it, and
// the data dir serves again with every record before the damage.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ensureBuilt, jsonLines } from './cli-harness.js';
import { makeDataDir, removeDataDir } from './harness.js';

let root: string;
let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  root = await makeDataDir();
  dir = join(root, 'data');
}, 300_000);

afterAll(async () => {
  await removeDataDir(root);
});

describe('streamwright log', () => {
  it('check finds damage below the recovery point, repair cuts there after --yes', async () => {
    expect((await cli(['topics', 'create', 'orders', '--data-dir', dir])).code).toBe(0);
    const lines = Array.from({ length: 5 }, (_, i) =>
      JSON.stringify({ key: `k${i}`, value: `v${i}` }),
    ).join('\n');
    for (let i = 0; i < 3; i++)
      expect(
        (await cli(['produce', 'orders', '--data-dir', dir], { input: `${lines}\n` })).code,
      ).toBe(0);
    expect(await cli(['log', 'check', '--data-dir', dir])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/no damage/),
    });

    // A byte flipped in the last batch of the partition holding the records.
    const logDir = join(dir, 'log');
    const part = readdirSync(logDir).find(
      (d) =>
        d.startsWith('orders-') &&
        readdirSync(join(logDir, d)).some(
          (f) => f.endsWith('.log') && readFileSync(join(logDir, d, f)).length > 0,
        ),
    )!;
    const file = join(logDir, part, '00000000000000000000.log');
    const data = readFileSync(file);
    data[data.length - 5] = data[data.length - 5]! ^ 0xff;
    writeFileSync(file, data);

    const refused = await cli(['consume', 'orders', '--from-beginning', '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`partition ${part} is damaged and was refused`));
    expect(refused.stderr).toMatch(/streamwright log repair --data-dir/);

    const check = await cli(['log', 'check', '--data-dir', dir]);
    expect(check.code).toBe(1);
    const offset = Number(/--from (\d+)/.exec(check.stdout)?.[1]);
    expect(check.stdout).toContain(`${part}: damaged from offset ${offset}`);

    const noYes = await cli([
      'log',
      'repair',
      '--data-dir',
      dir,
      '--partition',
      part,
      '--from',
      String(offset),
    ]);
    expect(noYes.code).toBe(1);
    expect(noYes.stderr).toMatch(/confirm with --yes/);
    const repaired = await cli([
      'log',
      'repair',
      '--data-dir',
      dir,
      '--partition',
      part,
      '--from',
      String(offset),
      '--yes',
    ]);
    expect(repaired).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(new RegExp(`repaired ${part}: cut at offset ${offset}`)),
    });
    expect((await cli(['log', 'check', '--data-dir', dir])).code).toBe(0);
    const after = await cli(['consume', 'orders', '--from-beginning', '--data-dir', dir]);
    expect(after.code).toBe(0);
    expect(jsonLines(after.stdout).length).toBeGreaterThanOrEqual(offset);
  });
});
