import { expect, test, needsServers } from './fixtures.ts';
import { E2E_PORTS } from './servers.ts';
import { seriousViolations } from './axe.ts';

needsServers('sandbox', 'environments', 'gateway');

/** How long a candidate page's first answer may take to show, on a machine still starting the suite's servers (CI once took over 5 s). */
const FIRST_ANSWER_MS = 15_000;

test('the home page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Sample candidates' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the candidate page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible({ timeout: FIRST_ANSWER_MS });
  await page.locator('details[data-raw-json] summary').first().click();
  expect(await seriousViolations(page)).toEqual([]);
});

// One candidate per certificate shape (issue 19), each certificate's raw JSON open.
for (const [shape, refId, certificates] of [
  ['results in an object reviewBody', 'hu-2026-0117', 2],
  ['results in _customFields and a reviewBody string of checks', 'acct-30291', 2],
  ['a certificate that is not valid JSON', 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d', 1],
] as const) {
  test(`the candidate page with ${shape} has no serious or critical accessibility violation`, async ({ page }) => {
    await page.goto(`/candidates/refId/${refId}`);
    await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible({ timeout: FIRST_ANSWER_MS });
    await expect(page.locator('article[data-cert]')).toHaveCount(certificates);
    await expect(page.getByRole('region', { name: 'Decision summary' }).locator('[data-cert-chip]')).toHaveCount(certificates);
    for (const summary of await page.locator('details[data-raw-json] summary').all()) await summary.click();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test('the open viewer, compare mode and the masked page have no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/candidates/refId/user-7781');
  await page.getByRole('button', { name: 'Open a larger view of the passport' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('img')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Compare' }).click();
  await expect(dialog.locator('img')).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Privacy mask', exact: true }).click();
  await expect(page.getByRole('button', { name: /^Date of birth: hidden/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the not-found page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/candidates/refId/nobody');
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the batch page, with its results, has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/batch');
  await page.getByRole('textbox', { name: 'refIds to look up' }).fill('cust_000482\nnobody\n..');
  await page.getByRole('button', { name: 'Look up all' }).click();
  await expect(page.getByText(/^Done:/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the home page with recent lookups, and a candidate page with two environments, have no serious or critical violation', async ({
  page,
}) => {
  const environments = `http://127.0.0.1:${E2E_PORTS.environments}`;
  await page.goto(`${environments}/candidates/refId/crm-55102`);
  await expect(page.getByRole('button', { name: 'Copy summary' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Candidate Lookup' }).click();
  await expect(page.getByRole('region', { name: 'Recent lookups' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test("a support user's candidate page with its reply note has no serious or critical accessibility violation", async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-User': 'sam@example.org', 'X-Forwarded-Role': 'support' } });
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${E2E_PORTS.gateway}/candidates/refId/user-7781`);
  // Blocked: no customer reply, only the internal note.
  await expect(page.getByTestId('reply-note')).toContainText('Internal note: Do not disclose the reason; escalate to compliance.');
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});

test('the status-change banner has no serious or critical accessibility violation', async ({ page }) => {
  await page.clock.install();
  // The status check after a while away answers another status, as if the candidate had moved on.
  await page.route('**/api/status/refId/cust_000482', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data.status = body.data.status === 'approved' ? 'rejected' : 'approved';
    await route.fulfill({ response, json: body });
  });
  await page.goto('/candidates/refId/cust_000482');
  // The first answer, as every other test here waits for it: CI's loaded machine took over 5 s once.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: FIRST_ANSWER_MS });
  await page.evaluate(() => window.dispatchEvent(new Event('blur')));
  await page.clock.fastForward('01:05');
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  const banner = page.getByRole('alert').filter({ hasText: 'The status changed' });
  await expect(banner.getByRole('button', { name: 'Refresh now' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the batch offer for a pasted list has no serious or critical accessibility violation', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  const box = page.getByLabel('refId to look up');
  await expect(box).toBeFocused();
  await page.evaluate(() => navigator.clipboard.writeText('cust_000482\nuser-7781\ncrm-55102'));
  await page.keyboard.press('Control+V');
  const offer = page.getByRole('status').filter({ hasText: 'You pasted a list of 3 ids' });
  await expect(offer.getByRole('button', { name: 'Look up all 3 in a batch' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('every control is reachable by keyboard with a visible focus', async ({ page }) => {
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible({ timeout: FIRST_ANSWER_MS });
  const reached = new Set<string>();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const visible = style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
      return { label: el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? el.tagName, visible };
    });
    if (!focus) continue;
    expect(focus.visible, `focus ring on ${focus.label}`).toBe(true);
    reached.add(focus.label);
  }
  for (const label of ['Copy refId', 'Copy recordId', 'Open a larger view of the passport', 'Look up']) {
    expect([...reached]).toContain(label);
  }
});

test('after a navigation that took the focused element away, focus is on the new page’s heading, and Tab goes on from there', async ({
  page,
}) => {
  await page.goto('/');
  // A sample card, clicked: the card is gone with the home page.
  await page.getByRole('region', { name: 'Sample candidates' }).getByRole('link').first().click();
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).not.toHaveText('Look up a candidate', { timeout: FIRST_ANSWER_MS });
  await expect(heading).toBeFocused();
  await page.keyboard.press('Tab');
  const next = await page.evaluate(() => ({
    inMain: document.getElementById('main')?.contains(document.activeElement) ?? false,
    text: document.activeElement?.textContent?.trim().slice(0, 40),
  }));
  expect(next.inMain, `Tab after the heading reached "${next.text}"`).toBe(true);

  // The header's search box, made anew for each page: Enter in it leaves focus on the next candidate's heading.
  await page.keyboard.press('/');
  const box = page.getByRole('banner').locator('input[name="id"]');
  await expect(box).toBeFocused();
  await box.fill('user-7781');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/candidates\/refId\/user-7781$/);
  await expect(heading).toBeFocused({ timeout: FIRST_ANSWER_MS });
  expect(await seriousViolations(page)).toEqual([]);
});

test("at 390 px (a phone, 200 % zoom) the header's Menu is used with Tab: into its toggles, Escape back to Menu, Tab out of the last closes it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/applicants');
  const menu = page.getByRole('button', { name: 'Menu' }).locator('visible=true');
  await expect(menu).toHaveCount(1);
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  // Before (UX review): Tab went to Applicants, before the panel in the page, and the Menu closed with its toggles never reached.
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeFocused();
  for (const name of ['UTC times', 'Privacy mask']) {
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name, exact: true })).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
  }
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  // Tab out of its last item: the Menu closes, focus where Tab took it (the page, not the header).
  await page.keyboard.press('Tab');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  expect(await page.evaluate(() => document.getElementById('header-menu')?.contains(document.activeElement))).toBe(false);
});
