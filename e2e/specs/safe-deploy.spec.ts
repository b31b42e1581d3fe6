// Safe deploy (issue 23): a valid new version that fails when it starts — here a global table
// whose topic holds a record its long serde cannot read, which only shows when the table is
// loaded at start — leaves the previous version RUNNING, started again from its committed
// offsets; the reason is in the deploy's notice, in Problems and in the badge's tooltip, and
// still there after a reload.
import { test, expect } from '../support/fixtures.js';

function pipeline(withGlobalTable: boolean) {
  return {
    schemaVersion: 1,
    application: { id: 'e2e-safe', config: { 'commit.interval.ms': 100 } },
    topics: [
      { name: 'e2e-safe-in', partitions: 1, config: {} },
      { name: 'e2e-safe-out', partitions: 1, config: {} },
      ...(withGlobalTable ? [{ name: 'e2e-safe-prices', partitions: 1, config: {} }] : []),
    ],
    nodes: [
      { id: 'in', kind: 'source', config: { topic: 'e2e-safe-in', valueSerde: 'string' } },
      { id: 'out', kind: 'sink', config: { topic: 'e2e-safe-out', valueSerde: 'string' } },
      ...(withGlobalTable
        ? [
            {
              id: 'prices',
              kind: 'globalTable',
              config: { topic: 'e2e-safe-prices', valueSerde: 'long' },
            },
          ]
        : []),
    ],
    edges: [{ from: 'in', to: 'out' }],
    layout: {
      nodes: {
        in: { x: 40, y: 40 },
        out: { x: 340, y: 40 },
        ...(withGlobalTable ? { prices: { x: 40, y: 240 } } : {}),
      },
    },
  };
}

test('a deploy whose new version fails at start leaves the previous one running, with the reason after a reload', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('safe-v1.json', JSON.stringify(pipeline(false)));
  await designer.expectNoProblems();
  await designer.deploy();
  await topics.open();
  await topics.choose('e2e-safe-in');
  await topics.produce({ key: 'k', value: 'a' });
  await topics.backToDesigner();
  await designer.expectCount('in', 1);

  // three bytes where the new version's global table expects 8-byte longs
  const created = await page.request.post('/trpc/topics.create', {
    data: { name: 'e2e-safe-prices', partitions: 1 },
  });
  expect(created.ok()).toBe(true);
  const produced = await page.request.post('/trpc/topics.produce', {
    data: {
      topic: 'e2e-safe-prices',
      key: 'k',
      value: 'abc',
      keySerde: 'string',
      valueSerde: 'string',
    },
  });
  expect(produced.ok()).toBe(true);

  await designer.importJson('safe-v2.json', JSON.stringify(pipeline(true)));
  await designer.expectNoProblems();
  const deploy = page.getByTestId('deploy');
  await deploy.click();
  await expect(deploy).toBeEnabled();
  await expect(designer.notice).toHaveAttribute('data-tone', 'error');
  await expect(designer.notice).toContainText(
    'the previous version runs again, from its committed offsets',
  );
  await expect(designer.state).toHaveText('RUNNING');
  await expect(page.getByTestId('deploy-problems')).toContainText('previous version runs again');

  await page.reload();
  await expect(designer.canvas).toBeVisible();
  await expect(designer.state).toHaveText('RUNNING');
  await expect(designer.state).toHaveAttribute(
    'title',
    /Last deploy failed at .* \(the previous version kept running\)/,
  );
  // the designer opens what runs: the previous version, without the global table
  await expect(designer.node('in')).toBeVisible();
  await expect(designer.node('prices')).toHaveCount(0);
  await designer.bottomTab('problems');
  await expect(page.getByTestId('last-deploy-failure')).toContainText('the previous version runs');
  const reason = await page.getByTestId('last-deploy-failure-message').textContent();
  expect(reason?.length ?? 0).toBeGreaterThan(0);
  await page.screenshot({ path: test.info().outputPath('safe-deploy-after-reload.png') });

  // and it still processes, from where it stopped: b counted once, a not again
  await topics.open();
  await topics.choose('e2e-safe-in');
  await topics.produce({ key: 'k', value: 'b' });
  await expect(async () => {
    await topics.choose('e2e-safe-out');
    expect(await topics.values()).toEqual(['b', 'a']);
  }).toPass({ timeout: 15_000 });
});

/** Words counted per word; the count's store named by Kafka Streams' generator. */
function wordCount(filterFirst: boolean) {
  const ids = ['words', ...(filterFirst ? ['nonEmpty'] : []), 'byWord', 'count'];
  return {
    schemaVersion: 1,
    application: { id: 'e2e-breaks', config: { 'commit.interval.ms': 100 } },
    topics: [{ name: 'e2e-breaks-words', partitions: 1, config: {} }],
    nodes: [
      { id: 'words', kind: 'source', config: { topic: 'e2e-breaks-words', valueSerde: 'string' } },
      ...(filterFirst
        ? [{ id: 'nonEmpty', kind: 'filter', config: { expression: 'value != ""' } }]
        : []),
      { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
      { id: 'count', kind: 'count', config: {} },
    ],
    edges: ids.slice(1).map((to, i) => ({ from: ids[i]!, to })),
    layout: { nodes: Object.fromEntries(ids.map((id, i) => [id, { x: 40 + i * 300, y: 40 }])) },
  };
}

test('a deploy that renumbers a store says what state it leaves behind before it deploys', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.importJson('word-count.json', JSON.stringify(wordCount(false)));
  await designer.deploy();
  await expect(designer.notice).toContainText('Deployed e2e-breaks');

  // a filter inserted before the count renumbers its generated store and repartition topic
  await designer.importJson('word-count-filtered.json', JSON.stringify(wordCount(true)));
  await page.getByTestId('deploy').click();
  const dialog = page.getByTestId('deploy-breaks-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('deploy-break-store')).toContainText(
    'KSTREAM-AGGREGATE-STATE-STORE-0000000002',
  );
  await expect(dialog.getByTestId('deploy-break-new-store')).toContainText(
    'KSTREAM-AGGREGATE-STATE-STORE-0000000003',
  );
  await expect(dialog.getByTestId('deploy-break-repartition')).toContainText(
    'e2e-breaks-KSTREAM-AGGREGATE-STATE-STORE-0000000002-repartition',
  );
  // closed: nothing deployed, the running version is still the first
  const deployedNodes = async () => {
    const response = await page.request.get('/trpc/app.status');
    const view = (await response.json()) as {
      result: { data: { topology: { nodes: { id: string }[] } } };
    };
    return view.result.data.topology.nodes.map((n) => n.id);
  };
  await dialog.getByTestId('deploy-breaks-dialog-close').click();
  await expect(dialog).toBeHidden();
  expect(await deployedNodes()).not.toContain('nonEmpty');

  await page.getByTestId('deploy').click();
  await dialog.getByTestId('deploy-breaks-confirm').click();
  await expect(designer.notice).toContainText('Deployed e2e-breaks');
  await expect.poll(deployedNodes).toContain('nonEmpty');
});
