// A stream–table join with a grace period (Joined#withGracePeriod, KIP-923), as a user builds it:
// the inspector edits the join's grace period, validation refuses one longer than the versioned
// table's history with Kafka Streams' message at the field's path, the Code dialog writes
// Joined#withGracePeriod, and the deployed app joins out-of-order orders in timestamp order, each
// against the price valid at its time. The topology, the input and the expected output are those
// of the "designer's story" scenario in packages/engine/test/stream-table-grace-oracle.test.ts,
// where the same document and input run on Apache Kafka Streams 4.1: these are its results.
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'grace-app', config: { 'commit.interval.ms': 100 } },
  topics: ['sw-orders', 'sw-prices', 'sw-priced'].map((name) => ({
    name,
    partitions: 1,
    config: {},
  })),
  nodes: [
    {
      id: 'orders',
      kind: 'source',
      config: { topic: 'sw-orders', timestampExtractor: { expression: 'value.ts' } },
    },
    {
      id: 'prices',
      kind: 'table',
      config: {
        topic: 'sw-prices',
        store: 'prices',
        versioned: { historyRetentionMs: 1000 },
        timestampExtractor: { expression: 'value.ts' },
      },
    },
    {
      id: 'j',
      kind: 'streamTableJoin',
      config: { type: 'inner', joiner: '{"qty": left.qty, "price": right.price}' },
    },
    { id: 'out', kind: 'sink', config: { topic: 'sw-priced' } },
  ],
  edges: [
    { from: 'orders', to: 'j', toPort: 'left' },
    { from: 'prices', to: 'j', toPort: 'right' },
    { from: 'j', to: 'out' },
  ],
  layout: {
    nodes: {
      orders: { x: 40, y: 40 },
      prices: { x: 40, y: 240 },
      j: { x: 340, y: 140 },
      out: { x: 640, y: 140 },
    },
  },
};

test('a stream–table join with a grace period: edited, refused, exported, deployed and joined in time order', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('grace.json', JSON.stringify(topology));
  await designer.expectNoProblems();

  // Longer than the table's history retention (1000): Kafka Streams refuses it, so does the designer.
  await designer.configure('j', { gracePeriodMs: '5000' });
  await designer.bottomTab('problems');
  await expect(page.getByText('nodes[2].config.gracePeriodMs')).toBeVisible();
  await expect(page.getByTestId('problem')).toContainText(
    'History retention must be at least grace period.',
  );
  // and under the field itself
  await expect(page.getByTestId('config-j-gracePeriodMs-error')).toHaveText(
    'History retention must be at least grace period.',
  );
  await designer.configure('j', { gracePeriodMs: '100' });
  await designer.expectNoProblems();

  await page.getByTestId('open-code').click();
  await expect(page.getByTestId('code-text')).toContainText(
    `const j = orders.join(prices, '{"qty": left.qty, "price": right.price}', Joined.with(null, null).withGracePeriod(100));`,
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('code-dialog')).toHaveCount(0);

  await designer.deploy();
  await topics.open();
  await topics.choose('sw-prices');
  for (const [price, ts] of [
    [1, 0],
    [2, 100],
    [3, 200],
  ])
    await topics.produce({ key: 'k', value: JSON.stringify({ price, ts }) });
  // The prices are in the table before the first order arrives.
  await topics.backToDesigner();
  await designer.expectCount('prices', 3);
  await topics.open();
  await topics.choose('sw-orders');
  for (const [qty, ts] of [
    [10, 250],
    [20, 150],
    [30, 50],
    [40, 210],
    [50, 199],
    [60, 400], // stream time 400 releases everything up to 300; this order stays buffered
  ])
    await topics.produce({ key: 'k', value: JSON.stringify({ qty, ts }) });

  await topics.choose('sw-priced');
  const expected = [
    { qty: 20, price: 2 },
    { qty: 30, price: 1 },
    { qty: 50, price: 2 },
    { qty: 40, price: 3 },
    { qty: 10, price: 3 },
  ];
  await expect(async () => {
    await topics.choose('sw-priced');
    await expect(topics.rows).toHaveCount(expected.length, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  // In the order they were written (the records view sorts by timestamp, newest first).
  const offsets = (await topics.rows.getByTestId('record-offset').allTextContents()).map(Number);
  const values = (await topics.values()).map((v) => JSON.parse(v) as unknown);
  const written = offsets.map((offset, i) => ({ offset, value: values[i] }));
  written.sort((a, b) => a.offset - b.offset);
  expect(written.map((r) => r.value)).toEqual(expected);
  await page.screenshot({ path: test.info().outputPath('stream-table-grace.png') });
});
