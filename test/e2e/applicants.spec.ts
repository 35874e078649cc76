import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { E2E_ARCHIVING_DIR, E2E_PORTS } from './servers.ts';
import { PEOPLE } from '../../src/server/sandbox/people.ts';
import { seriousViolations } from './axe.ts';
import { APP_HEADERS, screenshot } from './helpers.ts';

needsServers('sandbox', 'largeQueue', 'archivingKey', 'upstream');

/** The app on the sandbox with SANDBOX_LARGE_IMAGES=1: enough candidates for the queue to page. */
const largeUrl = `http://127.0.0.1:${E2E_PORTS.largeQueue}`;
/** The app on the standalone sandbox, with its key that archives after extract. */
const archivingUrl = `http://127.0.0.1:${E2E_PORTS.archivingKey}`;

/** The default sandbox's candidates per status, from its own data, and the archive-after-extract demonstration (waiting). */
const count = (status?: string) =>
  PEOPLE.filter((person) => status === undefined || person.status === status).length +
  (status === undefined || status === 'waiting' ? 1 : 0);

const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}`) });

test.describe('the applicants queue', () => {
  test('is linked from the header; tabs filter with counts; a row opens the candidate', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Applicants' }).click();
    await expect(page).toHaveURL(/\/applicants$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Applicants' })).toBeVisible();
    // The server reads the sandbox's list into its index as it starts (issue 32): Refresh until it has read it whole.
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(page.getByTestId('queue-freshness')).toContainText('List read from the KYC service', { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    // The default sandbox: every candidate on one page, status by status.
    await expect(rows(page)).toHaveCount(count());
    await expect(tab(page, 'All')).toHaveAttribute('aria-selected', 'true');
    await expect(tab(page, 'All')).toContainText(String(count()));
    await expect(tab(page, 'Waiting')).toContainText(String(count('waiting')));
    await expect(tab(page, 'In review')).toContainText(String(count('inreview')));
    await expect(tab(page, 'Approved')).toContainText(String(count('approved')));
    await expect(page.getByTestId('fetched-at')).toContainText('Fetched');

    await tab(page, 'In review').click();
    await expect(page).toHaveURL(/\/applicants\?status=inreview$/);
    await expect(rows(page)).toHaveCount(count('inreview'));
    for (const row of await rows(page).all()) await expect(row).toContainText('In review');

    // The candidate without a refId opens by its recordId.
    const kwame = rows(page).filter({ hasText: '65f1c2a9e4b0d3a1f0c9b810' });
    // The row's own link (its other opens the KYC service's dashboard).
    await kwame.locator('a[data-open]').click();
    await expect(page).toHaveURL(/\/candidates\/recordId\/65f1c2a9e4b0d3a1f0c9b810$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kwame Mensah');
    // Back to the same tab.
    await page.goBack();
    await expect(tab(page, 'In review')).toHaveAttribute('aria-selected', 'true');
    await expect(rows(page)).toHaveCount(count('inreview'));
  });

  test('tabs work from the keyboard', async ({ page }) => {
    await page.goto('/applicants');
    await expect(rows(page)).toHaveCount(count());
    await tab(page, 'All').focus();
    await page.keyboard.press('ArrowRight');
    await expect(tab(page, 'Waiting')).toBeFocused();
    await page.keyboard.press('End');
    await expect(tab(page, 'Incomplete')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(tab(page, 'Approved')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/status=approved/);
    await expect(tab(page, 'Approved')).toHaveAttribute('aria-selected', 'true');
    await expect(rows(page)).toHaveCount(count('approved'));
    // Tab leaves the tab list for the panel (its filters first, then its first link), never to another tab.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tabpanel').locator(':focus')).toHaveCount(1);
    await expect(page.locator(':focus')).toHaveAccessibleName('Certificate needs attention');
  });

  test('pages through a long queue, the page in the address', async ({ page }) => {
    await page.goto(`${largeUrl}/applicants`);
    await expect(rows(page)).toHaveCount(50);
    const all = Number(await tab(page, 'All').locator('[data-count]').getAttribute('data-count'));
    expect(all).toBeGreaterThan(100);
    const pages = page.getByRole('navigation', { name: 'Pages' });
    await expect(pages).toContainText(`Showing 1–50 of ${all}`);
    const firstOnPage1 = await rows(page).first().textContent();
    await pages.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/applicants\?page=2$/);
    await expect(pages).toContainText(`Showing 51–100 of ${all}`);
    await expect(rows(page).first()).not.toHaveText(firstOnPage1!);
    await screenshot(page, 'applicants-page-2');

    // A filtered tab pages too, from its first page.
    await tab(page, 'Waiting').click();
    await expect(page).toHaveURL(/\/applicants\?status=waiting$/);
    const waiting = Number(await tab(page, 'Waiting').locator('[data-count]').getAttribute('data-count'));
    expect(waiting).toBeGreaterThan(50);
    await expect(rows(page)).toHaveCount(50);
    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/\/applicants\?status=waiting&page=2$/);
    await expect(rows(page)).toHaveCount(Math.min(50, waiting - 50));
    for (const row of await rows(page).all()) await expect(row).toContainText('Waiting');
    // Reload keeps the place.
    await page.reload();
    await expect(tab(page, 'Waiting')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText('Showing 51–');
  });

  test('has no serious or critical accessibility violation', async ({ page }) => {
    await page.goto(`${largeUrl}/applicants?status=waiting`);
    await expect(rows(page)).toHaveCount(50);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

/**
 * What an operator does to look again after replacing the key (or here, to run this test again against
 * the same servers): the server's finding removed (the file beside its audit log), and the sandbox's
 * demonstration candidate, deleted 10 s after the last run's lookup, put back.
 */
async function resetArchiving(request: APIRequestContext): Promise<void> {
  for (const name of readdirSync(E2E_ARCHIVING_DIR)) {
    if (/^archiving-key-.*\.json$/.test(name)) rmSync(path.join(E2E_ARCHIVING_DIR, name));
  }
  expect((await request.post(`http://127.0.0.1:${E2E_PORTS.upstream}/_test/reset`)).status()).toBe(200);
}

