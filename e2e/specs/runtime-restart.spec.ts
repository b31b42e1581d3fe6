// The runtime stopped under an open designer: the page says it is offline, an action says the
// runtime is not reachable, nothing on the canvas is lost, and when the runtime is back the live
// view resumes by itself (no reload). This spec runs a runtime of its own (the shared ones must
// stay up for the other specs).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '../support/fixtures.js';
import { freePort } from '../support/run-settings.js';

const cli = fileURLToPath(new URL('../../apps/runtime/bin/streamwright.mjs', import.meta.url));

function serve(port: number, dataDir: string): ChildProcess {
  const log = openSync(join(dataDir, 'runtime.log'), 'a');
  return spawn(
    process.execPath,
    [cli, 'serve', '--port', String(port), '--data-dir', dataDir, '--example'],
    { stdio: ['ignore', 'ignore', log] },
  );
}

async function healthy(url: string): Promise<void> {
  await expect
    .poll(async () => (await fetch(`${url}/healthz`).catch(() => null))?.ok ?? false, {
      timeout: 60_000,
    })
    .toBe(true);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

test('the runtime stopped and restarted under the designer', async ({
  page,
  designer,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'streamwright-e2e-restart-'));
  let runtime = serve(port, dataDir);
  try {
    await healthy(url);
    await designer.open(url);
    await expect(designer.state).toHaveText('RUNNING');
    const generated = designer.count('generator');
    await expect
      .poll(async () => Number(await generated.getAttribute('data-total')))
      .toBeGreaterThan(0);

    // an edit that is not deployed or saved anywhere
    await designer.dropNode('peek', { x: 300, y: 520 }, 'peek1');

    await stop(runtime);
    await expect(designer.state).toHaveText('RUNTIME OFFLINE');
    await expect(designer.state).toHaveAttribute('data-connection', 'closed');
    await expect(designer.state).toHaveClass(/sw-badge--offline/);
    await page.getByTestId('deploy').click();
    await expect(designer.notice).toContainText(`Deploy failed: the runtime at ${url}`);
    await expect(designer.notice).toContainText('is not reachable');
    await page.screenshot({ path: test.info().outputPath('runtime-offline.png') });
    await expect(designer.node('peek1')).toBeVisible();
    // the last numbers stay readable but are marked as not live
    await expect(generated).toHaveAttribute('data-live', 'stale');
    await expect(generated).toHaveClass(/is-stale/);
    await expect(generated.locator('.sw-node__rate')).toHaveText('stale');
    await expect(generated.getByTestId('node-busy')).toHaveCount(0);
    await expect(page.getByTestId('counters-stale')).toBeVisible();
    await expect(designer.count('peek1')).toHaveText('not deployed');

    const before = Number(await generated.getAttribute('data-total'));
    runtime = serve(port, dataDir);
    await healthy(url);
    // the page subscribes again: the badge and the counters move without a reload
    await expect(designer.state).toHaveText('RUNNING', { timeout: 30_000 });
    // (a new process counts from 0 again, so "moved" is what says the view is live)
    await expect
      .poll(
        async () => {
          const total = Number(await generated.getAttribute('data-total'));
          return total > 0 && total !== before;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect(generated).toHaveAttribute('data-live', 'live');
    await expect(page.getByTestId('counters-stale')).toHaveCount(0);
    await expect(designer.node('peek1')).toBeVisible();
  } finally {
    await page.goto('about:blank'); // no more polling of a runtime about to go away
    await stop(runtime);
    rmSync(dataDir, { recursive: true, force: true });
    // the browser logs each refused request while the runtime is down: expected here, and only
    // those are forgiven
    const refused = (e: string) => e.includes('net::ERR_CONNECTION_REFUSED');
    const others = consoleErrors.filter((e) => !refused(e));
    consoleErrors.splice(0, consoleErrors.length, ...others);
  }
});
