// Bad input is refused with its reasons: an invalid topology file lists every error with its
// path and changes nothing (neither the canvas nor the runtime); an invalid connection is refused
// with the reason shown.
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.js';

/** Several independent mistakes, each of which validation must report with its own path. */
const invalidTopology = {
  schemaVersion: 1,
  application: { id: 'broken-app', config: {} },
  topics: [{ name: 'in', partitions: 1, config: {} }],
  nodes: [
    { id: 'src', kind: 'source', config: { topic: 'in' } },
    { id: 'mystery', kind: 'teleport', config: {} },
    { id: 'keep', kind: 'filter', config: {} },
    { id: 'tally', kind: 'count', config: {} },
  ],
  edges: [
    { from: 'src', fromPort: 'out', to: 'keep', toPort: 'in' },
    { from: 'keep', fromPort: 'out', to: 'ghost', toPort: 'in' },
    { from: 'src', fromPort: 'out', to: 'tally', toPort: 'in' },
  ],
  layout: { nodes: {} },
};

/** What the runtime has deployed: the topology and the app's state. */
async function deployment(page: Page) {
  const response = await page.request.get('/trpc/app.status');
  expect(response.ok()).toBe(true);
  const view = (
    (await response.json()) as {
      result: { data: { deployed: boolean; topology: unknown; status: { state: string } | null } };
    }
  ).result.data;
  return { deployed: view.deployed, topology: view.topology, state: view.status?.state ?? null };
}

test('an invalid topology file lists every error with its path and deploys nothing', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 200, y: 200 }, 'source1');
  const before = await deployment(page);

  await designer.importJson('broken.json', JSON.stringify(invalidTopology, null, 2));

  const dialog = page.getByTestId('import-errors');
  await expect(dialog).toBeVisible();
  const paths = await dialog.getByTestId('import-error-path').allTextContents();
  const messages = await dialog.getByTestId('import-error-message').allTextContents();
  expect(paths.length).toBeGreaterThanOrEqual(4);
  // every mistake is reported where it is: the unknown kind, the missing expression, the
  // dangling edge and the count without a grouping before it
  expect(paths.some((p) => /nodes\W+1\W+kind/.test(p))).toBe(true);
  expect(paths.some((p) => /nodes\W+2\W+config/.test(p))).toBe(true);
  expect(paths.some((p) => /edges\W+1/.test(p))).toBe(true);
  expect(paths.some((p) => /nodes\W+3|edges\W+2/.test(p))).toBe(true);
  for (const m of messages) expect(m.trim().length).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('import-errors.png') });

  await dialog.getByTestId('close-import-errors').click();
  await expect(dialog).toBeHidden();
  // nothing applied: the canvas still holds what was there, and the runtime is unchanged
  await expect(designer.node('source1')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  expect(await deployment(page)).toEqual(before);
});

test('an invalid connection is refused with its reason shown', async ({ page, designer }) => {
  await designer.open();
  await designer.newDocument();
  // An id no spec deploys: the shared runtime runs whatever an earlier spec deployed last (the
  // getting-started spec leaves the default my-streams-app running, with a source1 of its own).
  await designer.setApplicationId('e2e-invalid-connection');
  await designer.dropNode('source', { x: 180, y: 180 }, 'source1');
  await designer.dropNode('count', { x: 520, y: 180 }, 'count1');
  // a new design shows no live counters of another app, even where its node ids match that app's
  await expect(designer.count('source1')).toHaveCount(0);

  // a count needs a grouped stream (groupByKey) before it, not a plain stream
  await designer.connect('source1', 'count1');
  await expect(designer.notice).toBeVisible();
  await expect(designer.notice).toHaveAttribute('data-tone', 'error');
  await expect(designer.notice).toContainText('Connection refused:');
  const reason = ((await designer.notice.textContent()) ?? '')
    .replace('Connection refused:', '')
    .trim();
  expect(reason.length).toBeGreaterThan(10);
  await expect(designer.edges).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('refused-connection.png') });

  // the same drag through a groupByKey is accepted
  await designer.dropNode('groupByKey', { x: 350, y: 380 }, 'groupByKey1');
  await designer.connect('source1', 'groupByKey1');
  await designer.connect('groupByKey1', 'count1');
  await expect(designer.edges).toHaveCount(2);
});

test('deploying an invalid design lists the runtime’s errors and deploys nothing', async ({
  page,
  designer,
}) => {
  await designer.open();
  const before = await deployment(page);
  await designer.newDocument();
  await designer.dropNode('source', { x: 200, y: 200 }, 'source1');
  await designer.dropNode('filter', { x: 500, y: 200 }, 'filter1');
  await designer.connect('source1', 'filter1');
  await designer.configure('filter1', { expression: 'value.amount >' });
  // the CEL error is shown inline, with its position
  await expect(page.getByTestId('config-filter1-expression-error')).toContainText(
    /Line 1, column \d+/,
  );

  await page.getByTestId('deploy').click();
  await expect(designer.notice).toContainText('Not deployed');
  const problems = page.getByTestId('deploy-problems').getByTestId('problem');
  await expect(problems.first()).toBeVisible();
  const texts = await problems.allTextContents();
  expect(texts.some((t) => t.includes('nodes[0].config.topic'))).toBe(true);
  expect(texts.some((t) => t.includes('nodes[1].config.expression'))).toBe(true);
  expect(await deployment(page)).toEqual(before);

  // a problem selects its node
  await problems.filter({ hasText: 'nodes[1].config.expression' }).first().click();
  await expect(page.getByTestId('node-id')).toHaveValue('filter1');
});

test('a file that is not JSON is refused with the line and column of the mistake', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 200, y: 200 }, 'source1');
  const before = await deployment(page);

  // a trailing comma, as a hand edit leaves it
  await designer.importJson(
    'hand-edited.json',
    '{\n  "schemaVersion": 1,\n  "nodes": [\n    {"id": "a",}\n  ]\n}\n',
  );

  const dialog = page.getByTestId('import-errors');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Nothing was changed. Fix this problem in the file');
  await expect(dialog.getByTestId('import-error-message')).toHaveText(
    /not valid JSON at line 4, column 16/,
  );
  await expect(designer.notice).toContainText('hand-edited.json was not imported: 1 problem');
  await dialog.getByTestId('close-import-errors').click();
  await expect(designer.node('source1')).toBeVisible();
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  expect(await deployment(page)).toEqual(before);
});