test.describe('a key that archives after extract', () => {
  test('the first lookup shows the warning, the second is refused with the explanation', async ({ page }) => {
    await resetArchiving(page.request);
    await page.goto(`${archivingUrl}/candidates/refId/archive-after-extract-demo`);
    const warning = page.getByTestId('archive-warning');
    await expect(warning).toBeVisible();
    // The moment in the browser's zone, with its zone, like every time on the page.
    await expect(warning).toContainText(
      /This API key archives identity data after each lookup: the service deletes this candidate's identity data at \w{3} \d{1,2}, \d{4}, \d\d:\d\d:\d\d\s[AP]M (UTC|UTC[+-][\d:]+|[A-Z]{2,5}) \(in \d+ s\)/,
    );
    await expect(warning).toContainText('This lookup started the deletion; it cannot be undone.');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await screenshot(page, 'archive-warning');
    expect(await seriousViolations(page)).toEqual([]);

    // The home page now warns compliance users.
    await page.goto(`${archivingUrl}/`);
    await expect(page.getByTestId('archiving-key-banner')).toContainText('archives identity data after each full lookup');

    // Any further full lookup is refused before it reaches the service.
    await page.goto(`${archivingUrl}/candidates/refId/archive-after-extract-demo`);
    const alert = page.getByRole('alert');
    await expect(alert).toHaveAttribute('data-error-kind', 'archiving_key');
    await expect(alert).toContainText('Full lookups are refused: this API key deletes identity data');
    await expect(alert).toContainText('"archiveOnExtract": "accept"');
    await expect(page.getByTestId('archive-warning')).toHaveCount(0);
    const meta = await (await page.request.get(`${archivingUrl}/api/meta`, { headers: APP_HEADERS })).json();
    expect(meta.archivingKey).toMatchObject({ accepted: false });

    // Without a status-level key the list would be read with this key, its records whole: the crawler
    // does not read it (crawler-list.ts), and the queue says why and what to configure.
    await page.goto(`${archivingUrl}/applicants`);
    await expect(
      page
        .getByText(/without a status-level key it is read with the full key|without a status-level key the list would be read with it/)
        .first(),
    ).toBeVisible();
    await screenshot(page, 'archive-queue-not-read');
  });
});
