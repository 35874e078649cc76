import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe.ts';

test('the home page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Sample candidates' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the candidate page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
  await page.locator('details[data-cert] summary').first().click();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the not-found page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/candidates/refId/nobody');
  await expect(page.getByRole('alert')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('every control is reachable by keyboard with a visible focus', async ({ page }) => {
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
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
