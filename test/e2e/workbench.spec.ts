import type { Locator, Page } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { docScreenshot, expectAllPicturesDecoded, screenshot } from './helpers.ts';

needsServers('sandbox');

/** The reviewer's workbench in real Chromium: summary strip, document viewer, compare, mask. */
const BLOCKED = '/candidates/refId/user-7781';

// A reader east of UTC, so that local times and UTC differ on screen.
test.use({ timezoneId: 'Asia/Singapore', locale: 'en-GB' });
const OWNER = 'Mehmet Yılmaz';

async function openViewer(page: Page, picture: 'selfie' | 'passport') {
  await page.goto(BLOCKED);
  await page.getByRole('button', { name: `Open a larger view of the ${picture}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const img = dialog.locator('img');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  return { dialog, img };
}

const width = (img: Locator) => img.evaluate((el) => el.getBoundingClientRect().width);

/** The rotation of the picture's own transform, in degrees, from its computed matrix. */
const rotation = (img: Locator) =>
  img.evaluate((el) => {
    const matrix = new DOMMatrix(getComputedStyle(el).transform);
    return Math.round((Math.atan2(matrix.b, matrix.a) * 180) / Math.PI);
  });

test('the decision summary sits right under the header with coloured chips', async ({ page }) => {
  await page.goto(BLOCKED);
  const summary = page.getByRole('region', { name: 'Decision summary' });
  // Blocked 29 × 24 h before the sandbox started: 30 calendar days ago once a midnight of the page's zone
  // has passed between that start and now (the count is of calendar days, time.ts).
  await expect(summary).toContainText(/Blocked since .* \((29|30) days ago\)/);
  // Said once, read as one sentence: the badge, then "since …".
  expect((await summary.getByTestId('summary-status').innerText()).match(/Blocked/g)).toHaveLength(1);
  const header = await page.locator('main header').boundingBox();
  const strip = await summary.boundingBox();
  expect(strip!.y).toBeGreaterThan(header!.y + header!.height - 1);
  expect(strip!.y - (header!.y + header!.height)).toBeLessThan(40);
  await expect(summary.locator('[data-cert-chip="complyadvantage-service-cert"] [data-tone]')).toHaveAttribute('data-tone', 'caution');
  await expect(summary.locator('[data-cert-chip="onfido-service-cert"] [data-tone]')).toHaveAttribute('data-tone', 'positive');
  await expect(summary).toContainText('Screening caseCA-2026-00917');
  await docScreenshot(page, 'workbench-page', { fullPage: true });
});

test("an approved candidate's page, top to bottom in one screen: the README's picture", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 1200 });
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Amélie Dubois-Léger');
  const summary = page.getByRole('region', { name: 'Decision summary' });
  // Approved 4 days 3 hours back: 5 calendar days ago when the page is looked at before 03:00.
  await expect(summary).toContainText(/^✓ ?Approved since .* \([45] days ago\)/);
  await expect(summary.locator('[data-cert-chip] [data-tone]')).toHaveCount(2);
  for (const tone of await summary.locator('[data-cert-chip] [data-tone]').all())
    await expect(tone).toHaveAttribute('data-tone', 'positive');
  await expect(summary.locator('[data-field="riskLevel"]')).toHaveText('Risk levellow');
  await expect(page.getByTestId('phone-number')).toHaveText('+33 6 12 34 56 78');
  await expectAllPicturesDecoded(page, 3);
  await page.evaluate(() => window.scrollTo(0, 0));
  await docScreenshot(page, 'candidate-page');
});

test('zoom in: the picture renders at least 1.5 times as wide', async ({ page }) => {
  const { dialog, img } = await openViewer(page, 'passport');
  await expect.poll(() => width(img)).toBeGreaterThan(100);
  const before = await width(img);
  await dialog.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => width(img)).toBeGreaterThanOrEqual(before * 1.5);
  await dialog.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(() => width(img)).toBeCloseTo(before, -1);
  await dialog.getByRole('button', { name: 'Actual size' }).click();
  await expect.poll(() => width(img)).toBeCloseTo(await img.evaluate((el: HTMLImageElement) => el.naturalWidth), 0);
});

test('rotate: the picture turns 90 degrees, and again', async ({ page }) => {
  const { dialog, img } = await openViewer(page, 'passport');
  expect(await rotation(img)).toBe(0);
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await expect.poll(() => rotation(img)).toBe(90);
  // Turned sideways, the fitted picture is now taller than wide on screen.
  await expect.poll(() => img.evaluate((el) => el.getBoundingClientRect().height > el.getBoundingClientRect().width)).toBe(true);
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await expect.poll(() => rotation(img)).toBe(180);
});

test('arrow keys move to the next and previous picture when not zoomed, and pan when zoomed', async ({ page }) => {
  const { dialog, img } = await openViewer(page, 'selfie');
  await expect(dialog).toHaveAccessibleName(`Selfie of ${OWNER}`);
  await page.keyboard.press('ArrowRight');
  await expect(dialog).toHaveAccessibleName(`Passport of ${OWNER}`);
  await page.keyboard.press('ArrowLeft');
  await expect(dialog).toHaveAccessibleName(`Selfie of ${OWNER}`);
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  const x = () => img.evaluate((el) => Math.round(el.getBoundingClientRect().x));
  await expect.poll(() => width(img)).toBeGreaterThan(1000);
  const before = await x();
  await page.keyboard.press('ArrowRight');
  await expect.poll(x).toBeLessThan(before);
  await expect(dialog).toHaveAccessibleName(`Selfie of ${OWNER}`);
});

test('compare shows the selfie and the passport side by side, each zoomable on its own', async ({ page }) => {
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation: (t: string) => void }).reportViolation(event.violatedDirective),
    ),
  );
  const { dialog } = await openViewer(page, 'passport');
  await dialog.getByRole('button', { name: 'Compare' }).click();
  await expect(dialog).toHaveAccessibleName('Compare pictures');
  const left = dialog.getByRole('img', { name: `Selfie of ${OWNER}` });
  const right = dialog.getByRole('img', { name: `Passport of ${OWNER}` });
  await expect(left).toBeVisible();
  await expect(right).toBeVisible();
  const a = (await left.boundingBox())!;
  const b = (await right.boundingBox())!;
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + 1);
  expect(Math.abs(a.y + a.height / 2 - (b.y + b.height / 2))).toBeLessThan(20);
  await docScreenshot(page, 'compare');

  // The right side zooms alone.
  const leftWidth = a.width;
  await dialog.locator('[data-pane="passport"]').click();
  await dialog.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(() => width(right)).toBeGreaterThanOrEqual(b.width * 1.5);
  expect(await width(left)).toBeCloseTo(leftWidth, 0);
  // Never one picture beside itself: the right's passport is not offered on the left, and with two
  // pictures, → on the left (not zoomed) has no other to go to.
  await expect(dialog.getByRole('combobox', { name: 'Left picture' }).getByRole('option', { name: 'Passport (right)' })).toBeDisabled();
  await dialog.locator('[data-pane="selfie"]').click();
  await expect(dialog.getByRole('button', { name: 'Next picture' })).toBeDisabled();
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('img', { name: `Passport of ${OWNER}` })).toHaveCount(1);
  await expect(dialog.getByRole('img', { name: `Selfie of ${OWNER}` })).toHaveCount(1);
  expect(violations).toEqual([]);
});

test('a picture turned before Compare is turned in it, and after it', async ({ page }) => {
  const { dialog, img } = await openViewer(page, 'passport');
  await page.keyboard.press('r');
  await expect.poll(() => rotation(img)).toBe(90);
  await dialog.getByRole('button', { name: 'Compare' }).click();
  const passport = dialog.locator('[data-pane="passport"] img');
  // Before: Compare's new pane showed the passport at 0°, sideways again, and the caption said no turn.
  await expect.poll(() => rotation(passport)).toBe(90);
  await expect(dialog.getByText(/^Right · Passport · \d+ % · 90°$/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await dialog.getByRole('button', { name: 'Compare' }).click();
  await expect(dialog).toHaveAccessibleName(`Passport of ${OWNER}`);
  await expect.poll(() => rotation(img)).toBe(180);
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px wide, each side's caption sits under its picture, covering none of it`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const { dialog } = await openViewer(page, 'selfie');
    await dialog.getByRole('button', { name: 'Compare' }).click();
    await expect(dialog).toHaveAccessibleName('Compare pictures');
    for (const [side, name] of [
      ['Left', 'selfie'],
      ['Right', 'passport'],
    ] as const) {
      // "Left · Selfie · 49 %"
      const caption = dialog.locator('p').filter({ hasText: new RegExp(`^${side} · .* · \\d+ %$`) });
      await expect(caption).toHaveCount(1);
      const frame = (await dialog.locator(`[data-pane="${name}"]`).boundingBox())!;
      const img = dialog.locator(`[data-pane="${name}"] img`);
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      const picture = (await img.boundingBox())!;
      const text = (await caption.boundingBox())!;
      // Under the frame (the picture never leaves it when fitted), and so clear of the picture.
      expect(text.y).toBeGreaterThanOrEqual(frame.y + frame.height);
      expect(text.y).toBeGreaterThanOrEqual(picture.y + picture.height);
      expect(text.y + text.height).toBeLessThanOrEqual(viewport.height);
    }
    await screenshot(page, `compare-captions-${viewport.width}`);
  });
}

