// The walking skeleton as a new user meets it: build source → filter → mapValues → sink from an
// empty canvas with the mouse, configure it, deploy, produce records from the UI, and watch the
// counters and the sink topic; then export, re-import and export again, byte for byte.
import { test, expect } from '../support/fixtures.js';

// (key, amount): the filter `value.amount > 10` passes 12, 50, 11 and 100; 10 itself does not.
const orders = [
  { key: 'u1', amount: 5 },
  { key: 'u2', amount: 12 },
  { key: 'u3', amount: 50 },
  { key: 'u4', amount: 3 },
  { key: 'u1', amount: 11 },
  { key: 'u2', amount: 10 },
  { key: 'u3', amount: 100 },
  { key: 'u4', amount: 7 },
];
const passing = orders.filter((o) => o.amount > 10);

test('build, deploy and watch a topology, then round-trip its JSON', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.newDocument();

  await test.step('drag four nodes from the palette', async () => {
    // positions are relative to the canvas (about 880 × 590 in a 1440 × 900 window)
    await designer.dropNode('source', { x: 130, y: 120 }, 'source1');
    await designer.dropNode('filter', { x: 350, y: 250 }, 'filter1');
    await designer.dropNode('mapValues', { x: 570, y: 120 }, 'mapValues1');
    await designer.dropNode('sink', { x: 790, y: 250 }, 'sink1');
  });

  await test.step('connect them', async () => {
    await designer.connect('source1', 'filter1');
    await designer.connect('filter1', 'mapValues1');
    await designer.connect('mapValues1', 'sink1');
    await expect(designer.edges).toHaveCount(3);
  });

  await test.step('configure the nodes, the topics and the application', async () => {
    await designer.configure('source1', { topic: 'orders' });
    await designer.configure('filter1', { expression: 'value.amount > 10' });
    await designer.configure('mapValues1', {
      expression: '{"user": value.user, "total": value.amount * 2}',
    });
    await designer.configure('sink1', { topic: 'big-orders' });
    await designer.declareTopic('orders', 3);
    await designer.declareTopic('big-orders', 1);
    await designer.setApplicationId('e2e-orders');
    await designer.expectNoProblems();
  });

  await test.step('deploy: one task per partition of the source topic', async () => {
    await designer.deploy();
    await designer.bottomTab('tasks');
    for (const task of ['0_0', '0_1', '0_2'])
      await expect(page.getByTestId(`task-${task}`)).toBeVisible();
    await expect(page.getByTestId('tasks-table').locator('tbody tr')).toHaveCount(3);
  });

  await test.step(`produce ${orders.length} orders from the Topics view`, async () => {
    await topics.open();
    await topics.choose('orders');
    for (const o of orders) {
      await topics.produce({
        key: o.key,
        value: JSON.stringify({ user: o.key, amount: o.amount }),
      });
    }
  });

  await test.step('the counters reach exactly the expected numbers', async () => {
    await topics.backToDesigner();
    await designer.expectCount('source1', orders.length);
    await designer.expectCount('filter1', orders.length);
    await designer.expectCount('mapValues1', passing.length);
    await designer.expectCount('sink1', passing.length);
    await page.screenshot({ path: test.info().outputPath('counters.png') });
  });

  await test.step('the sink topic holds the reshaped orders', async () => {
    await designer.select('sink1');
    await page.getByTestId('show-records-sink1').click();
    await expect(page.getByTestId('records-view')).toContainText('Latest records of big-orders');
    await expect(topics.rows).toHaveCount(passing.length);
    const values = (await topics.values()).map((v) => JSON.parse(v) as unknown);
    const expected = passing.map((o) => ({ user: o.key, total: o.amount * 2 }));
    const byJson = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect(values.sort(byJson)).toEqual(expected.sort(byJson));
    await topics.backToDesigner();
  });

  await test.step('export, import, export: byte-identical', async () => {
    const first = await designer.exportJson();
    expect(first.name).toBe('e2e-orders.topology.json');
    const parsed = JSON.parse(first.text) as {
      nodes: { id: string }[];
      topics: { name: string; partitions: number }[];
    };
    expect(parsed.nodes.map((n) => n.id)).toEqual(['source1', 'filter1', 'mapValues1', 'sink1']);
    await designer.newDocument();
    await designer.importJson(first.name, first.text);
    await expect(designer.node('mapValues1')).toBeVisible();
    await expect(designer.edges).toHaveCount(3);
    const second = await designer.exportJson();
    expect(second.text).toBe(first.text);
  });
});
