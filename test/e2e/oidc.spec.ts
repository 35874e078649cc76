import type { Page } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { E2E_PORTS } from './servers.ts';
import { OIDC_ACCOUNTS, type OidcAccountName, startOidcProvider, type TestProvider } from '../server/oidc-provider.ts';
import { seriousViolations } from './axe.ts';
import { APP_HEADERS, screenshot } from './helpers.ts';

needsServers('oidc');

/** OpenID Connect in real Chromium: the built server, and a real OpenID provider started here. */
const AMELIE = '/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10';
const appUrl = `http://127.0.0.1:${E2E_PORTS.oidc}`;

// One provider on a fixed port for the server configured in test/e2e/servers.ts: one worker at a time.
test.describe.configure({ mode: 'serial' });
let provider: TestProvider;
test.beforeAll(async () => {
  provider = await startOidcProvider({ port: E2E_PORTS.oidcProvider, redirectUris: [`${appUrl}/api/oidc/callback`] });
});
test.afterAll(() => provider?.close());

async function signInAtProvider(page: Page, account: OidcAccountName) {
  await page.getByRole('button', { name: 'Sign in with Test IdP' }).click();
  await expect(page.getByRole('heading', { name: 'Test Identity Provider' })).toBeVisible();
  expect(new URL(page.url()).port).toBe(String(E2E_PORTS.oidcProvider));
  await page.getByLabel('Username').fill(account);
  await page.getByLabel('Password').fill(OIDC_ACCOUNTS[account].password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('signs a compliance user in at the provider, back on the page asked for, and out again', async ({ page }) => {
  await page.goto(`${appUrl}${AMELIE}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await screenshot(page, 'oidc-sign-in');
  expect(await seriousViolations(page)).toEqual([]);
  await signInAtProvider(page, 'ana');
  await expect(page).toHaveURL(`${appUrl}${AMELIE}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Amélie Dubois-Léger');
  await expect(page.getByTestId('session')).toContainText('ana@example.org');
  await expect(page.getByTestId('session')).toContainText('Compliance');
  await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
  const cookies = await page.context().cookies(appUrl);
  expect(cookies.find((c) => c.name === 'cl_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  // The sign-in in progress is over: its cookie is gone.
  expect(cookies.find((c) => c.name === 'cl_oidc')).toBeUndefined();
  expect(await page.evaluate(() => document.cookie)).toBe('');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in with Test IdP' })).toBeVisible();
  expect((await page.request.get(`${appUrl}/api/meta`, { headers: APP_HEADERS })).status()).toBe(401);
});

test('signs a support user in, who sees status only', async ({ page }) => {
  await page.goto(`${appUrl}${AMELIE}`);
  await signInAtProvider(page, 'sam');
  await expect(page.getByTestId('session')).toContainText('sam@example.org');
  await expect(page.getByTestId('session')).toContainText('Support');
  await expect(page.getByText('Support users see status only')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pictures' })).toHaveCount(0);
});

test('refuses a user whose groups give no role, on a page that says so', async ({ page }) => {
  await page.goto(appUrl);
  await signInAtProvider(page, 'nora');
  await expect(page).toHaveURL(`${appUrl}/sign-in-refused/no_role`);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account has no access to Candidate Lookup' })).toBeVisible();
  await screenshot(page, 'oidc-no-role');
  expect(await seriousViolations(page)).toEqual([]);
  expect((await page.context().cookies(appUrl)).find((c) => c.name === 'cl_session')).toBeUndefined();
  expect((await page.request.get(`${appUrl}/api/meta`, { headers: APP_HEADERS })).status()).toBe(401);
});
