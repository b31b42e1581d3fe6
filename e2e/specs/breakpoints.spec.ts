// Breakpoints on the running app, by pointer and keyboard: a conditional breakpoint on a count
// pauses the app at the matching record, shows the record and the count's state, Step (F10)
// walks the nodes the record reaches, Resume continues and the counters catch up with what was
// produced; removing the breakpoint leaves nothing behind.
import { test, expect } from '../support/fixtures.js';
import { docScreenshot } from '../support/doc-screenshots.js';

const counting = {
  schemaVersion: 1,
  // The record cache off: every count update goes on downstream at once, so Step can follow the
  // record through toStream and the sink (with the cache on, they see it at the next commit).
  application: {
    id: 'breakpoint-app',
    config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
  },
  topics: [
    { name: 'bp-clicks', partitions: 1, config: {} },
    { name: 'bp-counts', partitions: 1, config: {} },
  ],
  nodes: [
    { id: 'clicks', kind: 'source', config: { topic: 'bp-clicks', valueSerde: 'string' } },
    { id: 'byUser', kind: 'groupByKey', config: {} },
    { id: 'perUser', kind: 'count', config: { store: 'clicks-per-user' } },
    { id: 'changes', kind: 'toStream', config: {} },
    { id: 'out', kind: 'sink', config: { topic: 'bp-counts', valueSerde: 'long' } },
  ],
  edges: [
    { from: 'clicks', to: 'byUser' },
    { from: 'byUser', to: 'perUser' },
    { from: 'perUser', to: 'changes' },
    { from: 'changes', to: 'out' },
  ],
  layout: {
    nodes: {
      clicks: { x: 40, y: 40 },
      byUser: { x: 280, y: 40 },
      perUser: { x: 520, y: 40 },
      changes: { x: 760, y: 40 },
      out: { x: 1000, y: 40 },
    },
  },
};

test('a conditional breakpoint pauses at the record with its state; step; resume', async ({
  page,
  designer,
  topics,
}) => {
  await designer.open();
  await designer.importJson('breakpoints.json', JSON.stringify(counting));
  await designer.deploy();
  await topics.open();
  await topics.choose('bp-clicks');
  for (const key of ['ann', 'ann']) await topics.produce({ key, value: 'click' });
  await topics.backToDesigner();
  await designer.expectCount('perUser', 2);

  // Keyboard: select the count, then type a condition; a broken one is refused as you type.
  await designer.selectByKeyboard('perUser');
  const condition = page.getByTestId('breakpoint-condition');
  await condition.focus();
  await page.keyboard.type('key ==');
  await expect(page.getByTestId('breakpoint-condition-error')).toContainText('syntax error');
  await expect(page.getByTestId('breakpoint-add')).toBeDisabled();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('key == "bob"');
  await expect(page.getByTestId('breakpoint-condition-error')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('breakpoint-row')).toHaveCount(1);
  await expect(page.getByTestId('breakpoint-row')).toContainText('key == "bob"');
  await expect(page.getByTestId('breakpoint-marker-perUser')).toBeVisible();

  // "bob" matches and pauses the app; the "ann" after it waits.
  await topics.open();
  await topics.produce({ key: 'bob', value: 'click' });
  await topics.produce({ key: 'ann', value: 'click' });
  await topics.backToDesigner();
  const panel = page.getByTestId('debugger-panel');
  await expect(page.getByTestId('debugger-paused')).toContainText('perUser');
  await expect(page.getByTestId('bottom-tab-debugger')).toHaveAttribute('aria-selected', 'true');
  await expect(designer.node('perUser')).toHaveAttribute('data-paused', 'true');
  // the badge says the app is held, not just RUNNING
  await expect(page.getByTestId('app-paused')).toHaveText('paused at perUser');
  await expect(page.getByTestId('debugger-record-key')).toHaveText('bob');
  await expect(page.getByTestId('debugger-record-value')).toHaveText('click');
  // The count's state on arrival: nothing for "bob" yet, "ann" counted twice.
  const store = page.getByTestId('debugger-store');
  await expect(store).toContainText('clicks-per-user');
  await expect(page.getByTestId('debugger-store-current')).toHaveText('no value');
  await expect(store.locator('tbody tr')).toHaveCount(1);
  await expect(store.locator('tbody tr').first()).toContainText('ann');
  await expect(store.locator('tbody tr').first()).toContainText('2');
  await expect(page.getByTestId('debugger-trace').locator('li')).toHaveText([
    'perUser',
    'changes',
    'out',
  ]);
  await page.screenshot({ path: test.info().outputPath('paused.png') });
  // Held: the source stays at the three records it took, though four were produced.
  await page.waitForTimeout(1500);
  await designer.expectCount('clicks', 3);

  // Step by keyboard: the focus is on Step; F10 steps too.
  await expect(page.getByTestId('debugger-step')).toBeFocused();
  await page.keyboard.press('F10');
  await expect(page.getByTestId('debugger-paused')).toContainText('changes');
  await expect(page.getByTestId('debugger-record-value')).toHaveText('1');
  await expect(designer.node('changes')).toHaveAttribute('data-paused', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('debugger-paused')).toContainText('out');
  await page.screenshot({ path: test.info().outputPath('stepped.png') });

  // Resume by pointer: the counters continue and equal what was produced.
  await panel.getByTestId('debugger-resume').click();
  await expect(page.getByTestId('debugger-running')).toBeVisible();
  await expect(page.getByTestId('app-paused')).toHaveCount(0);
  await designer.expectCount('clicks', 4);
  await designer.expectCount('perUser', 4);
  await designer.expectCount('out', 4);
  // The breakpoint counted its hit (the node's settings list it; Step selected the sink).
  await designer.select('perUser');
  await expect(page.getByTestId('breakpoint-row')).toContainText('1 hit');

  // Removing it leaves the app running without breakpoints.
  await page.getByTestId('breakpoint-remove').click();
  await expect(page.getByTestId('breakpoint-row')).toHaveCount(0);
  await expect(page.getByTestId('breakpoint-marker-perUser')).toHaveCount(0);
  await topics.open();
  await topics.produce({ key: 'bob', value: 'click' });
  await topics.backToDesigner();
  await designer.expectCount('perUser', 5);
  await expect(page.getByTestId('debugger-running')).toBeVisible();
});

