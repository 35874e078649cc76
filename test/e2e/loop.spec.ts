import type { Browser, Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { docScreenshot } from './helpers.ts';
import { E2E_PORTS, E2E_USERS } from './servers.ts';

needsServers('sandbox', 'users', 'live', 'blockpass', 'largeQueue');

/**
 * The reviewer's loop (issue 33): from the queue to a candidate and on to the next without the mouse,
 * who else has a candidate open, where the decision is taken, and a status change seen where the
 * reviewer is.
 */
const usersUrl = `http://127.0.0.1:${E2E_PORTS.users}`;
const liveUrl = `http://127.0.0.1:${E2E_PORTS.live}`;
const blockpassUrl = `http://127.0.0.1:${E2E_PORTS.blockpass}`;
const largeUrl = `http://127.0.0.1:${E2E_PORTS.largeQueue}`;
/** Amélie Dubois-Léger, approved, by refId; and the in-review candidate the live test rejects. */
const AMELIE = 'c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10';
const IN_REVIEW = 'cust_000482';

const rows = (page: Page) => page.getByRole('table').locator('tbody tr');
const place = (page: Page) => page.getByTestId('queue-place');
const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Presses keys and counts them, as a reviewer would type them. */
function keyboard(page: Page) {
  let count = 0;
  return {
    press: async (...keys: string[]) => {
      for (const key of keys) {
        count++;
        await page.keyboard.press(key);
      }
    },
    /** The keys pressed since the last call. */
    take: () => {
      const taken = count;
      count = 0;
      return taken;
    },
  };
}

test('a reviewer works three queue candidates with j, k and u alone, at most 15 keys from one to the next', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/applicants');
  await expect(rows(page).first()).toBeVisible();
  const total = await rows(page).count();
  expect(total).toBeGreaterThan(4);
  const keys = keyboard(page);
  const counts: number[] = [];
  const onCandidate = async (position: number) => {
    await expect(place(page)).toHaveText(`${position} of ${total} · All, by status`);
    await expect(heading(page)).toBeVisible();
    counts.push(keys.take());
  };

  // The queue: j to the first row, Enter opens it.
  await keys.press('j', 'Enter');
  await onCandidate(1);
  // Back to the queue (u): the row just opened has focus, and says it was opened; j and Enter open the next.
  await keys.press('u');
  await expect(page).toHaveURL(/\/applicants$/);
  await expect(rows(page).nth(0).locator('a[data-open]')).toBeFocused();
  await expect(rows(page).nth(0)).toContainText('Opened');
  await keys.press('j', 'Enter');
  await onCandidate(2);
  // From a candidate straight to the next (j), and back to the one before (k).
  await keys.press('j');
  await onCandidate(3);
  const third = page.url();
  await keys.press('k');
  await expect(place(page)).toHaveText(`2 of ${total} · All, by status`);
  await keys.press('j');
  await expect(page).toHaveURL(third);
  keys.take();

  await keys.press('u');
  const focused = rows(page).nth(2).locator('a[data-open]');
  await expect(focused).toBeFocused();
  await expect(focused).toBeInViewport();
  for (const row of [0, 1, 2]) await expect(rows(page).nth(row).locator('[data-visited]')).toHaveText('✓ Opened');
  await expect(rows(page).nth(3).locator('[data-visited]')).toHaveCount(0);
  // The browser's Back from a candidate reached with j leads to the queue too: each step replaced the last.
  console.log(`Keys from the queue (or the candidate before) to each of three candidates: ${counts.join(', ')}`);
  for (const count of counts) expect(count).toBeLessThanOrEqual(15);
});

test('Next goes on to the next page of the queue, and Back to queue returns to that page', async ({ page }) => {
  await page.goto(`${largeUrl}/applicants`);
  await expect(rows(page)).toHaveCount(50);
  const keys = keyboard(page);
  // k with no row focused: the last row of the page.
  await keys.press('k', 'Enter');
  await expect(place(page)).toHaveText(/^50 of \d+ · All, by status$/);
  const fiftieth = page.url();
  await keys.press('j');
  await expect(place(page)).toHaveText(/^51 of \d+ · All, by status$/);
  expect(page.url()).not.toBe(fiftieth);
  await keys.press('u');
  await expect(page).toHaveURL(/\/applicants\?page=2$/);
  await expect(rows(page).nth(0).locator('a[data-open]')).toBeFocused();
  expect(keys.take()).toBe(4);
});

