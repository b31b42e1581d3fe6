// Authoring: the palette's groups, auto-layout with ELK, the plan drawn around the nodes
// (sub-topologies, the repartition topic between them, the state store under its owner) and the
// typed row editors for a split's branches — all with real pointer and keyboard input.
import { test, expect } from '../support/fixtures.js';
import type { Locator } from '@playwright/test';

/** Word count without positions: the canvas falls back to a grid until laid out. */
const wordCount = {
  schemaVersion: 1,
  application: { id: 'authoring-wc', config: { 'commit.interval.ms': 100 } },
  topics: [
    { name: 'auth-lines', partitions: 2, config: {} },
    { name: 'auth-counts', partitions: 2, config: {} },
  ],
  nodes: [
    { id: 'out', kind: 'sink', config: { topic: 'auth-counts', valueSerde: 'long' } },
    { id: 'changes', kind: 'toStream', config: {} },
    { id: 'perWord', kind: 'count', config: { store: 'word-counts' } },
    { id: 'byWord', kind: 'groupBy', config: { expression: 'value' } },
    { id: 'words', kind: 'flatMapValues', config: { expression: 'value.split(" ")' } },
    { id: 'lines', kind: 'source', config: { topic: 'auth-lines', valueSerde: 'string' } },
  ],
  edges: [
    { from: 'lines', to: 'words' },
    { from: 'words', to: 'byWord' },
    { from: 'byWord', to: 'perWord' },
    { from: 'perWord', to: 'changes' },
    { from: 'changes', to: 'out' },
  ],
  layout: { nodes: {} },
};

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

test('the palette groups every kind: sources, stateless, stateful, windows, joins, sinks, custom processors', async ({
  page,
  designer,
}) => {
  await designer.open();
  const groups = page.locator('.sw-palette__group h3');
  await expect(groups).toHaveText([
    'Sources',
    'Stateless',
    'Stateful',
    'Windows',
    'Joins',
    'Sinks',
    'Custom processors',
  ]);
  const custom = page.getByTestId('palette-group-custom');
  await expect(custom.getByTestId('palette-process')).toBeVisible();
  await expect(custom.getByTestId('palette-processValues')).toBeVisible();
  const joins = page.getByTestId('palette-group-joins');
  await expect(joins.getByTestId('palette-streamStreamJoin')).toBeVisible();
  const windows = page.getByTestId('palette-group-windows');
  await expect(windows.getByTestId('palette-windowedBy')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('palette.png') });
});

test('auto-layout lays the word count out left to right and draws its sub-topologies, repartition topic and store', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.importJson('wc.json', JSON.stringify(wordCount));
  await expect(designer.node('lines')).toBeVisible();

  await page.getByTestId('auto-layout').click();
  const order = ['lines', 'words', 'byWord', 'perWord', 'changes', 'out'];
  await expect
    .poll(async () => {
      const xs = await Promise.all(order.map(async (id) => (await box(designer.node(id))).x));
      return xs.every((x, i) => i === 0 || x > xs[i - 1]!);
    })
    .toBe(true);

  // topology-model's plan: groupBy repartitions, so the word count runs as two sub-topologies
  const first = page.getByTestId('subtopology-0');
  const second = page.getByTestId('subtopology-1');
  await expect(first).toHaveAttribute('data-nodes', 'lines words byWord');
  await expect(second).toHaveAttribute('data-nodes', 'perWord changes out');
  const repartition = page.getByTestId('repartition-authoring-wc-word-counts-repartition');
  await expect(repartition).toHaveAttribute('data-from', 'byWord');
  await expect(repartition).toHaveAttribute('data-to', 'perWord');
  const store = page.getByTestId('store-word-counts');
  await expect(store).toHaveAttribute('data-owner', 'perWord');

  // drawn where they belong: each box around its nodes, the topic between the two boxes' nodes,
  // the store under the count
  const [b0, b1, byWord, perWord, rep, st] = await Promise.all([
    box(first),
    box(second),
    box(designer.node('byWord')),
    box(designer.node('perWord')),
    box(repartition),
    box(store),
  ]);
  expect(b0.x).toBeLessThanOrEqual(byWord.x);
  expect(b0.x + b0.width).toBeGreaterThanOrEqual(byWord.x + byWord.width);
  expect(b1.x).toBeLessThanOrEqual(perWord.x);
  expect(rep.x + rep.width / 2).toBeGreaterThan(byWord.x + byWord.width / 2);
  expect(rep.x + rep.width / 2).toBeLessThan(perWord.x + perWord.width / 2);
  expect(st.y).toBeGreaterThan(perWord.y + perWord.height - 2);
  expect(st.y + st.height).toBeLessThanOrEqual(b1.y + b1.height + 1);
  await page.screenshot({ path: test.info().outputPath('auto-layout.png') });

  // one undo step puts every node back
  const before = await box(designer.node('out'));
  await page.keyboard.press('Control+z');
  await expect.poll(async () => (await box(designer.node('out'))).x).not.toBe(before.x);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(async () => (await box(designer.node('out'))).x).toBe(before.x);

  // the overlay can be switched off
  await page.getByTestId('toggle-plan').uncheck();
  await expect(page.getByTestId('plan-overlay')).toHaveCount(0);
  await page.getByTestId('toggle-plan').check();
  await expect(first).toBeVisible();
});

test("a split's branches are edited row by row, each branch becoming an output port", async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('split', { x: 400, y: 220 }, 'split1');
  await designer.select('split1');
  const base = 'config-split1-branches';
  await expect(page.getByTestId(`${base}-error`)).toContainText('branches');

  await page.getByTestId(`${base}-add`).click();
  await page.getByTestId(`${base}-0-name`).click();
  await page.keyboard.type('big');
  await page.getByTestId(`${base}-0-predicate`).click();
  await page.keyboard.type('value.amount > 100');
  await page.getByTestId(`${base}-add`).click();
  await page.getByTestId(`${base}-1-predicate`).click();
  await page.keyboard.type('value.amount >');
  // a branch predicate gets the CEL editor's inline error
  await expect(page.getByTestId(`${base}-1-predicate-error`)).toBeVisible();
  await page.keyboard.type(' 10');
  await expect(page.getByTestId(`${base}-1-predicate-error`)).toHaveCount(0);
  // the default branch is a switch
  await page.getByTestId('config-split1-defaultBranch-enabled').check();

  // ports follow the branches: "big", "2" (unnamed second branch) and the default "0"
  await expect(page.getByTestId('handle-split1-out-big')).toBeAttached();
  await expect(page.getByTestId('handle-split1-out-2')).toBeAttached();
  await expect(page.getByTestId('handle-split1-out-0')).toBeAttached();
  await page.screenshot({ path: test.info().outputPath('split-branches.png') });

  // reorder: the unnamed branch moves first and becomes port "1"
  await page.getByRole('button', { name: 'Move branch 2 up' }).click();
  await expect(page.getByTestId('handle-split1-out-1')).toBeAttached();
  await expect(page.getByTestId(`${base}-0-predicate`)).toHaveValue('value.amount > 10');
  await page.getByTestId(`${base}-1-remove`).click();
  await expect(page.getByTestId('handle-split1-out-big')).toHaveCount(0);
});
