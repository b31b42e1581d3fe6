// Structured editors (issue 23): a window is edited as its kind and millisecond fields, a source's
// timestamp extractor can be a CEL expression, a join's inputs are labelled on the canvas, the
// produce form takes a timestamp, headers and a null value and starts fresh for another topic,
// times read as local time with the epoch in the tooltip, and an error's record shows what arrived.
import { test, expect } from '../support/fixtures.js';

test('a window as typed fields, a CEL timestamp extractor and labelled join ports', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 90, y: 120 }, 'source1');
  await designer.dropNode('groupByKey', { x: 260, y: 300 }, 'groupByKey1');
  await designer.dropNode('windowedBy', { x: 430, y: 120 }, 'windowedBy1');
  await designer.dropNode('windowedCount', { x: 600, y: 300 }, 'windowedCount1');
  await designer.connect('source1', 'groupByKey1');
  await designer.connect('groupByKey1', 'windowedBy1');
  await designer.connect('windowedBy1', 'windowedCount1');

  // the window: a kind, then that kind's fields; an advance longer than the size is refused at
  // the field that is wrong
  await designer.configure('windowedBy1', { window: 'hopping' });
  await expect(designer.field('windowedBy1', 'window-graceMs')).toBeVisible();
  await designer.configure('windowedBy1', {
    'window-sizeMs': '60000',
    'window-advanceMs': '120000',
  });
  await expect(designer.field('windowedBy1', 'window-advanceMs-error')).toContainText(
    'advanceMs must be at most sizeMs',
  );
  await designer.configure('windowedBy1', { 'window-advanceMs': '10000' });
  await expect(designer.field('windowedBy1', 'window-advanceMs-error')).toHaveCount(0);
  // another kind shows its own fields only
  await designer.configure('windowedBy1', { window: 'session' });
  await expect(designer.field('windowedBy1', 'window-gapMs')).toBeVisible();
  await expect(designer.field('windowedBy1', 'window-sizeMs')).toHaveCount(0);
  await designer.configure('windowedBy1', { 'window-gapMs': '30000' });

  // the timestamp extractor: record, wallclock or a CEL expression
  await designer.configure('source1', { topic: 'e2e-se-clicks', timestampExtractor: 'expression' });
  await designer.configure('source1', { 'timestampExtractor-expression': 'int(value.at)' });

  const exported = JSON.parse((await designer.exportJson()).text) as {
    nodes: { id: string; config: Record<string, unknown> }[];
  };
  const config = (id: string) => exported.nodes.find((n) => n.id === id)?.config;
  expect(config('windowedBy1')?.window).toEqual({ type: 'session', gapMs: 30000, graceMs: 0 });
  expect(config('source1')?.timestampExtractor).toEqual({ expression: 'int(value.at)' });

  // a join's two inputs are named on the canvas, next to their handles
  await designer.dropNode('streamTableJoin', { x: 430, y: 480 }, 'streamTableJoin1');
  await expect(page.getByTestId('port-label-streamTableJoin1-left')).toHaveText('left');
  await expect(page.getByTestId('port-label-streamTableJoin1-right')).toHaveText('right');
  const left = await page.getByTestId('port-label-streamTableJoin1-left').boundingBox();
  const right = await page.getByTestId('port-label-streamTableJoin1-right').boundingBox();
  const node = await designer.node('streamTableJoin1').boundingBox();
  expect(left && right && node).toBeTruthy();
  expect(left!.y).toBeLessThan(right!.y);
  expect(left!.x + left!.width).toBeLessThanOrEqual(node!.x); // outside the node, on its left
});