test("stopped at a windowed count: the key's window and the store's windows", async ({
  page,
  designer,
  topics,
}) => {
  const windowed = {
    schemaVersion: 1,
    application: {
      id: 'breakpoint-windows',
      config: { 'commit.interval.ms': 100, 'statestore.cache.max.bytes': 0 },
    },
    topics: [{ name: 'bpw-clicks', partitions: 1, config: {} }],
    nodes: [
      {
        id: 'clicks',
        kind: 'source',
        // every click at one instant, so the test does not depend on the wall clock
        config: {
          topic: 'bpw-clicks',
          valueSerde: 'string',
          timestampExtractor: { expression: '1700000005000' },
        },
      },
      { id: 'byUser', kind: 'groupByKey', config: {} },
      {
        id: 'perMinute',
        kind: 'windowedBy',
        config: { window: { type: 'tumbling', sizeMs: 60_000 } },
      },
      { id: 'counts', kind: 'windowedCount', config: { store: 'clicks-per-minute' } },
    ],
    edges: [
      { from: 'clicks', to: 'byUser' },
      { from: 'byUser', to: 'perMinute' },
      { from: 'perMinute', to: 'counts' },
    ],
    layout: {
      nodes: {
        clicks: { x: 40, y: 40 },
        byUser: { x: 280, y: 40 },
        perMinute: { x: 520, y: 40 },
        counts: { x: 760, y: 40 },
      },
    },
  };
  await designer.open();
  await designer.importJson('windowed-breakpoint.json', JSON.stringify(windowed));
  await designer.deploy();
  await topics.open();
  await topics.choose('bpw-clicks');
  await topics.produce({ key: 'ann', value: 'click' });
  await topics.backToDesigner();
  await designer.expectCount('counts', 1);

  await designer.select('counts');
  await page.getByTestId('breakpoint-condition').fill('key == "ann"');
  await page.getByTestId('breakpoint-add').click();
  await expect(page.getByTestId('breakpoint-row')).toHaveCount(1);
  await topics.open();
  await topics.produce({ key: 'ann', value: 'click' });
  await topics.backToDesigner();

  await expect(page.getByTestId('debugger-paused')).toContainText('counts');
  const store = page.getByTestId('debugger-store');
  await expect(store).toContainText('clicks-per-minute');
  await expect(store).not.toContainText('unreadable');
  await expect(page.getByTestId('debugger-store-current')).toHaveText('1');
  // the minute of 1700000005000 (windows align to the epoch): [1699999980000, 1700000040000)
  const window = page.getByTestId('debugger-store-window').locator('time');
  await expect(window.first()).toHaveAttribute('data-epoch', '1699999980000');
  await expect(window.last()).toHaveAttribute('data-epoch', '1700000040000');
  await expect(store.locator('tbody tr')).toHaveCount(1);
  await expect(store.locator('tbody tr td').first()).toHaveText('ann');
  await page.screenshot({ path: test.info().outputPath('paused-windowed.png') });
  await docScreenshot(page, 'designer-debugger-windowed.png');

  await page.getByTestId('debugger-resume').click();
  await expect(page.getByTestId('debugger-running')).toBeVisible();
  await designer.expectCount('counts', 2);
});
