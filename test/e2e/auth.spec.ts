import { expect, test, needsServers } from './fixtures.ts';
import { E2E_PORTS, E2E_USERS } from './servers.ts';
import { APP_HEADERS, screenshot } from './helpers.ts';

needsServers('sandbox', 'users', 'gateway');

const AMELIE = '/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10';
const usersUrl = `http://127.0.0.1:${E2E_PORTS.users}`;
const gatewayUrl = `http://127.0.0.1:${E2E_PORTS.gateway}`;

test.describe('built-in users', () => {
  test('sign in as compliance, see everything, sign out', async ({ page }) => {
    await page.goto(`${usersUrl}${AMELIE}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await screenshot(page, 'sign-in');
    await page.getByLabel('Username').fill(E2E_USERS.compliance.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');

    await page.getByLabel('Password').fill(E2E_USERS.compliance.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back on the page that was asked for.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Amélie Dubois-Léger');
    await expect(page.getByTestId('session')).toContainText('ana');
    await expect(page.getByTestId('session')).toContainText('Compliance');
    await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'cl_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect((await page.request.get(`${usersUrl}/api/meta`, { headers: APP_HEADERS })).status()).toBe(401);
  });

  test('a support user sees status only, whatever they ask the API', async ({ page }) => {
    await page.goto(usersUrl);
    await page.getByLabel('Username').fill(E2E_USERS.support.username);
    await page.getByLabel('Password').fill(E2E_USERS.support.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('session')).toContainText('Support');
    await page.goto(`${usersUrl}${AMELIE}`);
    await expect(page.getByText('Support users see status only')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Pictures' })).toHaveCount(0);
    await screenshot(page, 'support-user');
    for (const path of [
      '/api/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10',
      '/api/candidates/recordId/65f1c2a9e4b0d3a1f0c9b801',
    ]) {
      const response = await page.request.get(`${usersUrl}${path}`, { headers: { ...APP_HEADERS, 'accept-encoding': 'gzip' } });
      const text = await response.text();
      expect(response.status()).toBe(200);
      expect(text).not.toContain('identities');
      expect(text).not.toContain('amelie.dubois-leger@example.fr');
    }
  });
});

test.describe('identity-aware proxy', () => {
  test('shows the user and role the gateway sends', async ({ browser }) => {
    const context = await browser.newContext({
      extraHTTPHeaders: { 'X-Forwarded-User': 'sam@example.org', 'X-Forwarded-Role': 'support' },
    });
    const page = await context.newPage();
    await page.goto(`${gatewayUrl}${AMELIE}`);
    await expect(page.getByTestId('session')).toContainText('sam@example.org');
    await expect(page.getByTestId('session')).toContainText('Support');
    await expect(page.getByText('Support users see status only')).toBeVisible();
    await context.close();
  });

  test('without the gateway headers nobody is let in', async ({ page }) => {
    await page.goto(`${gatewayUrl}${AMELIE}`);
    await expect(page.getByRole('alert')).toContainText('did not identify you');
    expect((await page.request.get(`${gatewayUrl}/api/candidates/refId/cust_000482`, { headers: APP_HEADERS })).status()).toBe(401);
  });
});

test('local mode says that no sign-in is in force', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('session')).toHaveText('No sign-in (local mode)');
});
