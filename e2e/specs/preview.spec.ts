// Data preview before deploying: the unsaved canvas runs over typed sample records and every node
// shows what went in and came out; nothing is written (the sink's topic is not even created).
import { test, expect } from '../support/fixtures.js';

test('preview an unsaved design over typed records: every node shows its inputs and outputs', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 160, y: 160 }, 'source1');
  await designer.dropNode('filter', { x: 460, y: 160 }, 'filter1');
  await designer.dropNode('sink', { x: 760, y: 160 }, 'sink1');
  await designer.connect('source1', 'filter1');
  await designer.connect('filter1', 'sink1');
  await designer.configure('source1', { topic: 'pv-in' });
  await page.getByTestId('declare-topic-source1').click();
  await designer.configure('filter1', { expression: 'value.amount > 100' });
  await designer.configure('sink1', { topic: 'pv-out' });
  await page.getByTestId('declare-topic-sink1').click();
  await designer.expectNoProblems();

  await designer.bottomTab('preview');
  await page.getByTestId('preview-records').click();
  await page.keyboard.insertText(
    'alice: {"amount": 120}\nbob: {"amount": 5}\ncarol: {"amount": 300}',
  );
  await page.getByTestId('preview-run').click();

  await expect(page.getByTestId('preview-processed')).toContainText('3 records processed');
  await expect(page.getByTestId('preview-counts-source1')).toHaveText('3 in → 3 out');
  await expect(page.getByTestId('preview-counts-filter1')).toHaveText('3 in → 2 out');
  await expect(page.getByTestId('preview-counts-sink1')).toHaveText('2 in → 2 out');
  const out = page.getByTestId('preview-out-filter1');
  await expect(out).toHaveCount(2);
  await expect(out.nth(0)).toContainText('alice');
  await expect(out.nth(1)).toContainText('carol');
  await expect(page.getByTestId('preview-out-sink1').nth(0)).toContainText('topic pv-out');
  await page.screenshot({ path: test.info().outputPath('preview.png') });

  // nothing was written: the runtime has no pv-out topic
  const topics = await page.request.get('/trpc/topics.list');
  const names = ((await topics.json()) as { result: { data: { name: string }[] } }).result.data.map(
    (t) => t.name,
  );
  expect(names).not.toContain('pv-out');
  expect(names).not.toContain('pv-in');
});

test('preview a join: a table and a stream typed in one box with @topic lines', async ({
  page,
  designer,
}) => {
  const doc = {
    schemaVersion: 1,
    application: { id: 'pv-join', config: {} },
    topics: [
      { name: 'pvj-clicks', partitions: 1, config: {} },
      { name: 'pvj-users', partitions: 1, config: {} },
      { name: 'pvj-out', partitions: 1, config: {} },
    ],
    nodes: [
      { id: 'clicks', kind: 'source', config: { topic: 'pvj-clicks', valueSerde: 'string' } },
      { id: 'users', kind: 'table', config: { topic: 'pvj-users', valueSerde: 'string' } },
      {
        id: 'join',
        kind: 'streamTableJoin',
        config: { type: 'left', joiner: 'right == null ? left : left + "@" + right' },
      },
      { id: 'out', kind: 'sink', config: { topic: 'pvj-out', valueSerde: 'string' } },
    ],
    edges: [
      { from: 'clicks', to: 'join', toPort: 'left' },
      { from: 'users', to: 'join', toPort: 'right' },
      { from: 'join', to: 'out' },
    ],
    layout: {
      nodes: {
        clicks: { x: 40, y: 40 },
        users: { x: 40, y: 240 },
        join: { x: 320, y: 140 },
        out: { x: 600, y: 140 },
      },
    },
  };
  await designer.open();
  await designer.importJson('join.json', JSON.stringify(doc));
  await expect(designer.node('join')).toBeVisible();
  await designer.bottomTab('preview');
  // the design reads two topics: sampling offers both at once
  await expect(page.getByTestId('preview-topic')).toHaveValue('*');
  await page.getByTestId('preview-records').click();
  await page.keyboard.insertText('@pvj-users\nu1: Ann\n@pvj-clicks\nu1: home\nu2: cart');
  await page.getByTestId('preview-run').click();
  await expect(page.getByTestId('preview-processed')).toContainText('3 records processed');
  const out = page.getByTestId('preview-out-join');
  await expect(out).toHaveCount(2);
  await expect(out.nth(0)).toContainText('home@Ann');
  await expect(out.nth(1)).toContainText('cart');
});
