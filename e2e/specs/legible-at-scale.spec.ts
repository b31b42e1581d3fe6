// Readable at scale: a 60-node topology, deployed and counting, laid out and fitted into a
// 1600 × 1000 window shows every node's name and count at 11 px or more on screen, with no node
// overlapping another; and the panels around the canvas resize, fold and keep their sizes across
// a reload; a node is found by name and jumped to.
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.js';

test.use({ viewport: { width: 1600, height: 1000 } });

const PIPELINES = 6;
const CHAIN = 10;
const app = 'e2e-legible';

/** Six independent pipelines of ten nodes (source, eight stateless steps, sink), in one row. */
function sixtyNodes() {
  const nodes: { id: string; kind: string; config: Record<string, unknown> }[] = [];
  const edges: { from: string; to: string }[] = [];
  const topics: { name: string; partitions: number; config: Record<string, never> }[] = [];
  const layout: Record<string, { x: number; y: number }> = {};
  for (let p = 0; p < PIPELINES; p++) {
    topics.push({ name: `${app}-in-${p}`, partitions: 1, config: {} });
    topics.push({ name: `${app}-out-${p}`, partitions: 1, config: {} });
    for (let i = 0; i < CHAIN; i++) {
      const id = `p${p}step${i}`;
      const kind = i === 0 ? 'source' : i === CHAIN - 1 ? 'sink' : i % 2 ? 'filter' : 'mapValues';
      const config =
        kind === 'source'
          ? { topic: `${app}-in-${p}` }
          : kind === 'sink'
            ? { topic: `${app}-out-${p}` }
            : kind === 'filter'
              ? { expression: 'value.n > 0' }
              : { expression: '{"n": value.n + 1}' };
      nodes.push({ id, kind, config });
      // the "before" picture: every pipeline one long row
      layout[id] = { x: i * 260, y: p * 140 };
      if (i > 0) edges.push({ from: `p${p}step${i - 1}`, to: id });
    }
  }
  return {
    schemaVersion: 1,
    application: { id: app, config: {} },
    topics,
    nodes,
    edges,
    layout: { nodes: layout },
  };
}

interface NodeText {
  id: string;
  name: number;
  count: number;
  truncated: boolean;
  box: { x: number; y: number; width: number; height: number };
}

/** On-screen font sizes (CSS size × the viewport's zoom) of every node's name and count. */
function nodeTexts(page: Page): Promise<{ zoom: number; nodes: NodeText[] }> {
  return page.evaluate(() => {
    const canvas = document.querySelector('.sw-canvas') as HTMLElement;
    const zoom = Number(canvas.dataset.zoom);
    const nodes = (Array.from(document.querySelectorAll('.sw-node')) as HTMLElement[]).map(
      (node) => {
        const name = node.querySelector('.sw-node__id') as HTMLElement;
        const count = node.querySelector('.sw-node__total') as HTMLElement | null;
        const px = (el: HTMLElement | null) =>
          el ? parseFloat(getComputedStyle(el).fontSize) * zoom : 0;
        const r = node.getBoundingClientRect();
        return {
          id: name.textContent ?? '',
          name: px(name),
          count: px(count),
          truncated: name.scrollWidth > name.clientWidth,
          box: { x: r.x, y: r.y, width: r.width, height: r.height },
        };
      },
    );
    return { zoom, nodes };
  });
}

const overlaps = (a: NodeText['box'], b: NodeText['box']) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('60 nodes laid out and fitted: every name and count at 11 px or more, none overlapping', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.importJson('sixty.json', JSON.stringify(sixtyNodes()));
  await designer.deploy();
  await expect(designer.notice).toContainText(`Deployed ${app}`);
  for (let p = 0; p < PIPELINES; p++) {
    const produced = await page.request.post('/trpc/topics.produce', {
      data: { topic: `${app}-in-${p}`, key: 'k', value: '{"n": 1}' },
    });
    expect(produced.ok(), await produced.text()).toBe(true);
  }
  for (let p = 0; p < PIPELINES; p++) await designer.expectCount(`p${p}step${CHAIN - 1}`, 1);

  await page.getByTestId('auto-layout').click();
  // layout, then fit: wait until the zoom has settled
  let last = 0;
  await expect
    .poll(async () => {
      const { zoom } = await nodeTexts(page);
      const settled = zoom > 0 && Math.abs(zoom - last) < 1e-3;
      last = zoom;
      return settled;
    })
    .toBe(true);

  const { zoom, nodes } = await nodeTexts(page);
  expect(nodes).toHaveLength(PIPELINES * CHAIN);
  const canvas = (await page.getByTestId('canvas').boundingBox())!;
  for (const n of nodes) {
    expect.soft(n.name, `${n.id}'s name on screen (zoom ${zoom})`).toBeGreaterThanOrEqual(11);
    expect.soft(n.count, `${n.id}'s count on screen (zoom ${zoom})`).toBeGreaterThanOrEqual(11);
    expect.soft(n.truncated, `${n.id}'s name cut off`).toBe(false);
    // fitted: inside the canvas
    expect.soft(n.box.x).toBeGreaterThanOrEqual(canvas.x - 1);
    expect.soft(n.box.x + n.box.width).toBeLessThanOrEqual(canvas.x + canvas.width + 1);
  }
  const overlapping = nodes.flatMap((a, i) =>
    nodes.slice(i + 1).flatMap((b) => (overlaps(a.box, b.box) ? [`${a.id} × ${b.id}`] : [])),
  );
  expect(overlapping).toEqual([]);

  // find a node and jump to it: selected, centred at a readable zoom
  await page.keyboard.press('/');
  await expect(page.getByTestId('node-search')).toBeFocused();
  await page.keyboard.type('p4step7');
  await page.keyboard.press('Enter');
  await expect(designer.node('p4step7')).toHaveClass(/is-selected/);
  await expect
    .poll(async () => Number(await page.getByTestId('canvas').getAttribute('data-zoom')))
    .toBeGreaterThanOrEqual(0.9);
  await expect(designer.node('p4step7')).toBeInViewport();
});

