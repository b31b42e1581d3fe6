// Backlog and live numbers (issue 23): the application dashboard charts records in and out,
// lag, end-to-end latency and restore progress over time, and a node's rate is the last 5 s —
// back to 0/s within seconds after the input stops, not a 30-s average decaying.
import { test, expect } from '../support/fixtures.js';
import { docScreenshot } from '../support/doc-screenshots.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'e2e-dashboard', config: { 'commit.interval.ms': 100 } },
  topics: [
    { name: 'e2e-dash-in', partitions: 2, config: {} },
    { name: 'e2e-dash-out', partitions: 1, config: {} },
  ],
  nodes: [
    { id: 'in', kind: 'source', config: { topic: 'e2e-dash-in', valueSerde: 'string' } },
    { id: 'out', kind: 'sink', config: { topic: 'e2e-dash-out', valueSerde: 'string' } },
  ],
  edges: [{ from: 'in', to: 'out' }],
  layout: { nodes: { in: { x: 40, y: 40 }, out: { x: 340, y: 40 } } },
};

test('the dashboard charts the running app; a rate falls to 0 soon after the input stops', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.importJson('dashboard.json', JSON.stringify(topology));
  await designer.deploy();
  await designer.bottomTab('dashboard');
  const dashboard = page.getByTestId('dashboard');
  await expect(dashboard).toBeVisible();
  for (const chart of ['throughput', 'lag', 'latency', 'restore'])
    await expect(page.getByTestId(`dashboard-${chart}`).locator('canvas')).toHaveCount(1);

  // 200 records over about 2 s
  const records = Array.from({ length: 20 }, (_, i) => ({
    key: Buffer.from(`k${i}`).toString('base64'),
    value: Buffer.from(`v${i}`).toString('base64'),
  }));
  for (let burst = 0; burst < 10; burst++) {
    const produced = await page.request.post('/trpc/topics.produceBatch', {
      data: { topic: 'e2e-dash-in', records },
    });
    expect(produced.ok(), await produced.text()).toBe(true);
    await page.waitForTimeout(200);
  }
  await designer.expectCount('out', 200);
  await expect(page.getByTestId('dashboard-throughput-latest')).toContainText('in ');
  await expect(page.getByTestId('dashboard-restore-latest')).toHaveText('done');
  await expect(page.getByTestId('dashboard-lag-latest')).toHaveText('0');
  await expect(page.getByTestId('dashboard-latency-latest')).toContainText('ms');
  await expect
    .poll(async () => Number(await dashboard.getAttribute('data-samples')))
    .toBeGreaterThanOrEqual(3);
  await page.screenshot({ path: test.info().outputPath('dashboard.png') });
  await docScreenshot(page, 'designer-dashboard.png');

  // nothing more arrives: within the 5-s window (+ a metrics tick or two) the rate is 0
  await expect(page.getByTestId('rate-in')).toHaveText('0/s', { timeout: 12_000 });
  await expect(page.getByTestId('dashboard-throughput-latest')).toHaveText('in 0/s · out 0/s', {
    timeout: 12_000,
  });
});
