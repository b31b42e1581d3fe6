// The workspace on the runtime: save the canvas as versions, compare two versions (a readable
// structural diff), open an older one, rename, delete.
import { test, expect } from '../support/fixtures.js';

test('save two versions, read their diff, open the older one, rename and delete', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 180, y: 200 }, 'source1');
  await designer.dropNode('filter', { x: 480, y: 200 }, 'filter1');
  await designer.connect('source1', 'filter1');
  await designer.configure('source1', { topic: 'ws-in' });
  await page.getByTestId('declare-topic-source1').click();
  await designer.configure('filter1', { expression: 'value.amount > 100' });

  await designer.sideTab('workspace');
  await page.getByTestId('workspace-save-name').fill('orders flow');
  await page.getByTestId('workspace-save').click();
  const entry = page.getByTestId('workspace-entry-orders_flow');
  await expect(entry).toContainText('1 version');

  // change the logic and move a node, then save again with a message
  await designer.configure('filter1', { expression: 'value.amount > 500' });
  await designer.dropNode('sink', { x: 780, y: 200 }, 'sink1');
  await designer.sideTab('workspace');
  await page.getByTestId('workspace-save-name').fill('orders flow');
  await page.getByTestId('workspace-save-message').fill('stricter filter, sink added');
  await page.getByTestId('workspace-save').click();
  await expect(entry).toContainText('2 versions');

  await entry.getByTestId('workspace-history').click();
  await entry.getByTestId('workspace-pick-1').check();
  await entry.getByTestId('workspace-pick-2').check();
  const diff = entry.getByTestId('workspace-diff');
  await expect(diff).toContainText('v1 → v2');
  await expect(diff).toContainText('config.expression');
  await expect(diff).toContainText('value.amount > 500');
  await expect(
    diff.getByTestId('workspace-diff-line').filter({ hasText: 'sink1' }),
  ).not.toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('workspace-diff.png') });

  // open v1: the sink is gone and the old expression is back
  await entry.getByTestId('workspace-open-1').click();
  await expect(designer.node('sink1')).toHaveCount(0);
  await designer.select('filter1');
  await expect(designer.field('filter1', 'expression')).toHaveValue('value.amount > 100');

  await designer.sideTab('workspace');
  await entry.getByTestId('workspace-rename').click();
  const rename = page.getByTestId('workspace-rename-input');
  await rename.fill('orders flow v2');
  await rename.press('Enter');
  const renamed = page.getByTestId('workspace-entry-orders_flow_v2');
  await expect(renamed).toBeVisible();

  page.once('dialog', (dialog) => void dialog.accept());
  await renamed.getByTestId('workspace-delete').click();
  await expect(renamed).toHaveCount(0);
});
