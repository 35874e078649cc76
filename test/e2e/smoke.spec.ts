import { expect, test } from '@playwright/test';

test('the production server serves the app to a real browser', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { level: 1, name: 'Candidate Lookup' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a deep link reloads into the app (history fallback)', async ({ page }) => {
  await page.goto('/candidates/refId/cust_000482');
  await expect(page.getByRole('heading', { level: 1, name: 'Candidate Lookup' })).toBeVisible();
});
