// Editing: the keyboard-only flow (add from the palette, connect with "Connect…", configure,
// deploy), multi-select with shift-click and a box, copy / paste / delete, clipboard import and
// export, a Kafka Streams describe() text imported as a canvas, and the DSL code export.
import { test, expect } from '../support/fixtures.js';

const describeText = `Topologies:
   Sub-topology: 0
    Source: KSTREAM-SOURCE-0000000000 (topics: [clicks])
      --> KSTREAM-FILTER-0000000001
    Processor: KSTREAM-FILTER-0000000001 (stores: [])
      --> KSTREAM-KEY-SELECT-0000000002
      <-- KSTREAM-SOURCE-0000000000
    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])
      --> clicks-per-page-repartition-filter
      <-- KSTREAM-FILTER-0000000001
    Processor: clicks-per-page-repartition-filter (stores: [])
      --> clicks-per-page-repartition-sink
      <-- KSTREAM-KEY-SELECT-0000000002
    Sink: clicks-per-page-repartition-sink (topic: clicks-per-page-repartition)
      <-- clicks-per-page-repartition-filter

  Sub-topology: 1
    Source: clicks-per-page-repartition-source (topics: [clicks-per-page-repartition])
      --> KSTREAM-AGGREGATE-0000000003
    Processor: KSTREAM-AGGREGATE-0000000003 (stores: [clicks-per-page])
      --> KTABLE-TOSTREAM-0000000004
      <-- clicks-per-page-repartition-source
    Processor: KTABLE-TOSTREAM-0000000004 (stores: [])
      --> KSTREAM-SINK-0000000005
      <-- KSTREAM-AGGREGATE-0000000003
    Sink: KSTREAM-SINK-0000000005 (topic: page-counts)
      <-- KTABLE-TOSTREAM-0000000004

`;

test('the main flow works by keyboard alone: add, connect, configure, deploy', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  const kb = page.keyboard;

  // add a source from the palette: focus it and press Enter; the new node is selected
  await page.getByTestId('palette-source').focus();
  await kb.press('Enter');
  await expect(designer.node('source1')).toBeVisible();
  await page.getByTestId('palette-filter').focus();
  await kb.press('Enter');
  await page.getByTestId('palette-sink').focus();
  await kb.press('Enter');
  await expect(designer.node('sink1')).toBeVisible();

  // "Connect…" (C) lists every valid edge of the selected node (sink1): pick filter1 → sink1
  await kb.press('c');
  const dialog = page.getByTestId('connect-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('connect-option')).toHaveText([
    'filter1 → sink1',
    'source1 → sink1',
  ]);
  await kb.type('filter1');
  await kb.press('Enter');
  await expect(designer.edges).toHaveCount(1);

  // select filter1 with the keyboard: nodes are focusable, Enter selects
  await designer.selectByKeyboard('filter1');
  await kb.press('c');
  await kb.press('ArrowDown'); // into the list
  await expect(page.getByTestId('connect-option').first()).toBeFocused();
  await expect(page.getByTestId('connect-option').first()).toHaveText('source1 → filter1');
  await kb.press('Enter');
  await expect(designer.edges).toHaveCount(2);

  // configure: Tab into the fields and type
  await page.getByTestId('config-filter1-expression').focus();
  await kb.type('value.size() > 2');
  await designer.selectByKeyboard('source1');
  await page.getByTestId('config-source1-topic').focus();
  await kb.type('kb-in');
  await page.getByTestId('declare-topic-source1').focus();
  await kb.press('Enter');
  await designer.selectByKeyboard('sink1');
  await page.getByTestId('config-sink1-topic').focus();
  await kb.type('kb-out');
  await page.getByTestId('declare-topic-sink1').focus();
  await kb.press('Enter');
  await page.getByTestId('side-tab-app').focus();
  await kb.press('Enter');
  await page.getByTestId('app-id').focus();
  await kb.press('Control+a');
  await kb.type('keyboard-app');
  await kb.press('Enter');
  await designer.expectNoProblems();

  // deploy: Ctrl+Enter on the canvas
  await designer.focusNode('sink1');
  await kb.press('Control+Enter');
  await expect(designer.state).toHaveText('RUNNING');
  await page.screenshot({ path: test.info().outputPath('keyboard-flow.png') });
});