test('the privacy mask hides the date of birth and blurs the pictures, and a reveal shows them', async ({ page }) => {
  await page.goto(BLOCKED);
  const dob = /21 May 1968/;
  await expect(page.getByText(dob)).toBeVisible();
  await page.getByRole('button', { name: 'Privacy mask', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Privacy mask', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText(dob)).toHaveCount(0);
  expect(await page.locator('main').innerText()).not.toMatch(dob);
  expect(await page.locator('main').innerText()).not.toContain('mehmet.yilmaz@example.com.tr');
  // The phone, as stored and as the card formats it (+90 532 123 45 67), in no text either.
  expect(await page.locator('body').textContent()).not.toMatch(/\+905321234567|532 123 45 67/);
  const pictures = page.locator('figure[data-attribute] img');
  await expect(pictures).toHaveCount(2);
  for (const picture of await pictures.all()) expect(await picture.evaluate((el) => getComputedStyle(el).filter)).toMatch(/blur/);
  await docScreenshot(page, 'masked', { fullPage: true });

  await page.getByRole('button', { name: /^Date of birth: hidden by the privacy mask/ }).click();
  await expect(page.getByText(dob)).toBeVisible();
  await page.getByRole('button', { name: 'Open a larger view of the selfie' }).focus();
  await expect.poll(() => pictures.first().evaluate((el) => getComputedStyle(el).filter)).toBe('none');
  // Alt+Shift+M turns the mask off: everything shows.
  await page.keyboard.press('Alt+Shift+M');
  await expect(page.getByText('mehmet.yilmaz@example.com.tr')).toBeVisible();
  await expect(page.getByTestId('phone-number')).toHaveText('+90 532 123 45 67');
  for (const picture of await pictures.all()) expect(await picture.evaluate((el) => getComputedStyle(el).filter)).toBe('none');
});

test('Rotate pressed while a zoom still eases: the turned picture is fitted for good, and an arrow goes to the next picture', async ({
  page,
}) => {
  await page.goto(BLOCKED);
  await page.getByRole('button', { name: 'Open a larger view of the passport' }).click();
  const dialog = page.getByRole('dialog', { name: `Passport of ${OWNER}` });
  const img = dialog.locator('img');
  await expect.poll(() => width(img)).toBeGreaterThan(100);
  // Within the zoom's 150 ms: the zoom's next frames must not put its scale back after the fit.
  await page.keyboard.press('+');
  await page.keyboard.press('r');
  await expect.poll(() => rotation(img)).toBe(90);
  await page.waitForTimeout(300);
  await expect(dialog.getByRole('group')).toHaveAccessibleName(/^Passport, \d+ %, turned 90°$/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: `Selfie of ${OWNER}` })).toBeVisible();
});

