// KTable#transformValues as a user builds it: dropped from the palette's custom group onto a
// table, its transformer named in the inspector (a value transformer the runtime was started with,
// e2e/support/operator-code.mjs), the Code dialog writes KTable#transformValues, and the deployed
// app forwards every change of the table through the transformer.
import { test, expect } from '../support/fixtures.js';

const topology = {
  schemaVersion: 1,
  application: { id: 'masking-app', config: { 'commit.interval.ms': 100 } },
  topics: ['tv-cards', 'tv-masked'].map((name) => ({ name, partitions: 1, config: {} })),
  nodes: [{ id: 'cards', kind: 'table', config: { topic: 'tv-cards' } }],
  edges: [],
  layout: { nodes: { cards: { x: 40, y: 40 } } },
};

test('a KTable#transformValues: from the palette, named in the inspector, exported and deployed', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('masking.json', JSON.stringify(topology));
  // Filed with the custom processors: user code the runtime was started with.
  await expect(
    page.getByTestId('palette-group-custom').getByTestId('palette-transformValues'),
  ).toBeVisible();
  await designer.dropNode('transformValues', { x: 360, y: 260 }, 'transformValues1');
  await designer.dropNode('toStream', { x: 620, y: 120 }, 'toStream1');
  await designer.dropNode('sink', { x: 880, y: 260 }, 'sink1');
  await designer.connect('cards', 'transformValues1');
  await designer.connect('transformValues1', 'toStream1');
  await designer.connect('toStream1', 'sink1');
  await designer.configure('transformValues1', { transformer: 'maskCard' });
  await designer.configure('sink1', { topic: 'tv-masked' });
  await designer.expectNoProblems();
  await expect(designer.node('transformValues1')).toContainText('maskCard');

  await page.getByTestId('open-code').click();
  await expect(page.getByTestId('code-text')).toContainText(
    `import { maskCard } from './value-transformers.js';`,
  );
  await expect(page.getByTestId('code-text')).toContainText(
    `const transformValues1 = cards.transformValues(maskCard);`,
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('code-dialog')).toHaveCount(0);

  await designer.deploy();
  await topics.open();
  await topics.choose('tv-cards');
  await topics.produce({ key: 'ann', value: JSON.stringify({ card: '4111-1111', limit: 500 }) });
  await topics.produce({ key: 'bob', value: JSON.stringify({ card: '5500-0000', limit: 900 }) });
  await expect(async () => {
    await topics.choose('tv-masked');
    await expect(topics.rows).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  expect((await topics.values()).sort()).toEqual([
    '{"card":"****","limit":500}',
    '{"card":"****","limit":900}',
  ]);
  await page.screenshot({ path: test.info().outputPath('transform-values.png') });
});
