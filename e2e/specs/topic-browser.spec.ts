// The topic browser's navigation (a partition from an offset or a time, older / newer pages, back
// to the latest) and the Errors view's dead-letter records (errors.dead.letter.queue.topic.name),
// read back from the dead-letter topic and opened in the browser at their offset.
import { test, expect } from '../support/fixtures.js';

const app = 'e2e-dlq';
const topology = {
  schemaVersion: 1,
  application: {
    id: app,
    config: {
      'commit.interval.ms': 100,
      'processing.exception.handler': 'log-and-continue',
      'errors.dead.letter.queue.topic.name': `${app}-dead`,
    },
  },
  topics: [
    { name: `${app}-in`, partitions: 1, config: {} },
    { name: `${app}-out`, partitions: 1, config: {} },
    { name: `${app}-dead`, partitions: 1, config: {} },
  ],
  nodes: [
    { id: 'payments', kind: 'source', config: { topic: `${app}-in` } },
    { id: 'double', kind: 'mapValues', config: { expression: '{"total": value.amount * 2}' } },
    { id: 'out', kind: 'sink', config: { topic: `${app}-out` } },
  ],
  edges: [
    { from: 'payments', to: 'double' },
    { from: 'double', to: 'out' },
  ],
  layout: { nodes: { payments: { x: 0, y: 0 }, double: { x: 300, y: 0 }, out: { x: 600, y: 0 } } },
};

