// The seed's purchase analysis (examples/purchase-analysis) in the designer: 13 nodes over three
// sub-topologies with two repartition topics, deployed on the embedded backend, counting local
// orders per hour on the canvas — the topology the issue found unreadable at 0.29 zoom.
import { readFileSync } from 'node:fs';
import { test, expect } from '../support/fixtures.js';
import { docScreenshot } from '../support/doc-screenshots.js';

test.use({ viewport: { width: 1600, height: 1000 } });

const example = JSON.parse(
  readFileSync(
    new URL('../../examples/purchase-analysis/purchase-analysis.topology.json', import.meta.url),
    'utf8',
  ),
) as {
  application: { config?: Record<string, unknown> };
  topics: { name: string }[];
  nodes: { config: { topic?: string } }[];
};
// Topics of its own: the runtime is shared by the specs, and other specs also use "orders".
const PREFIX = 'e2e-pa-';
for (const t of example.topics) t.name = PREFIX + t.name;
for (const n of example.nodes) if (n.config.topic) n.config.topic = PREFIX + n.config.topic;
// commit every 100 ms, as a new design does, without a record cache: every update of the count
// reaches the sink (a cache would merge the updates of a window between commits)
example.application.config = {
  ...example.application.config,
  'commit.interval.ms': 100,
  'statestore.cache.max.bytes': 0,
};
const document = JSON.stringify(example);

// The records of examples/test/purchase-analysis.test.ts (compared there with Kafka Streams):
// six orders are for an item made where the user lives.
const { users, items, orders } = JSON.parse(
  readFileSync(new URL('../../examples/purchase-analysis/records.json', import.meta.url), 'utf8'),
) as {
  users: [string, object][];
  items: [string, object][];
  orders: [string, string, number][];
};

test('the purchase analysis runs in the designer, laid out and counting', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.importJson('purchase-analysis.topology.json', document);
  await page.getByTestId('auto-layout').click();
  await designer.deploy();
  const produce = async (topic: string, key: string, value: object, timestamp: number) => {
    const produced = await page.request.post('/trpc/topics.produce', {
      data: { topic, key, value: JSON.stringify(value), valueSerde: 'json', timestamp },
    });
    expect(produced.ok(), await produced.text()).toBe(true);
  };
  for (const [key, value] of users) await produce(`${PREFIX}users`, key, value, 0);
  for (const [key, value] of items) await produce(`${PREFIX}items`, key, value, 0);
  await designer.expectCount('users', users.length);
  await designer.expectCount('items', items.length);
  for (const [user, item, time] of orders)
    await produce(`${PREFIX}orders`, user, { user, item, time, quantity: 1 }, time);

  await designer.expectCount('orders', orders.length);
  await designer.expectCount('count', 6);
  await designer.expectCount('out', 6);
  // fitted: every node's name readable (the legible-at-scale spec measures the sizes)
  await page.keyboard.press('f');
  await expect(designer.node('count')).toBeInViewport();
  await page.waitForTimeout(1000);

  // laid out per sub-topology: the three boxes, and the nodes running in them, never overlap
  const boxes = await page.getByTestId(/^subtopology-\d+$/).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        id: el.getAttribute('data-testid'),
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
      };
    }),
  );
  expect(boxes).toHaveLength(3);
  const nodes = await page.locator('.react-flow__node').evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { id: el.getAttribute('data-id'), x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  type Rect = { id: string | null; x: number; y: number; width: number; height: number };
  const crossing = (a: Rect, b: Rect) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const overlapping = [boxes, nodes].flatMap((rects) =>
    rects.flatMap((a, i) =>
      rects.slice(i + 1).flatMap((b) => (crossing(a, b) ? [`${a.id} × ${b.id}`] : [])),
    ),
  );
  expect(overlapping).toEqual([]);
  // the windowedBy, which has no processor of its own, is drawn inside its count's box
  await expect(page.getByTestId('subtopology-2')).toHaveAttribute('data-nodes', /\bhourly\b/);
  await docScreenshot(page, 'designer-purchase-analysis.png');
});
