// Screenshots for the docs: taken by the specs that reach the state they show, and written under
// docs/ only when asked (`pnpm --filter @streamwright/e2e screenshot` sets SW_WRITE_DOC_SCREENSHOTS),
// so a test run never changes the repository.
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

export async function docScreenshot(page: Page, file: string): Promise<void> {
  if (!process.env.SW_WRITE_DOC_SCREENSHOTS) return;
  await page.screenshot({ path: fileURLToPath(new URL(`../../docs/${file}`, import.meta.url)) });
}
