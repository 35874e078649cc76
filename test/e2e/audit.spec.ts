import { readFileSync } from 'node:fs';
import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { APP_HEADERS, docScreenshot } from './helpers.ts';
import { E2E_AUDIT_DIR, E2E_AUDITED_REFID, E2E_PORTS } from './servers.ts';

needsServers('audit');

/**
 * The audit trail in the app (issue 34), behind the identity-aware proxy: a compliance user sees who else
 * looked at a candidate today; a support user sees no Activity and cannot open the audit page; a lead
 * filters the trail with the keyboard alone, downloads it as CSV, and sees that the audit file is whole.
 * The server's audit file was seeded with other reviewers' lines (servers.ts).
 */
const url = `http://127.0.0.1:${E2E_PORTS.audit}`;
const as = (user: string, role: string) => ({ 'X-Forwarded-User': user, 'X-Forwarded-Role': role });

test.describe.configure({ mode: 'serial' });

test('a compliance user sees who else looked at the candidate today', async ({ browser }) => {
  // Dan looks the candidate up first, for real: the seeded lines are minutes older than the run, so a run
  // that starts just before midnight would find them yesterday's.
  const dan = await browser.newContext({ extraHTTPHeaders: as('dan@example.org', 'compliance') });
  const before = await dan.newPage();
  await before.goto(`${url}/candidates/refId/${E2E_AUDITED_REFID}`);
  await expect(before.getByRole('heading', { level: 1 })).toBeVisible();
  await dan.close();

  const ana = await browser.newContext({ extraHTTPHeaders: as('ana@example.org', 'compliance') });
  const page = await ana.newPage();
  await page.goto(`${url}/candidates/refId/${E2E_AUDITED_REFID}`);
  const activity = page.getByTestId('activity');
  await expect(activity).toContainText(/Looked at today by (.+, )?dan@example\.org \([^)]+\)(, .+)?, and by you\./);
  await activity.getByText('Activity', { exact: true }).click();
  await expect(activity.getByRole('table')).toContainText('Copied the summary');
  await expect(activity.getByRole('table')).toContainText('you');
  expect(await seriousViolations(page)).toEqual([]);
  // Opened and closed from the keyboard, as any disclosure.
  await activity.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(activity.getByRole('table')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Audit' })).toHaveCount(0);
  await ana.close();
});

test('a support user sees no Activity and no audit page', async ({ browser }) => {
  const sam = await browser.newContext({ extraHTTPHeaders: as('sam@example.org', 'support') });
  const support = await sam.newPage();
  await support.goto(`${url}/candidates/refId/${E2E_AUDITED_REFID}`);
  await expect(support.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(support.getByTestId('activity')).toHaveCount(0);
  const refused = await support.request.post(`${url}/api/audit/search`, { headers: APP_HEADERS, data: {} });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe('role_forbidden');
  await support.goto(`${url}/audit`);
  await expect(support.getByRole('heading', { name: 'The audit page is for compliance leads' })).toBeVisible();
  await sam.close();
});

test('a lead filters the trail with the keyboard, opens a row’s candidate, downloads the CSV, and sees the file intact', async ({
  browser,
}) => {
  const context = await browser.newContext({
    extraHTTPHeaders: as('lena@example.org', 'lead'),
    viewport: { width: 1400, height: 1000 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${url}/`);
  await page.getByRole('link', { name: 'Audit' }).click();
  const table = page.getByRole('table', { name: /Audit trail, page 1/ });
  await expect(table).toContainText('ben@example.org');
  await expect(page.getByText(/audit\.jsonl: intact to line \d+, last line/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await docScreenshot(page, 'audit-page', { fullPage: true });

  // The keyboard alone: the user field, Tab to the refId, Enter searches; Tab on to the action's list.
  const filters = page.getByRole('form', { name: 'Filters' });
  await filters.getByLabel('User').focus();
  await page.keyboard.type('ben@example.org');
  await page.keyboard.press('Tab');
  await expect(filters.getByLabel('Candidate refId')).toBeFocused();
  await page.keyboard.type(E2E_AUDITED_REFID);
  await page.keyboard.press('Enter');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).not.toContainText('cleo@example.org');
  await expect(table).toContainText('Copied the summary');
  expect(await seriousViolations(page)).toEqual([]);

  const download = page.waitForEvent('download');
  await filters.getByRole('button', { name: 'Download CSV' }).click();
  const csv = readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe(
    '\ufefftime,instance,user,role,action,environment,kind,id,level,status,code,client,requestId,detail,hash,queueTab,shown,unvouched,held',
  );
  expect(csv.trim().split('\r\n')).toHaveLength(3);

  // Tab to the row's candidate link and open it: a lookup like any other, in the trail too.
  await table.getByRole('link', { name: E2E_AUDITED_REFID }).first().focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/candidates/refId/${E2E_AUDITED_REFID}$`));
  await expect(page.getByTestId('activity')).toBeVisible();
  await context.close();

  // The lead's searches and the export are in the audit file, as its lines say.
  const lines = readFileSync(`${E2E_AUDIT_DIR}/audit.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const reads = lines.filter((line) => line.kind === 'audit' && line.user === 'lena@example.org');
  expect(reads.map((line) => line.what)).toEqual(expect.arrayContaining(['search', 'export']));
  expect(reads.find((line) => line.what === 'export')).toMatchObject({ filter: { user: 'ben@example.org', refId: E2E_AUDITED_REFID } });
});

test('on a phone the trail is stacked rows: every column of a row in view, nothing scrolling sideways', async ({ browser }) => {
  const context = await browser.newContext({ extraHTTPHeaders: as('lena@example.org', 'lead'), viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${url}/audit`);
  const table = page.getByRole('table', { name: /Audit trail, page 1/ });
  await expect(table).toContainText('ben@example.org');
  const fit = await table.evaluate((element) => ({
    table: element.scrollWidth,
    box: element.parentElement!.clientWidth,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
  // It was 1099 px wide in a 356 px box: Action, Candidate, Level and Outcome out of sight.
  expect(fit.table).toBeLessThanOrEqual(fit.box);
  expect(fit.page).toBeLessThanOrEqual(0);
  const first = table.locator('tbody tr').first();
  for (const label of ['Action', 'Candidate', 'Outcome']) {
    const box = (await first.locator(`td[data-label="${label}"]`).boundingBox())!;
    expect(box.x, label).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, label).toBeLessThanOrEqual(390);
  }
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});
