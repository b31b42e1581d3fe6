// The test fixture every spec uses: page objects, and a guard that fails the test on any console
// error or uncaught page error (React warnings included).
import { test as base, expect } from '@playwright/test';
import { DesignerPage } from '../pages/designer-page.js';
import { TopicsPage } from '../pages/topics-page.js';

interface Fixtures {
  consoleErrors: string[];
  designer: DesignerPage;
  topics: TopicsPage;
}

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      await use(errors);
      expect(errors, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
  designer: async ({ page }, use) => use(new DesignerPage(page)),
  topics: async ({ page }, use) => use(new TopicsPage(page)),
});

export { expect };
