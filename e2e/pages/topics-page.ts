// The Topics view: the runtime's topics, the produce form and the latest records of a topic.
import { expect, type Locator, type Page } from '@playwright/test';

export class TopicsPage {
  readonly rows: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('record-row');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('view-topics').click();
    await expect(this.page.getByTestId('topics-view')).toBeVisible();
  }

  async backToDesigner(): Promise<void> {
    await this.page.getByTestId('view-designer').click();
    await expect(this.page.getByTestId('canvas')).toBeVisible();
  }

  async choose(topic: string): Promise<void> {
    await this.page.getByTestId('refresh-topics').click();
    await this.page.getByTestId(`topic-${topic}`).click();
    await expect(this.page.getByTestId('records-view')).toContainText(`Latest records of ${topic}`);
  }

  /** Fills the produce form and waits for the runtime's acknowledgement. */
  async produce(record: {
    key: string | null;
    value: string;
  }): Promise<{ partition: number; offset: number }> {
    const form = this.page.getByTestId('produce-form');
    const nullKey = form.getByTestId('produce-null-key');
    if (record.key === null) await nullKey.check();
    else {
      await nullKey.uncheck();
      await form.getByTestId('produce-key').fill(record.key);
    }
    await form.getByTestId('produce-value').fill(record.value);
    await form.getByTestId('produce').click();
    const result = form.getByTestId('produce-result');
    await expect(result).toHaveText(/^Produced to partition \d+ at offset \d+$/);
    const [, partition, offset] =
      /partition (\d+) at offset (\d+)/.exec((await result.textContent()) ?? '') ?? [];
    return { partition: Number(partition), offset: Number(offset) };
  }

  /** The decoded values of the records shown, in table order. */
  async values(): Promise<string[]> {
    return this.rows.getByTestId('record-value').allTextContents();
  }
}
