// The designer: palette, canvas, side panel (node, application, topics), bottom panel
// (problems, tasks, errors) and the toolbar. Everything goes through real pointer and keyboard
// input on the rendered page.
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

export class DesignerPage {
  readonly canvas: Locator;
  readonly state: Locator;
  readonly notice: Locator;

  constructor(readonly page: Page) {
    this.canvas = page.getByTestId('canvas');
    this.state = page.getByTestId('app-state');
    this.notice = page.getByTestId('notice');
  }

  async open(url = '/'): Promise<void> {
    await this.page.goto(url);
    await expect(this.canvas).toBeVisible();
    await expect(this.state).not.toHaveText(/OFFLINE/);
  }

  async newDocument(): Promise<void> {
    await this.page.getByTestId('new').click();
    await expect(this.page.locator('.react-flow__node')).toHaveCount(0);
  }

  node(id: string): Locator {
    return this.page.getByTestId(`node-${id}`);
  }

  get edges(): Locator {
    return this.page.locator('.react-flow__edge');
  }

  /** Drags a kind from the palette onto the canvas (HTML5 drag and drop with the mouse). */
  async dropNode(kind: string, at: { x: number; y: number }, expectedId: string): Promise<Locator> {
    await this.page.getByTestId(`palette-${kind}`).dragTo(this.canvas, { targetPosition: at });
    const node = this.node(expectedId);
    await expect(node).toBeVisible();
    return node;
  }

  /** Presses on `from`'s output handle and releases on `to`'s input handle. */
  async connect(from: string, to: string, port = 'in'): Promise<void> {
    const source = await this.page.getByTestId(`handle-${from}-out`).boundingBox();
    const target = await this.page.getByTestId(`handle-${to}-in-${port}`).boundingBox();
    if (!source || !target) throw new Error(`handles of ${from} → ${to} are not on screen`);
    await this.page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, {
      steps: 15,
    });
    await this.page.mouse.up();
  }

  /** Moves the keyboard focus to a node (React Flow's focusable node wrapper). */
  async focusNode(id: string): Promise<void> {
    await this.node(id).locator('xpath=..').focus();
  }

  /** Selects a node by keyboard: focus it, press Enter. */
  async selectByKeyboard(id: string): Promise<void> {
    await this.focusNode(id);
    await this.page.keyboard.press('Enter');
    await expect(this.page.getByTestId('node-id')).toHaveValue(id);
  }

  async select(id: string): Promise<void> {
    await this.node(id).locator('.sw-node__id').click();
    await expect(this.page.getByTestId('node-id')).toHaveValue(id);
  }

  field(nodeId: string, key: string): Locator {
    return this.page.getByTestId(`config-${nodeId}-${key}`);
  }

  async configure(nodeId: string, values: Record<string, string>): Promise<void> {
    await this.select(nodeId);
    for (const [key, value] of Object.entries(values)) {
      const field = this.field(nodeId, key);
      const tag = await field.evaluate((el) => el.tagName);
      if (tag === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
  }

  async sideTab(tab: 'node' | 'app' | 'topics' | 'workspace'): Promise<void> {
    await this.page.getByTestId(`side-tab-${tab}`).click();
  }

  async bottomTab(
    tab: 'problems' | 'tasks' | 'dashboard' | 'errors' | 'debugger' | 'preview' | 'state',
  ): Promise<void> {
    await this.page.getByTestId(`bottom-tab-${tab}`).click();
  }

  async declareTopic(name: string, partitions: number): Promise<void> {
    await this.sideTab('topics');
    await this.page.getByTestId('new-topic-name').fill(name);
    await this.page.getByTestId('new-topic-partitions').fill(String(partitions));
    await this.page.getByTestId('add-topic').click();
    await expect(this.page.getByTestId(`topic-partitions-${name}`)).toHaveValue(String(partitions));
  }

  async setApplicationId(id: string): Promise<void> {
    await this.sideTab('app');
    const input = this.page.getByTestId('app-id');
    await input.fill(id);
    await input.press('Enter');
  }

  async expectNoProblems(): Promise<void> {
    await this.bottomTab('problems');
    await expect(this.page.getByTestId('no-problems')).toBeVisible();
  }

  /**
   * Deploys and waits until the deploy request has returned (Deploy is disabled while it runs)
   * and the app runs. The badge alone is not enough: until the request returns it still shows the
   * previously deployed app's RUNNING, and the new app's topics may not exist yet.
   */
  async deploy(): Promise<void> {
    const button = this.page.getByTestId('deploy');
    await button.click();
    await expect(button).toBeEnabled();
    await expect(this.state).toHaveText('RUNNING');
  }

  /** The node's live counter (process-total summed over tasks), as the exact number. */
  count(id: string): Locator {
    return this.page.getByTestId(`counter-${id}`);
  }

  async expectCount(id: string, total: number): Promise<void> {
    await expect(this.count(id)).toHaveAttribute('data-total', String(total));
    await expect(this.page.getByTestId(`count-${id}`)).toHaveText(total.toLocaleString('en'));
  }

  /** Clicks Export and returns the downloaded file's text. */
  async exportJson(): Promise<{ name: string; text: string }> {
    const download = this.page.waitForEvent('download');
    await this.page.getByTestId('export').click();
    const file = await download;
    const path = await file.path();
    return { name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
  }

  /** Chooses a file in the Import file picker. */
  async importJson(name: string, text: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByTestId('import').click();
    await (
      await chooser
    ).setFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  }
}
