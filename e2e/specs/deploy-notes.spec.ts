// A deploy that succeeds but not quite as designed says so in its notice: a declared topic that
// already exists with another partition count keeps its count (as a Kafka broker's topic would).
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'e2e-note', config: {} },
  topics: [
    { name: 'e2e-note-in', partitions: 4, config: {} },
    { name: 'e2e-note-out', partitions: 1, config: {} },
  ],
  nodes: [
    { id: 'in', kind: 'source', config: { topic: 'e2e-note-in' } },
    { id: 'out', kind: 'sink', config: { topic: 'e2e-note-out' } },
  ],
  edges: [{ from: 'in', to: 'out' }],
  layout: { nodes: { in: { x: 0, y: 0 }, out: { x: 300, y: 0 } } },
};

test('deploying over an existing topic with another partition count says so', async ({
  page,
  designer,
}) => {
  const created = await page.request.post('/trpc/topics.create', {
    data: { name: 'e2e-note-in', partitions: 2 },
  });
  expect(created.ok()).toBe(true);
  await designer.open();
  await designer.importJson('note.json', JSON.stringify(topology));
  await designer.deploy();
  await expect(designer.notice).toHaveAttribute('data-tone', 'info');
  await expect(designer.notice).toContainText(
    'Deployed e2e-note. Note: topic "e2e-note-in" already exists with 2 partitions, not the 4 declared',
  );
  // the app runs with the topic's own count: two tasks
  await designer.bottomTab('tasks');
  await expect(page.getByTestId('tasks-table').locator('tbody tr')).toHaveCount(2);
});
