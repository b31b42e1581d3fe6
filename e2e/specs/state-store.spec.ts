// The state store browser: a deployed count's store read through interactive queries (all, get,
// range) after records were produced from the Topics view.
import { test, expect } from '../support/fixtures.js';
import { expectEveryControlLabelled } from '../support/labels.js';

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

  // The query controls are found by their visible labels, as a user (and a screen reader) finds them.
  const panel = page.getByTestId('state-panel');
  // a panel, not a task-state chip (it had the chip's class sw-state and drew as a grey pill)
  await expect(panel).toHaveCSS('border-radius', '0px');
  await expect(panel).toHaveCSS('background-color', 'rgba(0, 0, 0, 0)');
  await panel.getByLabel('Query').selectOption('get');
  await panel.getByLabel('Key', { exact: true }).fill('bob');
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('2');

  await panel.getByLabel('Query').selectOption('range');
  // b..d holds bob and cid: two rows, so the result cannot be mistaken for the get's one row
  await panel.getByLabel('From key').fill('b');
  await panel.getByLabel('To key').fill('d');
  // a visible label, not only an aria-label
  await expect(panel.locator('label', { has: page.getByTestId('state-mode') })).toBeVisible();
  await expect(panel.locator('label', { has: page.getByTestId('state-mode') })).toContainText(
    'Query',
  );
  await expectEveryControlLabelled(panel);
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('bob');
  await expect(rows.nth(1)).toContainText('cid');
  await page.screenshot({ path: test.info().outputPath('state-browser.png') });
});

// Windowed counts of the same clicks: per UTC day and per visit (sessions with a 1 h inactivity
// gap). Every click is stamped with one fixed instant by the source's timestamp extractor, so one
// day's window holds all of them even when the test runs across midnight UTC.
const CLICK_TIME = 1_699_923_600_000; // 2023-11-14 01:00 UTC
const DAY_START = 1_699_920_000_000; // 2023-11-14 00:00 UTC
const windowed = {
  schemaVersion: 1,
  application: { id: 'state-windows-app', config: { 'commit.interval.ms': 100 } },
  topics: [{ name: 'sw-clicks', partitions: 2, config: {} }],
  nodes: [
    {
      id: 'clicks',
      kind: 'source',
      config: {
        topic: 'sw-clicks',
        valueSerde: 'string',
        timestampExtractor: { expression: String(CLICK_TIME) },
      },
    },
    { id: 'byUser', kind: 'groupByKey', config: {} },
    {
      id: 'daily',
      kind: 'windowedBy',
      config: { window: { type: 'tumbling', sizeMs: 86_400_000 } },
    },
    { id: 'perDay', kind: 'windowedCount', config: { store: 'clicks-per-day' } },
    {
      id: 'visit',
      kind: 'windowedBy',
      config: { window: { type: 'session', gapMs: 3_600_000 } },
    },
    { id: 'perVisit', kind: 'windowedCount', config: { store: 'visits' } },
  ],
  edges: [
    { from: 'clicks', to: 'byUser' },
    { from: 'byUser', to: 'daily' },
    { from: 'daily', to: 'perDay' },
    { from: 'byUser', to: 'visit' },
    { from: 'visit', to: 'perVisit' },
  ],
  layout: {
    nodes: {
      clicks: { x: 40, y: 40 },
      byUser: { x: 300, y: 40 },
      daily: { x: 560, y: 0 },
      perDay: { x: 820, y: 0 },
      visit: { x: 560, y: 160 },
      perVisit: { x: 820, y: 160 },
    },
  },
};

