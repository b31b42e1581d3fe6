// One truth for validity (issue 23): mistakes that used to validate and then fail at start or on
// the first record are Problems before Deploy — with the node, the path and the fix — and Deploy
// refuses them, leaving what runs alone. Built with the mouse from an empty canvas.
import { test, expect } from '../support/fixtures.js';

test('a join over topics with other partition counts and a null-unsafe joiner: Problems, then Deploy refuses', async ({
  page,
  designer,
}) => {
  // "users" exists already with 2 partitions; the design will declare 3
  const created = await page.request.post('/trpc/topics.create', {
    data: { name: 'e2e-val-users', partitions: 2 },
  });
  expect(created.ok()).toBe(true);

  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 120, y: 100 }, 'source1');
  await designer.dropNode('table', { x: 120, y: 330 }, 'table1');
  await designer.dropNode('streamTableJoin', { x: 420, y: 200 }, 'streamTableJoin1');
  await designer.dropNode('sink', { x: 720, y: 200 }, 'sink1');
  await designer.connect('source1', 'streamTableJoin1', 'left');
  await designer.connect('table1', 'streamTableJoin1', 'right');
  await designer.connect('streamTableJoin1', 'sink1');
  await expect(designer.edges).toHaveCount(3);

  await designer.configure('source1', { topic: 'e2e-val-orders', valueSerde: 'string' });
  await designer.configure('table1', { topic: 'e2e-val-users', valueSerde: 'string' });
  await designer.configure('streamTableJoin1', { type: 'left', joiner: 'left + "+" + right' });
  await designer.configure('sink1', { topic: 'e2e-val-out', valueSerde: 'string' });
  await designer.declareTopic('e2e-val-orders', 3);
  await designer.declareTopic('e2e-val-users', 3);
  await designer.declareTopic('e2e-val-out', 1);
  await designer.setApplicationId('e2e-validity');

  await designer.bottomTab('problems');
  const problems = page.getByTestId('problem-list').getByTestId('problem');
  const copartition = problems.filter({ hasText: 'same number of partitions' });
  await expect(copartition).toHaveCount(1);
  await expect(copartition).toContainText(
    '"e2e-val-orders" has 3 (declared), "e2e-val-users" has 2 (it exists with 2; the 3 declared are not applied to an existing topic)',
  );
  await expect(copartition).toHaveAttribute('data-node-id', 'streamTableJoin1');
  await expect(copartition.getByTestId('problem-fix')).toContainText(
    'delete and recreate "e2e-val-users"',
  );
  const nullable = problems.filter({ hasText: 'is null when the other side has no match' });
  await expect(nullable).toHaveCount(1);
  await expect(nullable).toContainText('nodes[2].config.joiner');
  await expect(nullable.getByTestId('problem-fix')).toContainText('right == null ?');

  // Deploy anyway: the runtime refuses with the same problems and nothing is deployed
  const deploy = page.getByTestId('deploy');
  await deploy.click();
  await expect(deploy).toBeEnabled();
  await expect(
    page.getByText('The runtime refused the deploy: nothing was deployed'),
  ).toBeVisible();
  const refused = page.getByTestId('deploy-problems').getByTestId('problem');
  await expect(refused).toHaveCount(2);
  await expect(refused.filter({ hasText: 'Topics not co-partitioned' })).toHaveCount(1);
  await expect(designer.notice).toContainText('Not deployed: 2 problems');
  await page.screenshot({ path: test.info().outputPath('validity-refused.png') });

  // Fixed as the problems say: orders with the count users has, the null side guarded
  await designer.sideTab('topics');
  const orders = page.getByTestId('topic-partitions-e2e-val-orders');
  await orders.fill('2');
  await orders.press('Enter');
  await designer.configure('streamTableJoin1', {
    joiner: 'right == null ? left : left + "+" + right',
  });
  await designer.expectNoProblems();
  await designer.deploy();
});

test('a windowed count into a sink without a windowed key serde: Problems, Deploy refuses, then the fix deploys', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 90, y: 120 }, 'source1');
  await designer.dropNode('groupByKey', { x: 230, y: 300 }, 'groupByKey1');
  await designer.dropNode('windowedBy', { x: 370, y: 120 }, 'windowedBy1');
  await designer.dropNode('windowedCount', { x: 510, y: 300 }, 'windowedCount1');
  await designer.dropNode('toStream', { x: 650, y: 120 }, 'toStream1');
  await designer.dropNode('sink', { x: 790, y: 300 }, 'sink1');
  await designer.connect('source1', 'groupByKey1');
  await designer.connect('groupByKey1', 'windowedBy1');
  await designer.connect('windowedBy1', 'windowedCount1');
  await designer.connect('windowedCount1', 'toStream1');
  await designer.connect('toStream1', 'sink1');
  await expect(designer.edges).toHaveCount(5);

  await designer.configure('source1', { topic: 'e2e-val-clicks' });
  await designer.configure('windowedBy1', { window: 'tumbling', 'window-sizeMs': '60000' });
  await designer.configure('sink1', { topic: 'e2e-val-counts', valueSerde: 'long' });
  await designer.declareTopic('e2e-val-clicks', 1);
  await designer.declareTopic('e2e-val-counts', 1);
  await designer.setApplicationId('e2e-validity-windowed');

  await designer.bottomTab('problems');
  const problem = page.getByTestId('problem-list').getByTestId('problem');
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText(
    'the keys reaching this sink are windowed (by "windowedBy1"): the string key serde cannot write a windowed key',
  );
  await expect(problem).toContainText('nodes[5].config.keySerde');
  await expect(problem.getByTestId('problem-fix')).toContainText(
    'set windowedKey to "time" with windowSizeMs 60000',
  );

  const deploy = page.getByTestId('deploy');
  await deploy.click();
  await expect(deploy).toBeEnabled();
  await expect(page.getByTestId('deploy-problems').getByTestId('problem')).toContainText(
    'cannot write a windowed key',
  );

  await designer.configure('sink1', { windowedKey: 'time', windowSizeMs: '60000' });
  await designer.expectNoProblems();
  await designer.deploy();
});
