import type { Page } from '@playwright/test';
import { expect, needsServers, test } from './fixtures.ts';
import { mkdirSync } from 'node:fs';

needsServers('sandbox');

/**
 * What a candidate page's first screen holds (UX review): on a phone a compliance user's decision summary
 * comes before the ids and the hand-off, as a support user's answer does (support-loop.spec.ts); and a
 * candidate opened by a link has its dashboard link beside Print, not on a bar of its own.
 */
const summary = (page: Page) => page.getByRole('region', { name: 'Decision summary' });
const dashboardLink = (page: Page) => page.getByRole('link', { name: "Open in the KYC service's dashboard" });

/** The first screen as seen, for people to look at (test output, git-ignored). */
async function firstScreen(page: Page, name: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, animations: 'disabled', caret: 'hide' });
}

/** From the queue's In review tab, as the reviewer did: the bar then has the queue's Back, Previous and Next. */
async function openFromQueue(page: Page, refId: string) {
  await page.goto('/applicants');
  await page.getByRole('tab', { name: /^In review/ }).click();
  await page.locator('tbody tr', { hasText: refId }).locator('a[data-open]').first().click();
  await expect(page.getByTestId('queue-place')).toBeVisible();
}

test.describe('on a phone, a compliance user', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('sees the decision summary on the first screen, above the ids and the hand-off, in reading order too', async ({ page }) => {
    await openFromQueue(page, 'hu-2026-0117');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kovács Eszter');
    const strip = summary(page);
    await expect(strip).toContainText('Risk level');
    const box = (await strip.boundingBox())!;
    // The first id's row (in the header card before, in a card of its own below the summary now).
    const ids = (await page.getByRole('button', { name: 'Copy refId' }).boundingBox())!;
    expect(box.y).toBeLessThan(ids.y);
    // The whole strip (the Onfido chip, the risk level, the review note) within the first screen.
    expect(box.y + box.height).toBeLessThan(844);
    const copySummary = (await page.getByRole('button', { name: 'Copy summary' }).boundingBox())!;
    expect(box.y).toBeLessThan(copySummary.y);
    // The DOM order is the order seen: the name, the summary, then Copy summary and the ids.
    const order = await page.evaluate(() => {
      const at = (selector: string) => document.querySelector(selector)!;
      const name = at('h1');
      const strip = at('[aria-label="Decision summary"]');
      const ids = at('[aria-label="Copy refId"]');
      const precedes = (a: Node, b: Node) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      return [precedes(name, strip), precedes(strip, ids)];
    });
    expect(order).toEqual([true, true]);
    // Opened from the queue: the dashboard link stays on the bar, beside Back, Previous and Next.
    await expect(page.getByTestId('review-bar').getByRole('link', { name: /dashboard/ })).toBeVisible();
    await firstScreen(page, 'first-screen-compliance-390');
    // Wider than a phone (a window widened, a tablet turned): the ids are back in the header, above the summary.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('region', { name: 'Identifiers' })).toHaveCount(0);
    expect((await strip.boundingBox())!.y).toBeGreaterThan((await page.getByRole('button', { name: 'Copy refId' }).boundingBox())!.y);
  });
});

for (const width of [1280, 390]) {
  test(`at ${width} px, a candidate opened by a link has its dashboard link beside Print, and no bar above the page`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/candidates/refId/hu-2026-0117');
    await expect(summary(page)).toBeVisible();
    // No queue, nobody else: the bar draws no box (it held that one link, across the page).
    expect(await page.getByTestId('review-bar').boundingBox()).toBeNull();
    const link = (await dashboardLink(page).boundingBox())!;
    const print = (await page.getByRole('button', { name: 'Print' }).boundingBox())!;
    if (width === 1280) {
      // On Print's line, after it.
      expect(link.y + link.height / 2).toBeGreaterThan(print.y);
      expect(link.y + link.height / 2).toBeLessThan(print.y + print.height);
      expect(link.x).toBeGreaterThan(print.x);
    } else {
      // On a phone the row wraps: the link on the line under Copy summary and Print, above the ids.
      expect(link.y).toBeGreaterThanOrEqual(print.y);
      const ids = (await page.getByRole('region', { name: 'Identifiers' }).boundingBox())!;
      expect(link.y).toBeLessThan(ids.y);
    }
    await firstScreen(page, `dashboard-by-link-${width}`);
  });
}
