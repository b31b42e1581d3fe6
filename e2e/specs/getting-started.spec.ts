// docs/GETTING_STARTED.md's "Build your own topology", step by step as the guide says it: if
// this fails, the guide no longer tells a new user the truth.
import { test, expect } from '../support/fixtures.js';

test('the getting-started guide’s topology, built as the guide says', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  // a user who looked at a small design first: the canvas is zoomed in to fit it
  await designer.importJson(
    'small.json',
    JSON.stringify({
      schemaVersion: 1,
      application: { id: 'gs-small', config: {} },
      topics: [{ name: 'gs-small-in', partitions: 1, config: {} }],
      nodes: [{ id: 'only', kind: 'source', config: { topic: 'gs-small-in' } }],
      edges: [],
      layout: { nodes: { only: { x: 0, y: 0 } } },
    }),
  );
  await expect(page.locator('.react-flow__viewport')).not.toHaveCSS(
    'transform',
    /matrix\(1, 0, 0, 1,/,
  );
  // 1–3: New (back to 100 %), four nodes, three edges
  await designer.newDocument();
  await expect(page.locator('.react-flow__viewport')).toHaveCSS('transform', /matrix\(1, 0, 0, 1,/);
  await designer.dropNode('source', { x: 120, y: 200 }, 'source1');
  await designer.dropNode('filter', { x: 330, y: 200 }, 'filter1');
  await designer.dropNode('mapValues', { x: 540, y: 200 }, 'mapValues1');
  await designer.dropNode('sink', { x: 750, y: 200 }, 'sink1');
  await designer.connect('source1', 'filter1');
  await designer.connect('filter1', 'mapValues1');
  await designer.connect('mapValues1', 'sink1');
  await expect(designer.edges).toHaveCount(3);

  // 4: the topics
  await designer.declareTopic('my-orders', 2);
  await designer.declareTopic('my-large-orders', 2);

  // 5: the settings; the value serde is json already
  await designer.configure('source1', { topic: 'my-orders' });
  await expect(designer.field('source1', 'valueSerde')).toHaveValue('json');
  await designer.configure('filter1', { expression: 'value.amount > 10' });
  await designer.configure('mapValues1', {
    expression: '{"user": value.user, "total": value.amount * 2}',
  });
  await designer.configure('sink1', { topic: 'my-large-orders' });
  await designer.expectNoProblems();

  // 6: Ctrl+Enter deploys
  await designer.canvas.click({ position: { x: 600, y: 450 } });
  await page.keyboard.press('Control+Enter');
  await expect(designer.state).toHaveText('RUNNING');

  // 7: produce, read the output
  await topics.open();
  await topics.choose('my-orders');
  await topics.produce({ key: 'alice', value: '{"user": "alice", "amount": 42}' });
  await topics.produce({ key: 'bob', value: '{"user": "bob", "amount": 5}' });
  await topics.choose('my-large-orders');
  await expect(page.getByTestId('record-value')).toHaveText(['{"user":"alice","total":84}']);
  // one record is "1 record", not "1 records"
  await expect(page.getByTestId('topic-my-large-orders')).toContainText('2 partitions · 1 record');
  await expect(page.getByTestId('topic-my-orders')).toContainText('2 partitions · 2 records');

  // 8: the counters and the tasks
  await topics.backToDesigner();
  await designer.expectCount('source1', 2);
  await designer.expectCount('filter1', 2);
  await designer.expectCount('mapValues1', 1);
  await designer.expectCount('sink1', 1);
  await designer.bottomTab('tasks');
  await expect(page.getByTestId('tasks-table').locator('tbody tr')).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('getting-started.png') });

  // 9: stop, start, export
  await page.getByTestId('stop').click();
  await expect(designer.state).toHaveText('NOT RUNNING');
  await page.getByTestId('start').click();
  await expect(designer.state).toHaveText('RUNNING');
  const exported = await designer.exportJson();
  expect(exported.name).toBe('my-streams-app.topology.json');
  expect(JSON.parse(exported.text)).toMatchObject({ application: { id: 'my-streams-app' } });
});