test('produce with a timestamp, headers and a null value; another topic starts a fresh record', async ({
  page,
  topics,
}) => {
  for (const name of ['e2e-se-a', 'e2e-se-b']) {
    const created = await page.request.post('/trpc/topics.create', {
      data: { name, partitions: 1 },
    });
    expect(created.ok()).toBe(true);
  }
  await page.goto('/');
  await topics.open();
  await topics.choose('e2e-se-a');
  const form = page.getByTestId('produce-form');
  await form.getByTestId('produce-key-serde').selectOption('string');
  await form.getByTestId('produce-value-serde').selectOption('string');
  await form.getByTestId('produce-key').fill('k1');
  await form.getByTestId('produce-value').fill('v1');
  await form
    .getByTestId('produce-headers')
    .fill('trace: abc\nbin: base64 /wD+AQ==\nnone: null\ntrace: again');
  await form.getByTestId('produce-timestamp').fill('2026-01-01 00:00:05.250');
  await form.getByTestId('produce').click();
  await expect(form.getByTestId('produce-result')).toHaveText(/^Produced to partition 0/);

  // a tombstone for the same key
  await form.getByTestId('produce-null-value').check();
  await expect(form.getByTestId('produce-value')).toBeDisabled();
  await form.getByTestId('produce-timestamp').fill('1767225606000');
  await form.getByTestId('produce').click();
  await expect(form.getByTestId('produce-result')).toHaveText(/at offset 1$/);

  const rows = topics.rows;
  await expect(rows).toHaveCount(2);
  const local = await page.evaluate(() => new Date('2026-01-01T00:00:05.250').getTime());
  const first = rows.filter({
    has: page.getByTestId('record-offset').getByText('0', { exact: true }),
  });
  const time = first.locator('time');
  await expect(time).toHaveAttribute('data-epoch', String(local));
  await expect(time).toHaveText('2026-01-01 00:00:05.250');
  await expect(time).toHaveAttribute('title', new RegExp(`^epoch ms ${local} · .*Z \\(UTC\\)$`));
  // headers as typed: binary bytes, a null value, a repeated name, in order
  await expect(first.getByTestId('record-headers')).toHaveText(
    'trace: abc, bin: base64 /wD+AQ==, none: null, trace: again',
  );
  const second = rows.filter({
    has: page.getByTestId('record-offset').getByText('1', { exact: true }),
  });
  await expect(second.locator('time')).toHaveAttribute('data-epoch', '1767225606000');
  await expect(second.getByTestId('record-value')).toHaveText('null');

  // a bad timestamp is refused with what was typed
  await form.getByTestId('produce-null-value').uncheck();
  await form.getByTestId('produce-timestamp').fill('yesterday');
  await form.getByTestId('produce').click();
  await expect(form.getByTestId('produce-result')).toContainText('timestamp "yesterday"');

  // another topic: nothing typed for the first one is carried over
  await topics.choose('e2e-se-b');
  await expect(form.getByTestId('produce-key')).toHaveValue('');
  await expect(form.getByTestId('produce-value')).toHaveValue('');
  await expect(form.getByTestId('produce-timestamp')).toHaveValue('');
  await expect(form.getByTestId('produce-headers')).toHaveValue('');
});

test('a record with an invalid timestamp fails the task and the error shows its key and value', async ({
  page,
  designer,
  topics,
}) => {
  const appId = 'e2e-se-ts';
  const doc = {
    schemaVersion: 1,
    application: { id: appId, config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: `${appId}-in`, partitions: 1, config: {} },
      { name: `${appId}-out`, partitions: 1, config: {} },
    ],
    nodes: [
      {
        id: 'events',
        kind: 'source',
        config: {
          topic: `${appId}-in`,
          valueSerde: 'string',
          timestampExtractor: { expression: 'value == "bad" ? -1 : timestamp' },
        },
      },
      { id: 'out', kind: 'sink', config: { topic: `${appId}-out`, valueSerde: 'string' } },
    ],
    edges: [{ from: 'events', fromPort: 'out', to: 'out', toPort: 'in' }],
    layout: { nodes: { events: { x: 0, y: 0 }, out: { x: 300, y: 0 } } },
  };
  await designer.open();
  await designer.importJson('ts.json', JSON.stringify(doc));
  await expect(designer.node('events')).toBeVisible();
  await designer.deploy();

  await topics.open();
  await topics.choose(`${appId}-in`);
  await page.getByTestId('produce-value-serde').selectOption('string');
  await topics.produce({ key: 'k7', value: 'bad' });
  await topics.backToDesigner();

  await designer.bottomTab('errors');
  const error = page.getByTestId('processing-error').first();
  await expect(error).toContainText('task failed');
  await expect(error.getByTestId('processing-error-message')).toContainText('timestamp -1');
  const record = error.getByTestId('processing-error-record');
  await expect(record).toContainText('key "k7" value "bad"');
});
