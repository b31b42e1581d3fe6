// The live counters belong to the deployed topology, not to whatever canvas shares its
// application id: a design edited since its deploy keeps the counters of the nodes that run as
// drawn and says which do not; a New design with the same application id and node ids shows
// none of the running app's numbers; importing the deployed document brings them back.
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'e2e-live-match', config: {} },
  topics: [
    { name: 'e2e-lm-in', partitions: 1, config: {} },
    { name: 'e2e-lm-out', partitions: 1, config: {} },
  ],
  nodes: [
    { id: 'source1', kind: 'source', config: { topic: 'e2e-lm-in' } },
    { id: 'sink1', kind: 'sink', config: { topic: 'e2e-lm-out' } },
  ],
  edges: [{ from: 'source1', to: 'sink1' }],
  layout: { nodes: { source1: { x: 0, y: 0 }, sink1: { x: 300, y: 0 } } },
};

test('counters show only on the nodes the runtime runs as drawn', async ({ page, designer }) => {
  await designer.open();
  await designer.importJson('live-match.json', JSON.stringify(topology));
  await designer.deploy();
  // RUNNING may still be the previous spec's app: the notice says this one is deployed
  await expect(designer.notice).toContainText('Deployed e2e-live-match');
  for (const key of ['a', 'b', 'c']) {
    const produced = await page.request.post('/trpc/topics.produce', {
      data: { topic: 'e2e-lm-in', key, value: '{"n": 1}' },
    });
    expect(produced.ok(), await produced.text()).toBe(true);
  }
  await designer.expectCount('source1', 3);
  await expect(designer.count('source1')).toHaveAttribute('data-live', 'live');

  // moving a node changes nothing that runs
  await designer.node('sink1').dragTo(designer.canvas, { targetPosition: { x: 700, y: 420 } });
  await expect(page.getByTestId('modified-since-deploy')).toHaveCount(0);

  // edited since the deploy: the unchanged source keeps its counters, the others say why not
  await designer.dropNode('filter', { x: 400, y: 520 }, 'filter1');
  await designer.configure('sink1', { topic: 'e2e-lm-elsewhere' });
  await expect(page.getByTestId('modified-since-deploy')).toContainText(
    'edited since deploy: 1 changed, 1 added',
  );
  // the note gives way (ellipsis, full text in its title) before the view switch is pushed off
  await expect(page.getByTestId('view-topics')).toBeInViewport({ ratio: 1 });
  await designer.expectCount('source1', 3);
  await expect(designer.count('sink1')).toHaveAttribute('data-live', 'changed');
  await expect(designer.count('sink1')).toHaveText('changed since deploy');
  await expect(designer.count('filter1')).toHaveAttribute('data-live', 'added');
  await expect(designer.count('filter1')).toHaveText('not deployed');

  // a New design with the same application id and the same node ids is not the deployment
  await designer.newDocument();
  await designer.setApplicationId('e2e-live-match');
  await designer.dropNode('source', { x: 200, y: 200 }, 'source1');
  await designer.configure('source1', { topic: 'e2e-lm-in' });
  await expect(page.getByTestId('not-deployed')).toHaveText(
    'not deployed · runtime runs e2e-live-match',
  );
  await expect(designer.count('source1')).toHaveCount(0);
  await expect(designer.node('source1')).not.toContainText('3');

  // the deployed document imported again is the deployment again
  await designer.importJson('live-match.json', JSON.stringify(topology));
  await designer.expectCount('source1', 3);
  await expect(page.getByTestId('not-deployed')).toHaveCount(0);
  await expect(page.getByTestId('modified-since-deploy')).toHaveCount(0);
});
