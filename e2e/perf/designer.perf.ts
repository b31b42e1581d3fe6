/// <reference lib="dom" />
// Measures what docs/BENCHMARKS.md reports for the designer:
// 1. a 300-node topology (30 pipelines of 10 nodes): median and p95 frame time while the view is
//    panned and while a node is dragged, from requestAnimationFrame timestamps in the page;
// 2. the main thread's busy share (CDP Performance.getMetrics TaskDuration over wall time) over
//    20 s while the runtime streams metrics of a deployed app with 100 tasks (a 100-partition
//    source topic), the canvas showing that app, first with the Tasks tab (100 rows) open, then
//    with the Dashboard tab (four uPlot charts redrawn every tick).
// Results are printed as one JSON line per measurement and attached to the test.
import { test, expect, type Page } from '@playwright/test';

function bigTopology(pipelines: number, perPipeline: number) {
  const nodes: unknown[] = [];
  const edges: unknown[] = [];
  const layout: Record<string, { x: number; y: number }> = {};
  const topics: unknown[] = [];
  for (let p = 0; p < pipelines; p++) {
    topics.push(
      { name: `in-${p}`, partitions: 1, config: {} },
      { name: `out-${p}`, partitions: 1, config: {} },
    );
    for (let i = 0; i < perPipeline; i++) {
      const id = `p${p}n${i}`;
      const kind =
        i === 0 ? 'source' : i === perPipeline - 1 ? 'sink' : i % 2 ? 'filter' : 'mapValues';
      const config =
        kind === 'source'
          ? { topic: `in-${p}` }
          : kind === 'sink'
            ? { topic: `out-${p}` }
            : kind === 'filter'
              ? { expression: 'value.n > 1' }
              : { expression: 'value' };
      nodes.push({ id, kind, config });
      layout[id] = { x: i * 240, y: p * 130 };
      if (i > 0) edges.push({ from: `p${p}n${i - 1}`, to: id });
    }
  }
  return {
    schemaVersion: 1,
    application: { id: 'perf-300', config: {} },
    topics,
    nodes,
    edges,
    layout: { nodes: layout },
  };
}

/** Frame times (ms) recorded in the page while `action` runs. */
async function frameTimes(page: Page, action: () => Promise<void>): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = [];
    w.__recording = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await action();
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames.slice(1);
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

function report(name: string, frames: number[]) {
  const median = quantile(frames, 0.5);
  const result = {
    name,
    frames: frames.length,
    medianMs: +median.toFixed(2),
    p95Ms: +quantile(frames, 0.95).toFixed(2),
    medianFps: +(1000 / median).toFixed(1),
  };
  console.log(JSON.stringify(result));
  test.info().annotations.push({ type: name, description: JSON.stringify(result) });
  return result;
}

test('300 nodes: frame time while panning and dragging', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('canvas')).toBeVisible();
  await page.getByTestId('new').click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('import').click();
  await (
    await chooser
  ).setFiles({
    name: 'perf.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(bigTopology(30, 10))),
  });
  await expect(page.locator('.react-flow__node')).not.toHaveCount(0);
  // zoomed to fit 300 nodes every node is rendered (no culling): the worst case
  await page.waitForTimeout(1500);
  const rendered = await page.locator('.react-flow__node').count();
  // at fit-view the 300 nodes are below the semantic-zoom threshold: compact nodes are measured
  const canvas = page.getByTestId('canvas');
  const compact = await canvas.evaluate((el) => el.classList.contains('is-compact'));
  console.log(
    JSON.stringify({
      renderedNodes: rendered,
      zoom: await canvas.getAttribute('data-zoom'),
      compact,
    }),
  );

  const pane = (await page.locator('.react-flow__pane').boundingBox())!;
  const cx = pane.x + pane.width / 2;
  const cy = pane.y + pane.height / 2;
  const pan = await frameTimes(page, async () => {
    for (let round = 0; round < 3; round++) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx - 300, cy - 150, { steps: 60 });
      await page.mouse.move(cx + 300, cy + 150, { steps: 60 });
      await page.mouse.move(cx, cy, { steps: 60 });
      await page.mouse.up();
    }
  });
  const panResult = report('pan-300', pan);

  const node = (await page.getByTestId('node-p15n5').boundingBox())!;
  const drag = await frameTimes(page, async () => {
    for (let round = 0; round < 3; round++) {
      await page.mouse.move(node.x + 20, node.y + 10);
      await page.mouse.down();
      await page.mouse.move(node.x + 220, node.y + 110, { steps: 60 });
      await page.mouse.move(node.x - 180, node.y - 90, { steps: 60 });
      await page.mouse.move(node.x + 20, node.y + 10, { steps: 60 });
      await page.mouse.up();
    }
  });
  const dragResult = report('drag-300', drag);
  expect(panResult.frames).toBeGreaterThan(30);
  expect(dragResult.frames).toBeGreaterThan(30);
});

test('100 tasks streaming metrics: main-thread busy share', async ({ page, request }) => {
  const doc = {
    schemaVersion: 1,
    application: { id: 'perf-100-tasks', config: { 'commit.interval.ms': 1000 } },
    topics: [
      { name: 'perf-wide-in', partitions: 100, config: {} },
      { name: 'perf-wide-out', partitions: 100, config: {} },
    ],
    nodes: [
      { id: 'src', kind: 'source', config: { topic: 'perf-wide-in' } },
      { id: 'keep', kind: 'filter', config: { expression: 'true' } },
      { id: 'out', kind: 'sink', config: { topic: 'perf-wide-out' } },
    ],
    edges: [
      { from: 'src', to: 'keep' },
      { from: 'keep', to: 'out' },
    ],
    layout: { nodes: { src: { x: 0, y: 0 }, keep: { x: 260, y: 0 }, out: { x: 520, y: 0 } } },
  };
  const deployed = await request.post('/trpc/app.deploy', { data: { topology: doc } });
  expect(deployed.ok()).toBe(true);
  await page.goto('/');
  await expect(page.getByTestId('app-state')).toHaveText('RUNNING', { timeout: 60_000 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskDuration = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'TaskDuration')!.value;
  };
  // the Tasks table (100 rows), then the Dashboard's four uPlot charts redrawn every tick
  for (const tab of ['tasks', 'dashboard'] as const) {
    await page.getByTestId(`bottom-tab-${tab}`).click();
    if (tab === 'tasks')
      await expect(
        page.locator('[data-testid^="task-row-"], .sw-table tbody tr').first(),
      ).toBeVisible({ timeout: 30_000 });
    else await expect(page.getByTestId('dashboard-throughput').locator('canvas')).toHaveCount(1);
    await page.waitForTimeout(3000);
    const t0 = await taskDuration();
    const w0 = Date.now();
    await page.waitForTimeout(20_000);
    const busy = (await taskDuration()) - t0;
    const wall = (Date.now() - w0) / 1000;
    const tasks = await page.evaluate(() => document.querySelectorAll('.sw-table tbody tr').length);
    const result = {
      name: `metrics-100-tasks-${tab}`,
      tasksShown: tasks,
      busySeconds: +busy.toFixed(3),
      wallSeconds: +wall.toFixed(1),
      busyShare: +((100 * busy) / wall).toFixed(2),
    };
    console.log(JSON.stringify(result));
    test.info().annotations.push({ type: result.name, description: JSON.stringify(result) });
  }
  await request.post('/trpc/app.stop', { data: {} });
});
