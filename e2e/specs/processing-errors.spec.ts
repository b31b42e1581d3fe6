// An expression that fails on a record at run time: the processing exception handler acts as
// configured, as in Kafka Streams. log-and-fail (the default) stops the task and the UI shows
// the error with the record; log-and-continue skips the record and keeps processing.
import { test, expect } from '../support/fixtures.js';

function topology(appId: string, handler: 'log-and-fail' | 'log-and-continue') {
  return {
    schemaVersion: 1,
    application: {
      id: appId,
      config: { 'commit.interval.ms': 100, 'processing.exception.handler': handler },
    },
    topics: [
      { name: `${appId}-in`, partitions: 1, config: {} },
      { name: `${appId}-out`, partitions: 1, config: {} },
    ],
    nodes: [
      { id: 'payments', kind: 'source', config: { topic: `${appId}-in` } },
      { id: 'double', kind: 'mapValues', config: { expression: '{"total": value.amount * 2}' } },
      { id: 'out', kind: 'sink', config: { topic: `${appId}-out` } },
    ],
    edges: [
      { from: 'payments', fromPort: 'out', to: 'double', toPort: 'in' },
      { from: 'double', fromPort: 'out', to: 'out', toPort: 'in' },
    ],
    layout: {
      nodes: { payments: { x: 0, y: 0 }, double: { x: 300, y: 0 }, out: { x: 600, y: 0 } },
    },
  };
}

test('log-and-fail: the task stops and the error is shown with its record', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('fail.json', JSON.stringify(topology('e2e-fail', 'log-and-fail')));
  await expect(designer.node('double')).toBeVisible();
  await designer.deploy();

  await topics.open();
  await topics.choose('e2e-fail-in');
  await topics.produce({ key: 'p1', value: '{"currency": "EUR"}' });
  await topics.backToDesigner();

  await designer.bottomTab('errors');
  const error = page.getByTestId('processing-error').first();
  await expect(error).toBeVisible();
  await expect(error).toContainText('task failed');
  await expect(error.getByTestId('processing-error-message')).toContainText('amount');
  await expect(error.getByTestId('processing-error-record')).toContainText('"p1"');
  await expect(error.getByTestId('processing-error-record')).toContainText('EUR');
  await expect(page.getByTestId('node-errors-double')).toHaveText('1 processing error');
  await designer.bottomTab('tasks');
  await expect(page.getByTestId('task-0_0')).not.toContainText('RUNNING');
  // the runtime keeps serving
  expect((await page.request.get('/healthz')).ok()).toBe(true);
});

test('log-and-continue: the failing record is skipped and processing goes on', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson(
    'continue.json',
    JSON.stringify(topology('e2e-continue', 'log-and-continue')),
  );
  await expect(designer.node('double')).toBeVisible();
  await designer.deploy();

  await topics.open();
  await topics.choose('e2e-continue-in');
  await topics.produce({ key: 'p1', value: '{"currency": "EUR"}' });
  await topics.produce({ key: 'p2', value: '{"amount": 21}' });
  await topics.choose('e2e-continue-out');
  await expect(topics.rows).toHaveCount(1);
  expect((await topics.values()).map((v) => JSON.parse(v) as unknown)).toEqual([{ total: 42 }]);
  await topics.backToDesigner();

  await expect(designer.state).toHaveText('RUNNING');
  await designer.bottomTab('errors');
  const error = page.getByTestId('processing-error').first();
  await expect(error).toContainText('skipped');
  await expect(error.getByTestId('processing-error-record')).toContainText('"p1"');
  await designer.expectCount('payments', 2);
  await designer.expectCount('out', 1);
});
