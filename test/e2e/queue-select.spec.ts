import type { Page } from '@playwright/test';
import { ROW_OPEN_DELAY_MS } from '../../src/app/applicants/row-open.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { screenshot } from './helpers.ts';

needsServers('sandbox');

/**
 * In Chromium, where a link stretched over the row (CSS) took every click: a queue row's ids and dates
 * can be selected, and a double-click or a drag that selects opens nothing (opening is an audited full
 * lookup); a plain click elsewhere on the row still opens it. And `j` pressed quickly on a candidate page
 * looks up only the candidate it lands on.
 */
const rows = (page: Page) =>
  page
    .getByRole('table')
    .locator('tbody tr')
    .filter({ has: page.locator('a[data-open]') });
/** Resolves after any open a click before it may have started (the page's timers run in order). */
const afterRowWait = (page: Page) => page.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), ROW_OPEN_DELAY_MS + 100);
const selected = (page: Page) => page.evaluate(() => window.getSelection()?.toString() ?? '');

function watchLookups(page: Page): string[] {
  const lookups: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/candidates/')) lookups.push(decodeURIComponent(pathname));
  });
  return lookups;
}

for (const [layout, viewport] of [
  ['table', { width: 1400, height: 900 }],
  ['phone card', { width: 390, height: 844 }],
] as const) {
  test(`${layout}: a row's refId, recordId and date can be selected without opening it; a click elsewhere opens it`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const lookups = watchLookups(page);
    await page.goto('/applicants');
    // A refId with hyphens ("user-7781", a UUID): Chromium's word ends at each of them.
    const row = rows(page)
      .filter({ has: page.locator('td[data-label="refId"] code', { hasText: '-' }) })
      .first();
    await expect(row).toBeVisible();
    const refId = row.locator('td[data-label="refId"] code');
    const link = row.locator('a[data-open]');
    const recordId = (await link.textContent())!;
    const refIdText = (await refId.textContent())!;

    // On its first word, and on its last character: the whole id either way. Before: "user", "7781" or a lone "-".
    await refId.dblclick({ position: { x: 6, y: 8 } });
    expect(await selected(page)).toBe(refIdText);
    await page.evaluate(() => window.getSelection()?.removeAllRanges());
    const last = await refId.evaluate((code) => {
      const text = document.createTreeWalker(code, NodeFilter.SHOW_TEXT).nextNode() as Text;
      const range = document.createRange();
      range.setStart(text, text.length - 1);
      range.setEnd(text, text.length);
      const { x, y, width, height } = range.getBoundingClientRect();
      return { x: x + width / 2, y: y + height / 2 };
    });
    await page.mouse.dblclick(last.x, last.y);
    expect(await selected(page)).toBe(refIdText);
    await link.dblclick();
    expect(await selected(page)).toBe(recordId);
    await screenshot(page, `queue-select-${layout.replace(' ', '-')}`);
    const box = (await refId.boundingBox())!;
    await page.mouse.move(box.x + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(await selected(page)).not.toBe('');
    await row.locator('time').first().dblclick();
    expect(await selected(page)).not.toBe('');
    await afterRowWait(page);
    await expect(page).toHaveURL(/\/applicants$/);
    expect(lookups).toEqual([]);

    // A single click on another row's date: that row opens, one lookup.
    const next = rows(page).nth(1);
    const nextId = (await next.locator('a[data-open]').textContent())!;
    await next.locator('time').first().click();
    await expect(page).toHaveURL(new RegExp(`/candidates/recordId/${nextId}$`));
    // The address changes first; the queue (its heading too) stays in sight until the candidate's page is ready
    // (navigation.tsx: a transition), as CI once saw on a loaded machine: wait for the queue to go.
    await expect(page.getByRole('heading', { level: 1, name: 'Applicants' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(lookups).toEqual([`/api/candidates/recordId/${nextId}`]);
  });
}

test('j pressed three times quickly looks up only the candidate landed on', async ({ page }) => {
  const lookups = watchLookups(page);
  // The page's clock, so that "quickly" is not the machine's speed: a page reached by a step asks for its
  // record once 300 ms have passed since it showed (step-settle.ts), and on a loaded machine one frame of the
  // next page took longer than that, so the candidate passed over was looked up as the app's rule says. The
  // clock runs as usual, and stands still while the keys are pressed.
  await page.clock.install();
  await page.goto('/applicants');
  await expect(rows(page).nth(4)).toBeVisible();
  const ids = await rows(page)
    .locator('a[data-open]')
    .evaluateAll((links) => links.slice(0, 4).map((link) => link.textContent!));
  await rows(page).first().locator('a[data-open]').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Applicants' })).toBeHidden();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('queue-place')).toContainText('1 of');
  // Three presses as a fast typist's come, each once the next candidate's page shows its place (its own keys
  // are then the ones listening), with the clock standing still: no time passes between them, however slow
  // the machine. Pressed from within the page, waiting by messages (a frame or a timer would wait for the clock).
  await page.clock.pauseAt(new Date(Date.now() + 1000));
  await page.evaluate(async () => {
    const tick = () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
    const shows = (n: number) => document.querySelector('[data-testid="queue-place"]')?.textContent?.startsWith(`${n} of`);
    for (const n of [2, 3, 4]) {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true }));
      while (!shows(n)) await tick();
      // Its keys listen once its effects have run, which React runs in a task of its own after showing it.
      for (let i = 0; i < 5; i++) await tick();
    }
  });
  // No lookup of a candidate passed over went out, nor of the one landed on while the clock stands.
  expect(lookups).toEqual([`/api/candidates/recordId/${ids[0]}`]);
  await page.clock.resume();
  await expect(page).toHaveURL(new RegExp(`/${ids[3]}$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screenshot(page, 'queue-j-landed');
  // Polled, not read once: on a loaded machine the heading seen can be the one shown while the landed page's
  // lookup is still to go out. A lookup of either candidate passed over would come before it: never a match.
  await expect.poll(() => lookups).toEqual([ids[0], ids[3]].map((id) => `/api/candidates/recordId/${id}`));
});

for (const [layout, viewport] of [
  ['table', { width: 1400, height: 900 }],
  ['phone card', { width: 390, height: 844 }],
] as const) {
  test(`${layout}: a click marks its row at once, blue and busy, while it waits to be told from a double-click; then opens it`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.clock.install();
    await page.goto('/applicants');
    const row = rows(page).nth(1);
    await expect(row).toBeVisible();
    const id = (await row.locator('a[data-open]').textContent())!;
    // The page's clock stands still: the wait cannot end under the assertions and the screenshot.
    await page.clock.pauseAt(Date.now() + 1000);
    await row.locator('time').first().click();
    // Before: nothing on the row for the 300 ms, and a reviewer clicked again (a double-click, which cancels).
    await expect(row).toHaveAttribute('aria-busy', 'true');
    await expect(row).toHaveCSS('cursor', 'progress');
    await expect(rows(page).first()).not.toHaveAttribute('aria-busy');
    await screenshot(page, `queue-row-chosen-${layout.replace(' ', '-')}`);
    await expect(page).toHaveURL(/\/applicants$/);
    await page.clock.resume();
    await expect(page).toHaveURL(new RegExp(`/candidates/recordId/${id}$`));
  });
}
