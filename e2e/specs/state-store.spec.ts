// The state store browser: a deployed count's store read through interactive queries (all, get,
// range) after records were produced from the Topics view.
import { test, expect } from '../support/fixtures.js';

const counting = {
  schemaVersion: 1,
  application: { id: 'state-browser-app', config: { 'commit.interval.ms': 100 } },
  topics: [{ name: 'st-clicks', partitions: 2, config: {} }],
  nodes: [
    { id: 'clicks', kind: 'source', config: { topic: 'st-clicks', valueSerde: 'string' } },
    { id: 'byUser', kind: 'groupByKey', config: {} },
    { id: 'perUser', kind: 'count', config: { store: 'clicks-per-user' } },
  ],
  edges: [
    { from: 'clicks', to: 'byUser' },
    { from: 'byUser', to: 'perUser' },
  ],
  layout: {
    nodes: { clicks: { x: 40, y: 40 }, byUser: { x: 300, y: 40 }, perUser: { x: 560, y: 40 } },
  },
};

test('browse a running count store: all entries, one key, a key range', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('counting.json', JSON.stringify(counting));
  await designer.deploy();

  await topics.open();
  await topics.choose('st-clicks');
  for (const key of ['ann', 'bob', 'ann', 'cid', 'ann', 'bob'])
    await topics.produce({ key, value: 'click' });
  await topics.backToDesigner();
  await designer.expectCount('perUser', 6);

  await designer.bottomTab('state');
  await page.getByTestId('state-refresh').click();
  await expect(page.getByTestId('state-store')).toHaveValue('clicks-per-user');
  await page.getByTestId('state-query').click();
  const rows = page.getByTestId('state-row');
  await expect(rows).toHaveCount(3);
  // ordered by the serialized key bytes, as the store orders them
  await expect(rows.nth(0)).toContainText('ann');
  await expect(rows.nth(0)).toContainText('3');
  await expect(rows.nth(1)).toContainText('bob');
  await expect(rows.nth(2)).toContainText('cid');

  await page.getByTestId('state-mode').selectOption('get');
  await page.getByTestId('state-key').fill('bob');
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('2');

  await page.getByTestId('state-mode').selectOption('range');
  await page.getByTestId('state-key').fill('b');
  await page.getByTestId('state-to').fill('c');
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText('bob');
  await page.screenshot({ path: test.info().outputPath('state-browser.png') });
});