test('the side and bottom panels resize, fold and keep their sizes after a reload', async ({
  page,
  designer,
}) => {
  await designer.open();
  const side = page.locator('aside.sw-side');
  const bottom = page.locator('section.sw-bottom');
  const width = async () => (await side.boundingBox())!.width;
  const height = async () => (await bottom.boundingBox())!.height;

  // drag the side panel's separator 150 px to the left: the panel widens by as much
  const before = await width();
  const sideSeparator = page.getByRole('separator', { name: 'Resize the side panel' });
  const s = (await sideSeparator.boundingBox())!;
  await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width / 2 - 150, s.y + s.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect.poll(width).toBeGreaterThan(before + 120);
  const widened = await width();

  // drag the bottom panel's separator 120 px up: the panel grows
  const lower = await height();
  const rowSeparator = page.getByRole('separator', { name: 'Resize the bottom panel' });
  const r = (await rowSeparator.boundingBox())!;
  await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
  await page.mouse.down();
  await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2 - 120, { steps: 10 });
  await page.mouse.up();
  await expect.poll(height).toBeGreaterThan(lower + 90);
  const raised = await height();

  // remembered across a reload
  await page.reload();
  await expect(side).toBeVisible();
  await expect.poll(width).toBeGreaterThan(widened - 3);
  expect(await width()).toBeLessThan(widened + 3);
  await expect.poll(height).toBeGreaterThan(raised - 3);

  // folded and brought back
  await page.getByTestId('side-collapse').click();
  await expect.poll(width).toBeLessThan(40);
  await page.getByTestId('side-expand').click();
  await expect.poll(width).toBeGreaterThan(widened - 3);

  await page.getByTestId('bottom-fold').click();
  await expect(page.locator('#bottom-tabpanel')).toBeHidden();
  await expect.poll(height).toBeLessThan(45);
  // a tab opens a folded panel on that tab
  await page.getByTestId('bottom-tab-tasks').click();
  await expect(page.locator('#bottom-tabpanel')).toBeVisible();
  await expect.poll(height).toBeGreaterThan(raised - 3);
});

test('sub-topologies fold into one node each and unfold, also by a search for a node inside', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.importJson('sixty.json', JSON.stringify(sixtyNodes()));
  await designer.deploy();
  await expect(designer.notice).toContainText(`Deployed ${app}`);
  const produced = await page.request.post('/trpc/topics.produce', {
    data: { topic: `${app}-in-2`, key: 'k', value: '{"n": 1}' },
  });
  expect(produced.ok(), await produced.text()).toBe(true);
  await designer.expectCount(`p2step${CHAIN - 1}`, 1);

  // each pipeline is one sub-topology (laid out so the boxes do not overlap): fold pipeline 2's
  await page.getByTestId('auto-layout').click();
  const box = page.getByTestId('subtopology-2');
  await expect(box).toHaveAttribute('data-nodes', /p2step0/);
  await page.getByTestId('fold-2').click();
  const group = page.getByTestId('group-2');
  await expect(group).toBeVisible();
  await expect(group).toContainText('Sub-topology 2 · 10 nodes');
  await expect(page.getByTestId('group-count-2')).toContainText('1');
  for (let i = 0; i < CHAIN; i++) await expect(designer.node(`p2step${i}`)).toBeHidden();
  await expect(page.getByTestId('subtopology-2')).toHaveCount(0);
  await expect(designer.node('p3step0')).toBeVisible();

  // fold every pipeline: six summary nodes stand for the sixty
  await page.getByTestId('fold-all').click();
  await expect(page.locator('[data-testid^="group-"][aria-label^="Sub-topology"]')).toHaveCount(6);
  await expect(page.locator('.react-flow__node-kind:visible')).toHaveCount(0);

  // unfolding from the summary node
  await page.getByTestId('unfold-2').click();
  await expect(designer.node('p2step5')).toBeVisible();
  await expect(page.getByTestId('group-2')).toHaveCount(0);
  // a search for a node inside a folded group unfolds it and jumps there
  await page.keyboard.press('/');
  await page.keyboard.type('p4step7');
  await page.keyboard.press('Enter');
  await expect(designer.node('p4step7')).toBeVisible();
  await expect(designer.node('p4step7')).toHaveClass(/is-selected/);
  await expect(page.getByTestId('group-4')).toHaveCount(0);

  await page.getByTestId('unfold-all').click();
  await expect(page.locator('.react-flow__node-kind:visible')).toHaveCount(PIPELINES * CHAIN);
});