test('shift-click and box selection, copy / paste with fresh ids, delete, undo', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await designer.dropNode('source', { x: 160, y: 160 }, 'source1');
  await designer.dropNode('filter', { x: 460, y: 160 }, 'filter1');
  await designer.dropNode('sink', { x: 760, y: 160 }, 'sink1');
  await designer.connect('source1', 'filter1');
  await designer.connect('filter1', 'sink1');
  await expect(designer.edges).toHaveCount(2);

  // shift-click adds to the selection
  await designer.node('source1').locator('.sw-node__id').click();
  await designer
    .node('filter1')
    .locator('.sw-node__id')
    .click({ modifiers: ['Shift'] });
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(2);

  // copy and paste: two new nodes, the edge between them kept, ids fresh
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  await expect(designer.node('source2')).toBeVisible();
  await expect(designer.node('filter2')).toBeVisible();
  await expect(designer.edges).toHaveCount(3);
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(2);
  await page.screenshot({ path: test.info().outputPath('pasted.png') });

  // delete the pasted selection, then undo brings it back
  await page.keyboard.press('Delete');
  await expect(designer.node('source2')).toHaveCount(0);
  await expect(designer.edges).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await expect(designer.node('source2')).toBeVisible();
  await page.keyboard.press('Control+z');
  await expect(designer.node('source2')).toHaveCount(0);

  // a box drawn with Shift selects the nodes it touches
  const canvas = await designer.canvas.boundingBox();
  const filter = await designer.node('filter1').boundingBox();
  const sink = await designer.node('sink1').boundingBox();
  if (!canvas || !filter || !sink) throw new Error('canvas not on screen');
  await page.keyboard.press('Escape');
  await page.keyboard.down('Shift');
  await page.mouse.move(filter.x - 20, filter.y - 30);
  await page.mouse.down();
  await page.mouse.move(sink.x + sink.width + 20, sink.y + sink.height + 30, { steps: 12 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(2);
  await expect(designer.node('filter1').locator('..')).toHaveClass(/selected/);
  await expect(designer.node('sink1').locator('..')).toHaveClass(/selected/);

  // Ctrl+A selects everything; fit and minimap are there
  await page.keyboard.press('Control+a');
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(3);
  await page.keyboard.press('f');
  await expect(page.getByLabel('Minimap')).toBeVisible();
});

test('a Kafka Streams describe() text becomes a canvas with names, topics and stores; the logic is left for the user', async ({
  page,
  designer,
}) => {
  await designer.open();
  await designer.newDocument();
  await page.getByTestId('open-describe').click();
  await page.getByTestId('describe-text').click();
  await page.keyboard.insertText(describeText);
  await page.getByTestId('describe-import').click();
  await expect(page.getByTestId('describe-dialog')).toHaveCount(0);

  for (const id of ['source1', 'filter1', 'groupBy1', 'count1', 'toStream1', 'sink1'])
    await expect(designer.node(id)).toBeVisible();
  await designer.select('count1');
  await expect(designer.field('count1', 'store')).toHaveValue('clicks-per-page');
  await designer.select('source1');
  await expect(designer.field('source1', 'topic')).toHaveValue('clicks');
  await designer.sideTab('topics');
  await expect(page.getByTestId('topic-partitions-clicks')).toBeVisible();
  await expect(page.getByTestId('topic-partitions-page-counts')).toBeVisible();

  // what describe() does not show is what validation asks for: the filter and the key selector
  await designer.bottomTab('problems');
  await expect(page.getByText('nodes[1].config.expression')).toBeVisible();
  await expect(page.getByText('nodes[2].config.expression')).toBeVisible();

  // filled in, the design plans to the same two sub-topologies
  await designer.configure('filter1', { expression: 'true' });
  await designer.configure('groupBy1', { expression: 'value.page' });
  await designer.expectNoProblems();
  await expect(page.getByTestId('subtopology-1')).toHaveAttribute(
    'data-nodes',
    'count1 toStream1 sink1',
  );
  await expect(page.getByTestId('store-clicks-per-page')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('describe-import.png') });
});

test('export as TypeScript DSL code, and copy / paste the topology JSON through the clipboard', async ({
  page,
  context,
  designer,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await designer.open('/?example');
  await designer.newDocument();
  await designer.dropNode('source', { x: 180, y: 200 }, 'source1');
  await designer.dropNode('mapValues', { x: 480, y: 200 }, 'mapValues1');
  await designer.connect('source1', 'mapValues1');
  await designer.configure('source1', { topic: 'code-in' });
  await page.getByTestId('declare-topic-source1').click();
  await designer.configure('mapValues1', { expression: 'value.total' });

  await page.getByTestId('open-code').click();
  const code = page.getByTestId('code-text');
  await expect(code).toContainText(
    "import { Consumed, Serdes, StreamsBuilder } from '@streamwright/engine';",
  );
  await expect(code).toContainText(
    "const source1 = builder.stream('code-in', Consumed.with(Serdes.String(), Serdes.Json()));",
  );
  await expect(code).toContainText("const mapValues1 = source1.mapValues('value.total');");
  await page.screenshot({ path: test.info().outputPath('code-export.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('code-dialog')).toHaveCount(0);

  await page.getByTestId('copy-json').click();
  const copied = await page.evaluate(() =>
    (
      globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
    ).navigator.clipboard.readText(),
  );
  expect(JSON.parse(copied)).toMatchObject({ nodes: [{ id: 'source1' }, { id: 'mapValues1' }] });
  await designer.newDocument();
  await page.getByTestId('paste').click();
  await expect(designer.node('source1')).toBeVisible();
  await expect(designer.node('mapValues1')).toBeVisible();
  await expect(designer.edges).toHaveCount(1);
});
