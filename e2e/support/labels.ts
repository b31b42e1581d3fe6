// Every form control a user can reach has a name: a <label> (visible text) or, for controls whose
// purpose the surrounding UI shows (a search box, a file picker), an aria-label.
import { expect, type Locator } from '@playwright/test';

export async function expectEveryControlLabelled(scope: Locator): Promise<void> {
  const unnamed = await scope
    .locator('select, textarea, input:not([type=hidden])')
    .evaluateAll((els) =>
      els
        .filter((el) => {
          const c = el as HTMLInputElement;
          const labelText = Array.from(c.labels ?? [], (l) => l.textContent?.trim() ?? '').join('');
          const aria = c.getAttribute('aria-label')?.trim() ?? '';
          return labelText === '' && aria === '' && !c.hasAttribute('aria-labelledby');
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
  expect(unnamed, 'form controls without a label').toEqual([]);
}