test('browse window and session stores: their windows with start and end, one key', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('windowed.json', JSON.stringify(windowed));
  await designer.deploy();

  await topics.open();
  await topics.choose('sw-clicks');
  for (const key of ['ann', 'bob', 'ann', 'cid', 'ann', 'bob'])
    await topics.produce({ key, value: 'click' });
  await topics.backToDesigner();
  await designer.expectCount('perVisit', 6);

  await designer.bottomTab('state');
  await page.getByTestId('state-refresh').click();
  const storeSelect = page.getByTestId('state-store');
  await expect(storeSelect).toContainText('clicks-per-day (window) · 3 windows');
  await expect(storeSelect).toContainText('visits (session) · 3 sessions');
  await storeSelect.selectOption('clicks-per-day');
  await page.getByTestId('state-query').click();
  const rows = page.getByTestId('state-row');
  await expect(rows).toHaveCount(3);
  // One day's window for each user, by start then key bytes: ann 3, bob 2, cid 1.
  const cells = (i: number) => rows.nth(i).locator('td');
  await expect(cells(0).nth(0)).toHaveText('ann');
  await expect(cells(0).nth(3)).toHaveText('3');
  const start = Number(await cells(0).nth(1).locator('time').getAttribute('data-epoch'));
  const end = Number(await cells(0).nth(2).locator('time').getAttribute('data-epoch'));
  expect(start).toBe(DAY_START); // epoch-aligned
  expect(end - start).toBe(86_400_000);
  await expect(cells(1).nth(0)).toHaveText('bob');
  await expect(cells(1).nth(3)).toHaveText('2');
  await expect(cells(2).nth(0)).toHaveText('cid');

  await page.getByTestId('state-mode').selectOption('get');
  await page.getByTestId('state-key').fill('bob');
  await page.getByTestId('state-time-from').fill(String(start));
  await page.getByTestId('state-time-to').fill(String(start));
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(1);
  await expect(cells(0).nth(3)).toHaveText('2');

  await storeSelect.selectOption('visits');
  await page.getByTestId('state-mode').selectOption('range');
  await page.getByTestId('state-key').fill('b');
  await page.getByTestId('state-to').fill('');
  await page.getByTestId('state-time-from').fill('');
  await page.getByTestId('state-time-to').fill('');
  await page.getByTestId('state-query').click();
  // bob's and cid's sessions (keys from "b"), each spanning its clicks.
  await expect(rows).toHaveCount(2);
  const keys = await rows.locator('td:first-child').allInnerTexts();
  expect(keys.sort()).toEqual(['bob', 'cid']);
  const bob = rows.filter({ hasText: 'bob' }).locator('td');
  await expect(bob.nth(3)).toHaveText('2');
  expect(
    Number(await bob.nth(2).locator('time').getAttribute('data-epoch')),
  ).toBeGreaterThanOrEqual(Number(await bob.nth(1).locator('time').getAttribute('data-epoch')));
  await page.screenshot({ path: test.info().outputPath('state-windows.png') });
});

// A versioned table (KIP-889) of prices, each update stamped with its `ts` field: widget 5 at
// t = 1000, 7 at t = 2000, 6 at t = 3000.
const versionedPrices = {
  schemaVersion: 1,
  application: { id: 'st-prices-app', config: { 'commit.interval.ms': 100 } },
  topics: [{ name: 'st-prices', partitions: 1, config: {} }],
  nodes: [
    {
      id: 'prices',
      kind: 'table',
      config: {
        topic: 'st-prices',
        valueSerde: 'json',
        store: 'prices',
        versioned: { historyRetentionMs: 3_600_000 },
        timestampExtractor: { expression: 'value.ts' },
      },
    },
  ],
  edges: [],
  layout: { nodes: { prices: { x: 40, y: 40 } } },
};

test('read a versioned store as of a time: the version valid then and until when', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('prices.json', JSON.stringify(versionedPrices));
  await designer.deploy();

  await topics.open();
  await topics.choose('st-prices');
  for (const [price, ts] of [
    [5, 1000],
    [7, 2000],
    [6, 3000],
  ])
    await topics.produce({ key: 'widget', value: JSON.stringify({ price, ts }) });
  await topics.backToDesigner();
  // All three updates are in the table (and so in its store) before the store is read.
  await designer.expectCount('prices', 3);

  await designer.bottomTab('state');
  const storeSelect = page.getByTestId('state-store');
  const rows = page.getByTestId('state-row');
  const cells = rows.nth(0).locator('td');
  await page.getByTestId('state-refresh').click();
  await expect(storeSelect).toContainText('prices (versioned)');
  await page.getByTestId('state-mode').selectOption('get');
  await page.getByTestId('state-key').fill('widget');
  // The latest version.
  await page.getByTestId('state-query').click();
  await expect(cells.nth(1)).toHaveText('{"price":6,"ts":3000}');
  await expect(cells.nth(2).locator('time')).toHaveAttribute('data-epoch', '3000');

  await page.getByTestId('state-as-of').fill('2500');
  await page.getByTestId('state-query').click();
  await expect(cells.nth(1)).toHaveText('{"price":7,"ts":2000}');
  await expect(cells.nth(2).locator('time')).toHaveAttribute('data-epoch', '2000');
  await expect(cells.nth(3).locator('time')).toHaveAttribute('data-epoch', '3000'); // valid until the next version

  await page.getByTestId('state-as-of').fill('3000');
  await page.getByTestId('state-query').click();
  await expect(cells.nth(1)).toHaveText('{"price":6,"ts":3000}');
  await expect(cells.nth(3)).toHaveText('latest');

  await page.getByTestId('state-as-of').fill('999');
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('state-note')).toHaveText('no version at that time');
  await page.screenshot({ path: test.info().outputPath('state-versioned.png') });
});
