// A runtime started with a token refuses every call without it; the web app opened with
// `?token=...` sends it on every request and on the metrics stream (SSE), and works normally.
import { test, expect } from '../support/fixtures.js';
import { E2E_TOKEN, tokenUrl } from '../support/run-settings.js';

test('the designer works against a token-protected runtime when opened with ?token=', async ({
  page,
  designer,
  topics,
}) => {
  const refused = await page.request.get(`${tokenUrl()}/trpc/app.status`);
  expect(refused.status()).toBe(401);

  await designer.open(`${tokenUrl()}/?token=${E2E_TOKEN}`);
  // the status query answered and the metrics stream is connected
  await expect(designer.state).toHaveText('NOT DEPLOYED');
  await expect(designer.state).toHaveAttribute('data-connection', 'open');
  await designer.dropNode('source', { x: 200, y: 200 }, 'source1');
  await designer.configure('source1', { topic: 'secured' });
  await designer.declareTopic('secured', 1);
  await designer.dropNode('sink', { x: 520, y: 200 }, 'sink1');
  await designer.configure('sink1', { topic: 'secured-out' });
  await designer.declareTopic('secured-out', 1);
  await designer.connect('source1', 'sink1');
  await designer.deploy();
  await topics.open();
  await topics.choose('secured');
  await topics.produce({ key: 'k', value: '{"n": 1}' });
  await topics.backToDesigner();
  // counters arrive over the metrics stream, which carries the token as a query parameter
  await designer.expectCount('source1', 1);
  await designer.expectCount('sink1', 1);
});
