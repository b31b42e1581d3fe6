// What `npm start` shows: the runtime started with --example opens on the example topology,
// already deployed and visibly processing generated records.
//
// With SW_WRITE_README_SCREENSHOT=1 (`pnpm --filter @streamwright/e2e screenshot`) this spec
// also writes docs/screenshot.png for the README.
import { fileURLToPath } from 'node:url';
import { test, expect } from '../support/fixtures.js';
import { exampleUrl } from '../support/run-settings.js';

test('the example topology opens deployed and processing', async ({ page, designer }) => {
  await designer.open(exampleUrl());
  await expect(designer.state).toHaveText('RUNNING');
  const nodes = page.locator('.react-flow__node');
  await expect(nodes.first()).toBeVisible();
  expect(await nodes.count()).toBeGreaterThanOrEqual(3);

  // every counter on the canvas moves: records flow from the generator to the sinks
  const counters = page.locator('[data-testid^="counter-"]');
  await expect(counters.first()).toBeVisible();
  const totals = async () =>
    counters.evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-total'))));
  const first = await totals();
  await expect
    .poll(async () => (await totals()).reduce((a, b) => a + b, 0), { timeout: 20_000 })
    .toBeGreaterThan(first.reduce((a, b) => a + b, 0));

  // each node shows its busy share (sampled processing time), a NiFi-coloured bar
  const busy = page.getByTestId('node-busy');
  await expect(busy.first()).toBeVisible();
  await expect(busy.first()).toHaveText(/^busy \d+%$/);

  // edges show the flow: animated and thicker while records move along them
  await expect(page.locator('.react-flow__edge.animated').first()).toBeVisible();

  // sample the recent records into and out of the filter (capped, refreshed every second)
  await page.locator('[data-kind="filter"] .sw-node__id').first().click();
  await page.getByTestId('sample-toggle').check();
  await expect(page.getByTestId('sample-inputs').getByTestId('sample-row').first()).toBeVisible();
  expect(await page.getByTestId('sample-row').count()).toBeLessThanOrEqual(20);
  await page.screenshot({ path: test.info().outputPath('sample.png') });
  await page.getByTestId('sample-toggle').uncheck();
  // its rate over time (uPlot), one point per metrics tick
  await expect(page.getByTestId('rate-sparkline').locator('canvas')).toBeVisible();
  await expect
    .poll(async () => Number(await page.getByTestId('rate-sparkline').getAttribute('data-points')))
    .toBeGreaterThanOrEqual(2);

  await designer.bottomTab('tasks');
  await expect(page.getByTestId('tasks-table')).toBeVisible();
  // show a node's settings in the picture, and let a few more metric ticks pass so the rates
  // in it are steady ones
  await page.locator('[data-kind="mapValues"] .sw-node__id').first().click();
  await expect(page.getByTestId('node-inspector')).toBeVisible();
  await page.waitForTimeout(3000);
  await page.screenshot({ path: test.info().outputPath('example.png') });
  if (process.env.SW_WRITE_README_SCREENSHOT) {
    await page.screenshot({
      path: fileURLToPath(new URL('../../docs/screenshot.png', import.meta.url)),
    });
  }
});