test('errors link to their dead-letter records; the browser pages by offset and time', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('dlq.json', JSON.stringify(topology));
  await designer.deploy();
  await topics.open();
  await topics.choose(`${app}-in`);
  // 12 payments; p3, p7 and p11 have no amount and fail in mapValues.
  for (let i = 0; i < 12; i++) {
    const value = i % 4 === 3 ? `{"currency": "EUR", "n": ${i}}` : `{"amount": ${i}}`;
    await topics.produce({ key: `p${i}`, value });
  }
  await topics.backToDesigner();
  await designer.expectCount('out', 9);

  // Errors: each with its dead-letter copy, read back from the dead-letter topic.
  await designer.bottomTab('errors');
  const errors = page.getByTestId('processing-error');
  await expect(errors).toHaveCount(3);
  const newest = errors.first();
  await expect(newest.getByTestId('dead-letter-position')).toHaveText(`${app}-dead-0@2`);
  await newest.getByTestId('dead-letter-show').click();
  const copy = newest.getByTestId('dead-letter-record');
  await expect(copy).toContainText('"n":11');
  await expect(copy).toContainText('__streams.errors.exception');
  await expect(copy).toContainText(`${app}-in`);
  await page.screenshot({ path: test.info().outputPath('dead-letter.png') });
  await newest.getByTestId('dead-letter-open').click();
  await expect(page.getByTestId('records-view')).toContainText(`Browse records of ${app}-dead`);
  const rows = page.getByTestId('record-row');
  await expect(rows.first().getByTestId('record-offset')).toHaveText('2');
  await expect(rows.first().getByTestId('record-key')).toHaveText('p11');

  // The browser on the input topic: pages of 10 from an offset, newer, older, latest.
  await topics.choose(`${app}-in`);
  // The first page asked for (the default 20) is held back so that it answers after the page of 10
  // asked for next: only the latest request's page is shown.
  let heldBack = false;
  let heldBackAnswered!: () => void;
  const heldBackAnswer = new Promise<void>((resolve) => (heldBackAnswered = resolve));
  await page.route('**/trpc/topics.browse*', async (route) => {
    if (heldBack || !decodeURIComponent(route.request().url()).includes('"limit":20'))
      return route.continue();
    heldBack = true;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
    await route.request().response();
    heldBackAnswered();
  });
  await page.getByTestId('records-mode-browse').click();
  const offsets = () => rows.getByTestId('record-offset').allTextContents();
  await page.getByRole('combobox', { name: 'Page' }).selectOption('10');
  await heldBackAnswer;
  await expect.poll(offsets).toEqual(['2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
  await page.unroute('**/trpc/topics.browse*');
  await page.getByTestId('browse-older').click();
  await expect.poll(offsets).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  await expect(page.getByTestId('browse-older')).toBeDisabled();
  await page.getByTestId('browse-newer').click();
  await expect.poll(offsets).toEqual(['10', '11']);
  await expect(page.getByTestId('browse-newer')).toBeDisabled();
  // By keyboard: an offset and Enter.
  await page.getByTestId('browse-offset').fill('');
  await page.getByTestId('browse-offset').focus();
  await page.keyboard.type('5');
  await page.keyboard.press('Enter');
  await expect.poll(offsets).toEqual(['5', '6', '7', '8', '9', '10', '11']);
  await expect(rows.first().getByTestId('record-key')).toHaveText('p5');
  // From a time: long ago is the first record; the future has none.
  await page.getByTestId('browse-time').fill('2001-01-01T00:00:00');
  await page.getByTestId('browse-go-time').click();
  await expect(rows.first().getByTestId('record-offset')).toHaveText('0');
  await page.getByTestId('browse-time').fill('2099-01-01T00:00:00');
  await page.getByTestId('browse-go-time').click();
  await expect(page.getByTestId('browse-position')).toContainText(
    'no record at or after that time',
  );
  await expect(rows).toHaveCount(0);
  await page.getByTestId('browse-latest').click();
  await expect.poll(offsets).toEqual(['2', '3', '4', '5', '6', '7', '8', '9', '10', '11']);
  await page.screenshot({ path: test.info().outputPath('topic-browser.png') });
  // Latest records (the former view) are still one click away.
  await page.getByTestId('records-mode-latest').click();
  await expect(page.getByTestId('records-view')).toContainText(`Latest records of ${app}-in`);
  await expect(rows).toHaveCount(12);
});

test('windowed keys read as the key and its window, on the sink and the changelog', async ({
  page,
  designer,
  topics,
}) => {
  const id = 'e2e-windowed-keys';
  const windowed = {
    schemaVersion: 1,
    application: { id, config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: `${id}-clicks`, partitions: 1, config: {} },
      { name: `${id}-counts`, partitions: 1, config: {} },
    ],
    nodes: [
      { id: 'clicks', kind: 'source', config: { topic: `${id}-clicks`, valueSerde: 'string' } },
      { id: 'byUser', kind: 'groupByKey', config: {} },
      { id: 'w', kind: 'windowedBy', config: { window: { type: 'tumbling', sizeMs: 10_000 } } },
      { id: 'count', kind: 'windowedCount', config: { store: 'per-10s' } },
      { id: 'changes', kind: 'toStream', config: {} },
      {
        id: 'out',
        kind: 'sink',
        config: {
          topic: `${id}-counts`,
          valueSerde: 'long',
          windowedKey: 'time',
          windowSizeMs: 10_000,
        },
      },
    ],
    edges: [
      { from: 'clicks', to: 'byUser' },
      { from: 'byUser', to: 'w' },
      { from: 'w', to: 'count' },
      { from: 'count', to: 'changes' },
      { from: 'changes', to: 'out' },
    ],
    layout: { nodes: {} },
  };
  await designer.open();
  await designer.importJson('windowed-keys.json', JSON.stringify(windowed));
  await designer.deploy();
  await topics.open();
  await topics.choose(`${id}-clicks`);
  await topics.produce({ key: 'ann', value: 'click' });
  const rows = page.getByTestId('record-row');
  const windowOf = async () => {
    const times = rows.first().getByTestId('record-key-window').locator('time');
    const [start, end] = await Promise.all([
      times.nth(0).getAttribute('data-epoch'),
      times.nth(1).getAttribute('data-epoch'),
    ]);
    return Number(end) - Number(start);
  };
  // The sink's TimeWindowedSerde keys: chosen from the sink's windowedKey option.
  await topics.choose(`${id}-counts`);
  await expect(page.getByTestId('read-key-window')).toHaveValue('time');
  await expect(rows.first().getByTestId('record-key')).toContainText('ann [');
  await expect(rows.first().getByTestId('record-value')).toHaveText('1');
  expect(await windowOf()).toBe(10_000);
  // The window store's changelog: key, start and a sequence number.
  await topics.choose(`${id}-per-10s-changelog`);
  await expect(page.getByTestId('read-key-window')).toHaveValue('windowStore');
  await expect(rows.first().getByTestId('record-key')).toContainText('ann [');
  expect(await windowOf()).toBe(10_000);
  // Read as plain keys, the window is gone from the view.
  await page.getByTestId('read-key-window').selectOption('none');
  await expect(rows.first().getByTestId('record-key-window')).toHaveCount(0);
});
