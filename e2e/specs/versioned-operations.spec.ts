// A KTable filter materialized in a versioned store (KIP-914), as a user builds it: the inspector
// switches the filter's versioned store on, validation asks for its store name at the field's
// path, the Code dialog writes Materialized.as(Stores.persistentVersionedKeyValueStore(…)), and
// the deployed app forwards out-of-order updates, drops an update older than the history and
// answers the store as of a time. The document, the input and the expected results are those of
// the "designer's story" in packages/engine/test/versioned-filter-map-oracle.test.ts, where the same
// document and input run on Apache Kafka Streams 4.1: these are its results.
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'versioned-filter-app', config: { 'commit.interval.ms': 100 } },
  topics: ['vf-prices', 'vf-cheap'].map((name) => ({ name, partitions: 1, config: {} })),
  nodes: [
    {
      id: 'prices',
      kind: 'table',
      config: { topic: 'vf-prices', timestampExtractor: { expression: 'value.ts' } },
    },
    { id: 'cheap', kind: 'tableFilter', config: { expression: 'value.price < 100' } },
    { id: 'changes', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'vf-cheap' } },
  ],
  edges: [
    { from: 'prices', to: 'cheap' },
    { from: 'cheap', to: 'changes' },
    { from: 'changes', to: 'out' },
  ],
  layout: {
    nodes: {
      prices: { x: 40, y: 40 },
      cheap: { x: 300, y: 40 },
      changes: { x: 560, y: 40 },
      out: { x: 820, y: 40 },
    },
  },
};

test('a versioned KTable filter: switched on in the inspector, exported, deployed and queried as of a time', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('versioned-filter.json', JSON.stringify(topology));
  await designer.expectNoProblems();

  await designer.select('cheap');
  await designer.field('cheap', 'versioned-enabled').check();
  await designer.configure('cheap', { 'versioned-historyRetentionMs': '1000' });
  // Materialized.as(supplier) names the store: the designer asks for it where it belongs.
  await designer.bottomTab('problems');
  await expect(page.getByText('nodes[1].config.store')).toBeVisible();
  await expect(page.getByTestId('config-cheap-store-error')).toHaveText(
    'a versioned table needs a store name (Materialized.as(versionedStoreSupplier))',
  );
  await designer.configure('cheap', { store: 'cheap-prices' });
  await designer.expectNoProblems();

  await page.getByTestId('open-code').click();
  await expect(page.getByTestId('code-text')).toContainText(
    `prices.filter('value.price < 100', Materialized.as(Stores.persistentVersionedKeyValueStore('cheap-prices', 1000)));`,
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('code-dialog')).toHaveCount(0);

  await designer.deploy();
  await topics.open();
  await topics.choose('vf-prices');
  for (const [price, ts] of [
    [50, 1000],
    [70, 3000],
    [60, 2000], // out of order: kept as history and forwarded
    [150, 4000], // filtered out: a tombstone version
    [40, 2500], // older than 4000 − 1000: neither stored nor forwarded
  ])
    await topics.produce({ key: 'widget', value: JSON.stringify({ price, ts }) });

  const expected = [
    '{"price":50,"ts":1000}',
    '{"price":70,"ts":3000}',
    '{"price":60,"ts":2000}',
    'null',
  ];
  await expect(async () => {
    await topics.choose('vf-cheap');
    await expect(topics.rows).toHaveCount(expected.length, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  // In the order they were written (the records view sorts by timestamp, newest first).
  const offsets = (await topics.rows.getByTestId('record-offset').allTextContents()).map(Number);
  const values = await topics.values();
  const written = offsets.map((offset, i) => ({ offset, value: values[i] }));
  written.sort((a, b) => a.offset - b.offset);
  expect(written.map((r) => r.value)).toEqual(expected);
  await topics.backToDesigner();

  await designer.bottomTab('state');
  const rows = page.getByTestId('state-row');
  const cells = rows.nth(0).locator('td');
  await expect(async () => {
    await page.getByTestId('state-refresh').click();
    await expect(page.getByTestId('state-store')).toContainText('cheap-prices (versioned)', {
      timeout: 1000,
    });
  }).toPass({ timeout: 15_000 });
  await page.getByTestId('state-store').selectOption('cheap-prices');
  await page.getByTestId('state-mode').selectOption('get');
  await page.getByTestId('state-key').fill('widget');
  // The latest version is the tombstone at 4000.
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(0);
  await page.getByTestId('state-as-of').fill('3500');
  await page.getByTestId('state-query').click();
  await expect(cells.nth(1)).toHaveText('{"price":70,"ts":3000}');
  await expect(cells.nth(2).locator('time')).toHaveAttribute('data-epoch', '3000');
  await expect(cells.nth(3).locator('time')).toHaveAttribute('data-epoch', '4000'); // valid until the tombstone
  // Older than the store's stream time − history retention: no answer.
  await page.getByTestId('state-as-of').fill('2500');
  await page.getByTestId('state-query').click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByTestId('state-note')).toHaveText('no version at that time');
  await page.screenshot({ path: test.info().outputPath('versioned-filter.png') });
});
