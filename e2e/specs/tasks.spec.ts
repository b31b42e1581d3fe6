// A 3-partition source runs as three tasks, 0_0, 0_1 and 0_2 (Kafka Streams: one task per
// sub-topology and input partition), visible in the status and in the per-task metrics.
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'e2e-tasks', config: { 'commit.interval.ms': 100 } },
  topics: [
    { name: 'clicks', partitions: 3, config: {} },
    { name: 'clicks-copy', partitions: 3, config: {} },
  ],
  nodes: [
    {
      id: 'clicks',
      kind: 'source',
      config: { topic: 'clicks', keySerde: 'string', valueSerde: 'string' },
    },
    {
      id: 'copy',
      kind: 'sink',
      config: { topic: 'clicks-copy', keySerde: 'string', valueSerde: 'string' },
    },
  ],
  edges: [{ from: 'clicks', fromPort: 'out', to: 'copy', toPort: 'in' }],
  layout: { nodes: { clicks: { x: 0, y: 0 }, copy: { x: 320, y: 0 } } },
};

test('a 3-partition source shows tasks 0_0, 0_1 and 0_2 in the status and the metrics', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('tasks.json', JSON.stringify(topology));
  await expect(designer.node('copy')).toBeVisible();
  await designer.deploy();

  await designer.bottomTab('tasks');
  const rows = page.getByTestId('tasks-table').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  for (const task of ['0_0', '0_1', '0_2']) {
    await expect(page.getByTestId(`task-${task}`)).toContainText('RUNNING');
    await expect(page.getByTestId(`task-${task}`)).toContainText(`clicks-${task.slice(2)}`);
  }

  // two records into each partition, chosen explicitly in the produce form
  await topics.open();
  await topics.choose('clicks');
  for (const partition of ['0', '1', '2']) {
    await page.getByTestId('produce-partition').selectOption(partition);
    for (const n of [1, 2]) {
      const ack = await topics.produce({ key: `k${partition}-${n}`, value: `click ${n}` });
      expect(ack.partition).toBe(Number(partition));
    }
  }
  await topics.backToDesigner();
  await designer.bottomTab('tasks');
  for (const task of ['0_0', '0_1', '0_2']) {
    await expect(page.getByTestId(`task-processed-${task}`)).toHaveAttribute('data-total', '2');
  }
  await designer.expectCount('clicks', 6);
  await designer.expectCount('copy', 6);

  // every record is consumed and (commit.interval.ms is short) committed: the lag is 0 per task
  // and the source's backlog bar is empty and green
  for (const task of ['0_0', '0_1', '0_2'])
    await expect(page.getByTestId(`task-lag-${task}`)).toHaveText('0');
  // task health: nothing dropped, nothing to restore (stateless), an end-to-end latency measured
  for (const task of ['0_0', '0_1', '0_2']) {
    await expect(page.getByTestId(`task-dropped-${task}`)).toHaveText('0');
    await expect(page.getByTestId(`task-restore-${task}`)).toHaveText('done');
    await expect(page.getByTestId(`task-e2e-${task}`)).toHaveText(/^\d+\.\d ms$/);
  }
  const lag = designer.node('clicks').getByTestId('source-lag');
  await expect(lag).toHaveAttribute('data-lag', '0');
  await expect(lag).toHaveClass(/sw-lag--green/);

  // The selected node task by task: each task's copy of the sink, its thread and records.
  await designer.select('copy');
  const perTask = page.getByTestId('node-task-row');
  await expect(perTask).toHaveCount(3);
  await expect(perTask.locator('td:first-child')).toHaveText(['0_0', '0_1', '0_2']);
  await expect(page.getByTestId('node-task-total')).toHaveText(['2', '2', '2']);
  await expect(perTask.first()).toContainText('thread 1');
  // the rate over the last 5 s falls to 0 once nothing flows
  await expect(page.getByTestId('node-task-rate')).toHaveText(['0.0', '0.0', '0.0'], {
    timeout: 15_000,
  });
});
