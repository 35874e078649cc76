import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { screenshot } from './helpers.ts';
import { E2E_PORTS } from './servers.ts';

needsServers('largeQueue');

/** The app on the sandbox with large images: its queue candidates wait distinct times over three days. */
const largeUrl = `http://127.0.0.1:${E2E_PORTS.largeQueue}`;
const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const order = (page: Page) => page.getByTestId('queue-order');
/** The "since" dates of the rows shown, as ISO strings (which sort as the moments do). */
const dates = (page: Page) => page.locator('tbody tr time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')!));

test.describe('the queue, oldest first', () => {
  test('the Waiting tab of the sandbox is ordered oldest first across pages, with its SLA flags', async ({ page }) => {
    await page.goto(`${largeUrl}/applicants?status=waiting`);
    await expect(order(page)).toBeVisible();
    // The server's crawler reads the list and looks the dates up in the background: Refresh until every one is known.
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(order(page)).toHaveText('Ordered by age: oldest first.', { timeout: 2000 });
    }).toPass({ timeout: 60_000 });
    // Read from the server's index of the service's list (issue 32), which says how current it is.
    await expect(page.getByTestId('queue-freshness')).toHaveText(
      /^List read from the KYC service .+ ago, kept current since by live updates; (\d+) of \1 dated\.$/,
    );
    const waiting = Number(
      await page
        .getByRole('tab', { name: /^Waiting/ })
        .locator('[data-count]')
        .getAttribute('data-count'),
    );
    expect(waiting).toBeGreaterThan(50);
    await expect(rows(page)).toHaveCount(50);
    const first = await dates(page);
    expect(first).toHaveLength(50);
    // The oldest waits longer than the default SLA of 48 hours: flagged in words, and counted on the tab.
    await expect(rows(page).first()).toContainText('Over SLA');
    await expect(page.getByRole('tab', { name: /^Waiting/ })).toContainText(/\d+ over SLA/);
    await screenshot(page, 'queue-oldest-first');

    await page.getByRole('link', { name: /Next page/ }).click();
    await expect(page).toHaveURL(/status=waiting&page=2$/);
    await expect(rows(page)).toHaveCount(waiting - 50);
    const second = await dates(page);
    const all = [...first, ...second];
    expect(all).toHaveLength(waiting);
    expect(new Set(all).size).toBe(waiting);
    expect(all).toEqual([...all].sort());
    // The youngest are under the SLA.
    await expect(rows(page).last()).not.toContainText('Over SLA');
  });

  test('a click anywhere on a row opens its candidate', async ({ page }) => {
    await page.goto(`${largeUrl}/applicants?status=waiting`);
    await expect(rows(page)).toHaveCount(50);
    const href = await rows(page).first().locator('a[data-open]').getAttribute('href');
    // The status cell holds no link of its own: the row's link, stretched over the row, takes the click there.
    const box = (await rows(page).first().getByRole('cell').first().boundingBox())!;
    await page.mouse.click(box.x + box.width - 4, box.y + box.height / 2);
    await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });

  test('has no serious or critical accessibility violation', async ({ page }) => {
    await page.goto(`${largeUrl}/applicants?status=waiting`);
    await expect(rows(page)).toHaveCount(50);
    await expect(order(page)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
