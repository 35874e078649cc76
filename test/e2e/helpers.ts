import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { APP_REQUEST_HEADER } from '../../src/kyc/contract/api.ts';

/** What the app sends with every API call; a test calling the API directly sends it too. */
export const APP_HEADERS = { [APP_REQUEST_HEADER.name]: APP_REQUEST_HEADER.value };

/**
 * Follows the page's requests from now on; `settled()` resolves once none is in flight but its live
 * event stream, which stays open. A link throttled by DevTools stalls the requests already under way
 * (a CI run's home page never got its chunks and session after the throttle came in the middle of them):
 * a test throttles once the page has settled.
 */
export function followRequests(page: Page): { settled(): Promise<void> } {
  const pending = new Set<object>();
  const done = (request: object) => void pending.delete(request);
  page.on('request', (request) => {
    if (!request.url().includes('/api/events')) pending.add(request);
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { settled: () => expect.poll(() => pending.size).toBe(0) };
}

/** Screenshots for people to look at: test output, git-ignored. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

/**
 * Screenshots for the documentation: written to docs/screenshots/ (and committed) only when
 * UPDATE_SCREENSHOTS=1, so that an ordinary run never changes the tree; test output otherwise.
 */
export async function docScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots';
  mkdirSync(dir, { recursive: true });
  // No caret or animation caught half-way: the same page gives the same picture.
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: options.fullPage ?? false, animations: 'disabled', caret: 'hide' });
}

export async function expectAllPicturesDecoded(page: Page, count: number): Promise<void> {
  const pictures = page.locator('figure[data-attribute] button img');
  await expect(pictures).toHaveCount(count);
  for (const picture of await pictures.all()) {
    // Into view without Playwright's wait for the element to hold still over animation frames:
    // scrollIntoViewIfNeeded waits on requestAnimationFrame, which a loaded machine decoding 3 MB pictures
    // may not run for a long while (the likeliest cause of a CI timeout with every picture on the page).
    await picture.evaluate((img) => img.scrollIntoView({ block: 'nearest' }), undefined, { timeout: 5_000 });
    await expect(picture).toHaveAttribute('src', /^blob:/);
    // The longer side: some sample pictures are turned a quarter.
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && Math.max(img.naturalWidth, img.naturalHeight)))
      .toBeGreaterThanOrEqual(600);
  }
}
