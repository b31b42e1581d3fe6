// Backlog of a stopped app (issue 23): records that arrive while the app is stopped are lag — the
// log end minus the committed offsets, as app.lag reports it — and the source's bar says so,
// instead of the last value seen while it ran.
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'e2e-stopped-lag', config: { 'commit.interval.ms': 100 } },
  topics: [
    { name: 'e2e-lag-in', partitions: 1, config: {} },
    { name: 'e2e-lag-out', partitions: 1, config: {} },
  ],
  nodes: [
    { id: 'in', kind: 'source', config: { topic: 'e2e-lag-in', valueSerde: 'string' } },
    { id: 'out', kind: 'sink', config: { topic: 'e2e-lag-out', valueSerde: 'string' } },
  ],
  edges: [{ from: 'in', to: 'out' }],
  layout: { nodes: { in: { x: 40, y: 40 }, out: { x: 340, y: 40 } } },
};

test('a stopped app shows the records waiting for it as lag', async ({ page, designer }) => {
  await designer.open();
  await designer.importJson('lag.json', JSON.stringify(topology));
  await designer.deploy();
  const produce = async (value: string) => {
    const produced = await page.request.post('/trpc/topics.produce', {
      data: { topic: 'e2e-lag-in', key: 'k', value, keySerde: 'string', valueSerde: 'string' },
    });
    expect(produced.ok()).toBe(true);
  };
  // one record processed and committed while it runs: lag 0
  await produce('first');
  await designer.expectCount('in', 1);
  const lag = designer.node('in').getByTestId('source-lag');
  await expect(lag).toHaveAttribute('data-lag', '0');

  await page.getByTestId('stop').click();
  await expect(designer.state).not.toHaveText('RUNNING');
  for (const value of ['a', 'b', 'c', 'd', 'e']) await produce(value);
  await expect(lag).toHaveAttribute('data-lag', '5');
  await expect(lag).toContainText('lag 5');

  await page.getByTestId('start').click();
  await expect(designer.state).toHaveText('RUNNING');
  await expect(lag).toHaveAttribute('data-lag', '0');
});

const app = 'e2e-depth';
const counted = {
  schemaVersion: 1,
  application: { id: app, config: { 'commit.interval.ms': 100 } },
  topics: [{ name: `${app}-words`, partitions: 1, config: {} }],
  nodes: [
    { id: 'words', kind: 'source', config: { topic: `${app}-words`, valueSerde: 'string' } },
    { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
    { id: 'count', kind: 'count', config: { store: 'counts' } },
  ],
  edges: [
    { from: 'words', to: 'byWord' },
    { from: 'byWord', to: 'count' },
  ],
  layout: {
    nodes: { words: { x: 40, y: 40 }, byWord: { x: 340, y: 40 }, count: { x: 700, y: 40 } },
  },
};

test('repartition topics show what waits in them, changelogs what they hold', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.importJson('depth.json', JSON.stringify(counted));
  await designer.deploy();
  const produce = async (topic: string, key: string, value: string, serde = 'string') => {
    const produced = await page.request.post('/trpc/topics.produce', {
      data: { topic, key, value, keySerde: serde, valueSerde: serde },
    });
    expect(produced.ok(), await produced.text()).toBe(true);
  };
  for (const word of ['a', 'b', 'a']) await produce(`${app}-words`, 'line', word);
  await designer.expectCount('count', 3);
  const repartition = `${app}-counts-repartition`;
  const depth = page.getByTestId(`repartition-depth-${repartition}`);
  await expect(depth).toHaveAttribute('data-depth', '0');
  await expect(depth).toContainText('0 queued');
  const logged = page.getByTestId('changelog-depth-counts');
  await expect
    .poll(async () => Number(await logged.getAttribute('data-records')))
    .toBeGreaterThanOrEqual(2);

  // stopped, records written into the repartition topic wait there
  await page.getByTestId('stop').click();
  await expect(designer.state).not.toHaveText('RUNNING');
  // (as groupBy writes them: the word as the key, both with the default json serde)
  for (const word of ['c', 'd'])
    await produce(repartition, JSON.stringify(word), JSON.stringify(word), 'json');
  await expect(depth).toHaveAttribute('data-depth', '2');
  await expect(depth).toContainText('2 queued');
  await page.getByTestId('start').click();
  await expect(designer.state).toHaveText('RUNNING');
  await expect(depth).toHaveAttribute('data-depth', '0');
  // the two waiting records were counted (metrics start over with the restarted app)
  await designer.expectCount('count', 2);
});
