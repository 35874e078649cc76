import type { Browser, Locator } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { E2E_PORTS } from './servers.ts';

needsServers('gateway');

/**
 * Issue 19: a sanctions hit must never read "no result", whatever the certificate's shape. A reviewer
 * sees the potential match at a glance: in the decision summary, without scrolling, above the pictures.
 */
const gatewayUrl = `http://127.0.0.1:${E2E_PORTS.gateway}`;
const SLUG = 'complyadvantage-service-cert';
/** Blocked; the potential match only in the certificate's `Claim._customFields`. */
const IN_CUSTOM_FIELDS = 'acct-30291';
/** Blocked; the potential match in an object `reviewBody` (the sandbox's first shape). */
const IN_REVIEW_BODY = 'user-7781';

/** Top and bottom in page coordinates, so that any scrolling done by the page does not change them. */
const extent = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY, fold: window.innerHeight };
  });

/** The candidate's page as a compliance user behind the identity-aware proxy: everything, pictures included. */
async function openAsCompliance(browser: Browser, refId: string) {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'X-Forwarded-User': 'ana@example.org', 'X-Forwarded-Role': 'compliance' },
  });
  const page = await context.newPage();
  await page.goto(`${gatewayUrl}/candidates/refId/${refId}`);
  await expect(page.getByTestId('session')).toContainText('Compliance');
  const summary = page.getByRole('region', { name: 'Decision summary' });
  const chip = summary.locator(`[data-cert-chip="${SLUG}"]`);
  // The tone sits on the chip or on an element inside it.
  const tone = summary.locator(`[data-cert-chip="${SLUG}"][data-tone], [data-cert-chip="${SLUG}"] [data-tone]`).first();
  // The pictures arrive after the record: wait for the first to be drawn, so that the layout is final.
  const firstPicture = page.locator('figure[data-attribute]').first();
  await expect(firstPicture.locator('button img')).toHaveAttribute('src', /^blob:/);
  return { context, chip, tone, firstPicture };
}

test.describe('the potential-match chip in the decision summary', () => {
  for (const [shape, refId] of [
    ['an object reviewBody', IN_REVIEW_BODY],
    ['Claim._customFields', IN_CUSTOM_FIELDS],
  ] as const) {
    test(`shows a potential match kept in ${shape} coloured, above the fold and above the pictures`, async ({ browser }) => {
      const { context, chip, tone, firstPicture } = await openAsCompliance(browser, refId);
      await expect(tone).toHaveAttribute('data-tone', 'caution');
      await expect(chip).toContainText('potential_match');
      await expect(chip).not.toContainText('no result');

      const chipBox = await extent(chip);
      const pictureBox = await extent(firstPicture);
      expect(chipBox.bottom, 'the chip is seen without scrolling').toBeLessThanOrEqual(chipBox.fold);
      expect(chipBox.top, 'the chip is above the first picture').toBeLessThan(pictureBox.top);
      await context.close();
    });
  }
});