test('a keyboard-only run through the viewer', async ({ page }) => {
  await page.goto(BLOCKED);
  await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
  const thumbnail = page.getByRole('button', { name: 'Open a larger view of the passport' });
  for (let i = 0; i < 80 && !(await thumbnail.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(thumbnail).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Passport of ${OWNER}` });
  await expect(dialog).toBeVisible();
  const img = dialog.locator('img');
  await expect.poll(() => width(img)).toBeGreaterThan(100);
  const fitted = await width(img);
  await page.keyboard.press('+');
  await expect.poll(() => width(img)).toBeGreaterThanOrEqual(fitted * 1.5);
  await page.keyboard.press('-');
  await expect.poll(() => width(img)).toBeCloseTo(fitted, -1);
  await page.keyboard.press('1');
  await expect.poll(() => width(img)).toBeCloseTo(await img.evaluate((el: HTMLImageElement) => el.naturalWidth), 0);
  await page.keyboard.press('0');
  await expect.poll(() => width(img)).toBeCloseTo(fitted, -1);
  await page.keyboard.press('r');
  await expect.poll(() => rotation(img)).toBe(90);
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: `Selfie of ${OWNER}` })).toBeVisible();
  // Tab reaches the toolbar; Enter presses Compare.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    if (await page.getByRole('button', { name: 'Compare' }).evaluate((el) => el === document.activeElement)) break;
  }
  // The viewer's light ring (focus-ring-dark) shows around it.
  const ring = (el: Element) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth, getComputedStyle(el).outlineOffset];
  expect(await page.getByRole('button', { name: 'Compare' }).evaluate(ring)).toEqual(['solid', '2px', '2px']);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Compare pictures' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Focus returns to the thumbnail of the picture last shown: the left side of compare, the selfie.
  await expect(page.getByRole('button', { name: 'Open a larger view of the selfie' })).toBeFocused();
});

test('the mouse wheel zooms the picture in, and a drag pans it', async ({ page }) => {
  const { dialog, img } = await openViewer(page, 'passport');
  await expect.poll(() => width(img)).toBeGreaterThan(100);
  const fitted = await width(img);
  const pane = (await dialog.locator('[data-pane="passport"]').boundingBox())!;
  const centre = { x: pane.x + pane.width / 2, y: pane.y + pane.height / 2 };
  await page.mouse.move(centre.x, centre.y);
  for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
  await expect.poll(() => width(img)).toBeGreaterThanOrEqual(fitted * 1.5);

  const position = () => img.evaluate((el) => el.getBoundingClientRect()).then(({ x, y }) => ({ x: Math.round(x), y: Math.round(y) }));
  // The wheel's zoom has settled: two readings 100 ms apart agree.
  let last = '';
  const unchanged = async () => {
    const now = JSON.stringify(await position());
    const same = now === last;
    last = now;
    return same;
  };
  await expect.poll(unchanged, { message: 'the zoom settles', intervals: [100] }).toBe(true);
  const before = await position();
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) await page.mouse.move(centre.x - 15 * step, centre.y - 10 * step);
  await page.mouse.up();
  // The picture followed the pointer: left and up.
  await expect.poll(async () => (await position()).x).toBeLessThan(before.x - 50);
  expect((await position()).y).toBeLessThan(before.y - 30);
});

test('the viewer shows the thumbnail object URL, decoded once', async ({ page }) => {
  await page.goto(BLOCKED);
  const thumbnail = page.getByRole('button', { name: 'Open a larger view of the passport' }).locator('img');
  await expect(thumbnail).toHaveAttribute('src', /^blob:/);
  const src = await thumbnail.getAttribute('src');
  await page.getByRole('button', { name: 'Open a larger view of the passport' }).click();
  const img = page.getByRole('dialog').locator('img');
  await expect(img).toHaveAttribute('src', src!);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(720);
  await docScreenshot(page, 'viewer');
});

test('timestamps add no Tab stop each; their other zone is their description, and one toggle switches them all to UTC', async ({
  page,
}) => {
  await page.goto(BLOCKED);
  const time = page.locator('main time[aria-describedby]').first();
  await expect(time).not.toHaveAttribute('tabindex');
  await expect(time).toHaveAccessibleDescription(/^In UTC: .* UTC$/);
  await expect(time).toHaveText(/ (SGT|UTC\+8)$/);
  await page.keyboard.press('Alt+Shift+U');
  await expect(page.getByRole('button', { name: 'UTC times', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'UTC times', exact: true }).click();
  await page.getByRole('button', { name: 'UTC times', exact: true }).click();
  // Every time shown (the Activity list's are inside its closed disclosure: not shown, no text).
  for (const text of await page.locator('main time[aria-describedby]').filter({ visible: true }).allInnerTexts())
    expect(text).toMatch(/ UTC$/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'UTC times', exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('hovering a timestamp shows it in the other zone', async ({ page }) => {
  await page.goto(BLOCKED);
  const time = page.getByTestId('summary-status').locator('time');
  await expect(time).toHaveText(/ (SGT|UTC\+8)$/);
  const tip = page.locator(`[id="${await time.getAttribute('aria-describedby')}"]`);
  await expect(tip).toBeHidden();
  await time.hover();
  await expect(tip).toBeVisible();
  // The same moment in UTC, eight hours behind Singapore: not what the page shows.
  const utc = `${(await time.getAttribute('datetime'))!.slice(11, 16)} UTC`;
  await expect(tip).toHaveText(new RegExp(`^In UTC: .* ${utc}$`));
  await expect(time).not.toContainText(utc);
  await expect(time).not.toBeFocused();
  await page.mouse.move(0, 0);
  await expect(tip).toBeHidden();
});

test('EXIF orientation is kept in the thumbnail and the viewer; a sideways picture is turned upright with Rotate', async ({ page }) => {
  const owner = 'Kovács Eszter';
  await page.goto('/candidates/refId/hu-2026-0117');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(owner);
  const natural = (name: string) =>
    page
      .getByRole('img', { name: `${name} of ${owner}` })
      .evaluate((el: HTMLImageElement) => (el.complete ? [el.naturalWidth, el.naturalHeight] : []));
  // The passport is stored 480×720 with EXIF Orientation 6: the browser shows it 720×480, upright.
  await expect.poll(() => natural('Passport')).toEqual([720, 480]);
  // The national ID is stored sideways with no EXIF: 480×720.
  await expect.poll(() => natural('National ID')).toEqual([480, 720]);
  await expect(
    page.getByRole('region', { name: 'Decision summary' }).locator('[data-cert-chip="onfido-service-cert"] [data-tone]'),
  ).toHaveAttribute('data-tone', 'caution');

  await page.getByRole('button', { name: 'Open a larger view of the passport' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toHaveAccessibleName(`Passport of ${owner}`);
  const img = dialog.locator('img');
  const landscape = () => img.evaluate((el) => el.getBoundingClientRect().width > el.getBoundingClientRect().height);
  await expect.poll(landscape).toBe(true);
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await expect.poll(landscape).toBe(false);
  await dialog.getByRole('button', { name: 'Rotate' }).click();
  await page.keyboard.press('ArrowRight');
  await expect(dialog).toHaveAccessibleName(`National ID of ${owner}`);
  await expect.poll(landscape).toBe(false);
  await page.keyboard.press('r');
  await expect.poll(() => rotation(img)).toBe(90);
  await expect.poll(landscape).toBe(true);
});
