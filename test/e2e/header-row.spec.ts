import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { screenshot } from './helpers.ts';
import { E2E_PORTS } from './servers.ts';

needsServers('gateway', 'gatewayEnvironments');

/**
 * The app header keeps to one row from 1024 px, for every role on every page: a lead's audit page at 1280 x 800
 * and 1024 x 768 wrapped it to two (105 px), its three links, a long name and the role beside the search box.
 * Below 1280 px the toggles and the user open under Menu; the live indicator stays in the row.
 */
const url = `http://127.0.0.1:${E2E_PORTS.gateway}`;
const as = (role: string) => ({ 'X-Forwarded-User': `${role}.reviewer@example.org`, 'X-Forwarded-Role': role });

/** Whether every item of the header's row stands on one line (each one's top above every other's bottom). */
async function oneRow(page: Page): Promise<boolean> {
  const boxes = await page
    .getByRole('banner')
    .locator(':scope > div > *')
    .evaluateAll((items) => items.map((item) => item.getBoundingClientRect()).filter((box) => box.width > 0));
  return Math.max(...boxes.map((box) => box.top)) < Math.min(...boxes.map((box) => box.bottom));
}

/** The widths from which the header is one row. */
const WIDTHS = [
  [1024, 768],
  [1280, 800],
  [1440, 900],
  [1600, 900],
] as const;

const PAGES = [
  ['lead', '/audit', 'Audit trail'],
  ['lead', '/applicants', 'Applicants'],
  ['compliance', '/batch', 'Batch status lookup'],
  ['support', '/applicants', 'Applicants'],
] as const;

// One test for each page and width (each page load is given the test's 30 s on a loaded machine).
for (const [width, height] of WIDTHS) {
  for (const [role, path, heading] of PAGES) {
    test(`at ${width} x ${height} the header is one row for a ${role} user on ${path}, and nothing scrolls sideways`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ viewport: { width, height }, extraHTTPHeaders: as(role) });
      const page = await context.newPage();
      await page.goto(`${url}${path}`);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByTestId('live-indicator')).toHaveAccessibleName('Live');
      expect(await oneRow(page), `${role} on ${path}`).toBe(true);
      expect(await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - innerWidth)).toBeLessThanOrEqual(0);
      if (role === 'lead' && path === '/audit') await screenshot(page, `header-row-audit-${width}`);
      await context.close();
    });
  }
}

/** 40 characters: a long name is cut in the row (session-badge.tsx), whatever its length. */
const LONG_NAME = 'maximilian.konstantinopoulou@example.org';
const environmentsUrl = `http://127.0.0.1:${E2E_PORTS.gatewayEnvironments}`;
/** A recordId as the service makes them: 24 hex digits. */
const RECORD_ID = '65f1c2a9e4b0d3a1f0c9b801';

/** The search box's width, and whether what it holds (or its placeholder, when empty) is cut. */
function searchBox(page: Page) {
  return page
    .getByRole('banner')
    .locator('input[name="id"]')
    .evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const text = input.value || input.placeholder;
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return { width: input.getBoundingClientRect().width, cut: context.measureText(text).width > room };
    });
}

const ROLE_PAGES = [
  ['lead', '/audit', 'Audit trail'],
  ['compliance', '/batch', 'Batch status lookup'],
  ['support', '/applicants', 'Applicants'],
] as const;
/** The sandbox alone (its badge short, "Live"), and two environments (their switcher, a long badge, "Live updates off"). */
const CONFIGS = [
  ['one environment', url, 'Live'],
  ['two environments', environmentsUrl, 'Live updates off'],
] as const;

/**
 * With two environments the header also held their switcher: at 1280 px a support user's search box was squeezed
 * to 95 px ("refId, e"), and a compliance user's header wrapped to two rows (to 1600 px). The row keeps the box at
 * 16rem at least, its placeholder and a recordId whole in it, and the environment in sight, for a 40-character name too.
 */
for (const [width, height] of WIDTHS) {
  for (const [config, base, live] of CONFIGS) {
    for (const [role, path, heading] of ROLE_PAGES) {
      test(`at ${width} x ${height}, ${config}, a ${role} user with a long name on ${path}: the header is one row and the search box keeps its room`, async ({
        browser,
      }) => {
        const context = await browser.newContext({
          viewport: { width, height },
          extraHTTPHeaders: { 'X-Forwarded-User': LONG_NAME, 'X-Forwarded-Role': role },
        });
        const page = await context.newPage();
        await page.goto(`${base}${path}`);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(page.getByTestId('environment-badge')).toBeVisible();
        await expect(page.getByTestId('live-indicator')).toHaveAccessibleName(live);
        const what = `${role} on ${path}, ${config}`;
        expect(await oneRow(page), what).toBe(true);
        expect(await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - innerWidth), what).toBeLessThanOrEqual(0);
        const empty = await searchBox(page);
        expect(empty.width, what).toBeGreaterThanOrEqual(256);
        expect(empty.cut, `${what}: the placeholder is cut`).toBe(false);
        await page.getByRole('banner').locator('input[name="id"]').fill(RECORD_ID);
        expect((await searchBox(page)).cut, `${what}: the recordId is cut`).toBe(false);
        expect(await oneRow(page), what).toBe(true);
        await screenshot(page, `header-row-${config.replace(' ', '-')}-${role}-${width}`);
        await context.close();
      });
    }
  }
}

test('with two environments at 1280 px, Menu holds their switcher and the badge in the row follows it', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: as('support') });
  const page = await context.newPage();
  await page.goto(`${environmentsUrl}/applicants`);
  await expect(page.getByRole('heading', { level: 1, name: 'Applicants' })).toBeVisible();
  const switcher = page.getByRole('combobox', { name: 'Environment' });
  await expect(switcher).toBeHidden();
  await expect(page.getByTestId('environment-badge')).toHaveText('Production · acme_production');
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(switcher).toBeVisible();
  const box = (await switcher.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  await switcher.selectOption('staging');
  await expect(page).toHaveURL(`${environmentsUrl}/e/staging/applicants`);
  await expect(page.getByTestId('environment-badge')).toHaveText('Staging · acme_staging');
  await expect(page.getByRole('combobox', { name: 'Environment' })).toBeHidden();
  expect(await oneRow(page)).toBe(true);
  await context.close();
});

test('at 1024 px Menu opens the toggles and the user within the screen, over the page, and Menu again closes it', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, extraHTTPHeaders: as('lead') });
  const page = await context.newPage();
  await page.goto(`${url}/audit`);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeVisible();
  const mask = page.getByRole('button', { name: 'Privacy mask' });
  await expect(mask).toBeHidden();
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  for (const control of [mask, page.getByRole('button', { name: 'UTC times' }), page.getByRole('button', { name: /^Notifications/ })]) {
    await expect(control).toBeVisible();
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    expect(box.height).toBeGreaterThanOrEqual(24);
  }
  await expect(page.getByTestId('session')).toBeVisible();
  await expect(page.getByTestId('session')).toContainText('Compliance lead');
  // The panel lies over the page: the header keeps its height.
  expect(await oneRow(page)).toBe(true);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'header-row-menu-1024');
  await mask.click();
  await expect(mask).toHaveAttribute('aria-pressed', 'true');
  await menu.click();
  await expect(mask).toBeHidden();

  // From the keyboard: Tab from Menu goes into what it opened (it left the header for the page), and Escape
  // closes it with focus back on Menu (nothing but Menu closed it).
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();
  await expect(mask).toBeHidden();
  await context.close();
});