async function signedIn(browser: Browser, role: keyof typeof E2E_USERS): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${usersUrl}/applicants`);
  await page.getByLabel('Username').fill(E2E_USERS[role].username);
  await page.getByLabel('Password').fill(E2E_USERS[role].password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Applicants' })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  return page;
}

// How fast the live events arrive is the load test's to measure (npm run loadtest: fan-out p99), not a bound here:
// on a loaded 2-core CI machine a 2 s bound can fail for the machine's sake (a failure in the CI of 14eff47 was never named).
test('two reviewers see each other on the candidate and its queue row without reloading, and lose it once one closes', async ({
  browser,
}) => {
  const ana = await signedIn(browser, 'compliance');
  const sam = await signedIn(browser, 'support');
  const row = (page: Page) => rows(page).filter({ hasText: AMELIE });

  await row(ana).locator('a[data-open]').click();
  await expect(heading(ana)).toHaveText('Amélie Dubois-Léger');
  // Sam's queue, which nobody reloaded: Ana's initials on the row, her name in words.
  await expect(row(sam).locator('[data-viewers="ana"]')).toBeVisible();
  await expect(row(sam)).toContainText('ana is viewing');

  await row(sam).locator('a[data-open]').focus();
  await sam.keyboard.press('Enter');
  await expect(sam.getByTestId('viewers')).toHaveText(/ana is viewing this candidate$/);
  await expect(ana.getByTestId('viewers')).toHaveText(/sam is viewing this candidate$/);
  await expect(sam.getByTestId('queue-place')).toHaveText(/^\d+ of \d+ · All, by status$/);
  expect(await seriousViolations(sam)).toEqual([]);
  await expect(ana.getByTestId('queue-place')).toHaveText(/^\d+ of \d+ · All, by status$/);
  await docScreenshot(ana, 'loop-candidate');

  await sam.keyboard.press('u');
  await expect(row(sam).locator('a[data-open]')).toBeFocused();
  await expect(row(sam)).toContainText('Opened');
  await expect(row(sam).locator('[data-viewers="ana"]')).toBeVisible();
  await docScreenshot(sam, 'loop-queue');

  // Ana closes her window: her stream ends, and Sam's row loses her.
  await ana.context().close();
  await expect(row(sam).locator('[data-viewers]')).toHaveCount(0);
  await sam.context().close();
});

test('a status change that arrives while the reviewer is scrolled down is announced where they are', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${liveUrl}/candidates/refId/${IN_REVIEW}`);
  await expect(heading(page)).toBeVisible();
  await expect(page.getByTestId('live-indicator')).toHaveAccessibleName('Live');
  // The sandbox's tool sits below every fact of the candidate, after the heading in reading order.
  const simulate = page.getByRole('group', { name: 'Sandbox tool: simulate a decision' });
  // The sandbox keeps its statuses while the servers run: a run before this one on the same servers left
  // the candidate rejected, and Reject would change nothing. Ready to review moves it to waiting first
  // (no button puts it back in review), and the page is opened again once that change has reached it.
  const chip = page.locator('main header [data-status]').first();
  let from = 'In review';
  if ((await chip.getAttribute('data-status')) !== 'inreview') {
    await simulate.getByRole('button', { name: 'Ready to review' }).click();
    await expect(chip).toHaveAttribute('data-status', 'waiting');
    await page.reload();
    await expect(heading(page)).toBeVisible();
    await expect(page.getByTestId('live-indicator')).toHaveAccessibleName('Live');
    from = 'Waiting';
  }
  expect(await heading(page).evaluate((h1, tool) => Boolean(h1.compareDocumentPosition(tool!) & 4), await simulate.elementHandle())).toBe(
    true,
  );
  await simulate.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(300);
  await expect(heading(page)).not.toBeInViewport();

  await simulate.getByRole('button', { name: 'Reject' }).click();
  const toast = page.getByTestId('status-toast');
  await expect(toast).toBeInViewport();
  await expect(toast).toContainText(new RegExp(`^${from} → Rejected, (just now|\\d+ seconds? ago) — from the KYC service`));
  // Never "in 4 seconds": a date just ahead of this browser's clock is "just now".
  await expect(toast).not.toContainText(/\bin \d/);
  await expect(page.getByTestId('status-change-announcement')).toHaveText(`Status changed: ${from} → Rejected — from the KYC service.`);
  // The reviewer stays where they were: the line added at the top moved nothing in view (scroll anchoring).
  await expect(simulate).toBeInViewport();
  await expect(heading(page)).not.toBeInViewport();
  expect(await seriousViolations(page)).toEqual([]);
  await docScreenshot(page, 'status-toast');

  await toast.getByRole('button', { name: 'Dismiss' }).click();
  await expect(toast).toHaveCount(0);
  // The line at the top keeps the status's own date.
  await expect(page.getByTestId('live-status')).toHaveText(/^Rejected at .* — from the KYC service/);
});

test("the dashboard link of a Blockpass environment opens its console's candidate page; an environment's dashboardUrl wins", async ({
  page,
}) => {
  // Nothing may reach the service: the page's lookups are stopped in the browser (the bar needs none).
  await page.route(
    (url) => /^\/api\/(e\/[^/]+\/)?(candidates|status|applicants)\b/.test(url.pathname),
    (route) => route.abort(),
  );
  const RECORD = '65f1c2a9e4b0d3a1f0c9b801';
  await page.goto(`${blockpassUrl}/candidates/recordId/${RECORD}`);
  const link = page.getByRole('link', { name: "Open in the KYC service's dashboard (opens in a new tab)" });
  await expect(link).toHaveAttribute('href', `https://kyc.blockpass.org/kyc/dashboard/#/acme_kyc/kyc_detail/${RECORD}`);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noreferrer');

  await page.goto(`${blockpassUrl}/e/staging/candidates/recordId/${RECORD}`);
  await expect(link).toHaveAttribute('href', `https://console.example.org/kyc/${RECORD}`);
});

test("the sandbox's dashboard link opens the page that explains where a decision is taken", async ({ page }) => {
  await page.goto(`/candidates/refId/${AMELIE}`);
  await expect(heading(page)).toBeVisible();
  await page.getByRole('link', { name: "Open in the KYC service's dashboard" }).click();
  await expect(page.getByRole('heading', { level: 1, name: "The KYC service's dashboard" })).toBeVisible();
  await expect(page.getByText(/kyc\.blockpass\.org\/kyc\/dashboard\/#\/.+\/kyc_detail\/65f1c2a9e4b0d3a1f0c9b801/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Back to the candidate' }).click();
  await expect(heading(page)).toHaveText('Amélie Dubois-Léger');
});
