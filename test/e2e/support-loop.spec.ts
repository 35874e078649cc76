import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { APP_HEADERS, docScreenshot } from './helpers.ts';
import { E2E_PORTS, E2E_USERS } from './servers.ts';

needsServers('sandbox', 'users', 'gateway');

/**
 * The support loop of issue 33, in Chromium: the search box reads an id by its form and the tab's title
 * names the candidate, the header keeps to one row at 1440 px, the review-requested reply says what the
 * record says, an ended session loses no draft, and on a phone the answer comes first.
 */
const usersUrl = `http://127.0.0.1:${E2E_PORTS.users}`;
const gatewayUrl = `http://127.0.0.1:${E2E_PORTS.gateway}`;
const REVIEW_REQUESTED = '/candidates/refId/support-ticket-4410';
const HINT = 'Upload a proof of address from the last three months (a utility bill or bank statement) that shows the new address.';
const SUPPORT_HEADERS = { 'X-Forwarded-User': 'sam@example.org', 'X-Forwarded-Role': 'support' };

/** Whether every child of the header's bar that is shown crosses one horizontal line: one row, however tall each is. */
async function headerInOneRow(page: Page): Promise<boolean> {
  // The page's header (the candidate page's own card is a <header> too).
  const boxes = await page
    .getByRole('banner')
    .locator(':scope > div > *')
    .evaluateAll((items) => items.map((item) => item.getBoundingClientRect()).filter((box) => box.width > 0));
  return Math.max(...boxes.map((box) => box.top)) < Math.min(...boxes.map((box) => box.bottom));
}

async function signIn(page: Page, user: { username: string; password: string }) {
  await page.goto(usersUrl);
  // The sign-in page puts the cursor in Username: typing goes there at once.
  await expect(page.getByLabel('Username')).toBeFocused();
  await page.keyboard.type(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('session')).toContainText(user.username);
}

test.describe('the search box and the title', () => {
  test('after a queue row opened by recordId, a typed refId is looked up as one, then a 24-hex id as a recordId; the title names the candidate', async ({
    page,
  }) => {
    await page.goto('/applicants');
    // The row's candidate link (the row also links to the service's dashboard).
    await page.getByRole('table').locator('tbody tr').first().locator('a[data-open]').click();
    await expect(page).toHaveURL(/\/candidates\/recordId\/[0-9a-f]{24}$/);
    // The queue stays in sight until the candidate's page is ready (navigation.tsx: a transition).
    await expect(page.getByRole('heading', { level: 1, name: 'Applicants' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // A textbox, or a combobox once recent lookups give it suggestions: found by its label.
    const box = page.getByLabel(/^(refId|recordId) to look up$/);
    await box.click();
    await box.fill('cust_000482');
    await expect(page.getByRole('radio', { name: 'refId' })).toBeChecked();
    await box.press('Enter');
    await expect(page).toHaveURL(/\/candidates\/refId\/cust_000482$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
    await expect(page).toHaveTitle('王秀英 — In review — Candidate Lookup');

    // A leading "/" (the shortcut typed into the box) and the quotes around the id are dropped, and said so.
    await box.click();
    await box.fill('/"65f1c2a9e4b0d3a1f0c9b806"');
    await expect(page.getByRole('radio', { name: 'recordId' })).toBeChecked();
    await box.press('Enter');
    await expect(page).toHaveURL(/\/candidates\/recordId\/65f1c2a9e4b0d3a1f0c9b806$/);
    await expect(page).toHaveTitle('Mehmet Yılmaz — Blocked — Candidate Lookup');
    await expect(page.getByText('Dropped the leading "/" and the quotes around it before looking the id up.')).toBeVisible();
  });

  test("a support user's tab is titled with what they see: the refId, never the name", async ({ browser }) => {
    const context = await browser.newContext({ extraHTTPHeaders: SUPPORT_HEADERS });
    const page = await context.newPage();
    await page.goto(`${gatewayUrl}${REVIEW_REQUESTED}`);
    await expect(page).toHaveTitle('support-ticket-4410 — Review requested — Candidate Lookup');
    await context.close();
  });
});

test.describe('the header at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('keeps to one row, with a signed-in user and Sign out, on the candidate page', async ({ page }) => {
    await signIn(page, E2E_USERS.compliance);
    await page.goto(`${usersUrl}/candidates/refId/user-7781`);
    await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
    expect(await headerInOneRow(page)).toBe(true);
    // The pictures and certificates take the whole width under the status history's row.
    const history = (await page.getByRole('heading', { name: 'Status history' }).boundingBox())!;
    const pictures = (await page.getByRole('region', { name: 'Pictures' }).boundingBox())!;
    expect(pictures.x).toBeLessThanOrEqual(history.x);
    expect(pictures.width).toBeGreaterThan(1200);
    await docScreenshot(page, 'candidate-1440', { fullPage: true });
  });
});

test.describe('a support user', () => {
  test('gets the recorded reason and hint in the review-requested reply, and an ended session keeps the draft through sign-in', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: usersUrl });
    await signIn(page, E2E_USERS.support);
    await page.goto(`${usersUrl}${REVIEW_REQUESTED}`);
    await expect(page.getByTestId('live-indicator')).toContainText('Live');
    await page.getByRole('button', { name: 'Copy reply' }).click();
    const editor = page.getByRole('dialog', { name: 'Reply to the customer' });
    const text = editor.getByRole('textbox', { name: 'Reply' });
    await expect(text).toHaveValue(/The reason: Address changed\n/);
    await expect(text).toHaveValue(new RegExp(`What to do: ${HINT.replace(/[()]/g, '\\$&')}\\n`));
    // The agent's greeting and sign-off, set once: around this reply at once, kept in this browser for the next.
    await editor.getByText('Your greeting and sign-off').click();
    await editor.getByLabel('Greeting').fill('Hello,');
    await editor.getByLabel('Sign-off').fill('Kind regards,\nSam from Support');
    await editor.getByRole('button', { name: 'Save for my replies' }).click();
    await expect(text).toHaveValue(/^Hello,\n\nYour identity verification is being reviewed again\./);
    await expect(text).toHaveValue(/\n\nKind regards,\nSam from Support$/);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toMatch(/support-ticket|Address changed|"sam"/);
    await docScreenshot(page, 'reply-frame');
    await text.press('ControlOrMeta+End');
    await text.pressSequentially('\nDrafted before the session ended.');
    const draft = await text.inputValue();

    // The session ends elsewhere (signed out in another tab): the header says so at once, the draft stays.
    expect((await page.request.delete(`${usersUrl}/api/session`, { headers: APP_HEADERS })).status()).toBe(200);
    await expect(page.getByTestId('session')).toHaveText('Not signed in');
    await expect(page.getByTestId('live-indicator')).toHaveCount(0);
    await expect(text).toHaveValue(draft);

    await editor.getByRole('button', { name: 'Copy' }).click();
    const notice = editor.getByTestId('session-ended');
    await expect(notice).toContainText(
      'Your session has ended. Your reply is kept here, and is copied as soon as you have signed in again.',
    );
    await notice.getByRole('button', { name: 'Sign in again' }).click();
    await expect(notice.getByLabel('Password')).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
    await docScreenshot(page, 'session-ended');
    await notice.getByLabel('Password').fill(E2E_USERS.support.password);
    await notice.getByRole('button', { name: 'Sign in' }).click();
    await expect(editor).toBeHidden();
    await expect(page.getByText('Reply copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(draft);
    await expect(page.getByTestId('session')).toContainText('sam');
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('sees the status, the recorded reason and hint, and Copy reply on the first screen, above the ids', async ({ browser }) => {
      const context = await browser.newContext({ extraHTTPHeaders: SUPPORT_HEADERS, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(`${gatewayUrl}${REVIEW_REQUESTED}`);
      const card = page.getByRole('region', { name: 'What the service recorded' });
      await expect(card).toContainText('Address changed');
      const fold = 844;
      const bottom = async (locator: ReturnType<Page['locator']>) => {
        const box = (await locator.boundingBox())!;
        return box.y + box.height;
      };
      expect(await bottom(page.getByRole('heading', { level: 1 }).locator('..').getByText('Review requested'))).toBeLessThan(fold);
      expect(await bottom(card.getByText('Address changed'))).toBeLessThan(fold);
      expect(await bottom(card.getByText(HINT))).toBeLessThan(fold);
      const copyReply = page.getByRole('button', { name: 'Copy reply' });
      expect(await bottom(copyReply)).toBeLessThan(fold);
      const ids = (await page.getByRole('region', { name: 'Identifiers' }).boundingBox())!;
      expect(ids.y).toBeGreaterThan(await bottom(copyReply));
      expect(await seriousViolations(page)).toEqual([]);
      await docScreenshot(page, 'phone-support');
      await context.close();
    });

    test('sees Copy reply on the first screen for a rejected candidate too, whose reason and hint are longer; the status said once', async ({
      browser,
    }) => {
      const context = await browser.newContext({ extraHTTPHeaders: SUPPORT_HEADERS, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(`${gatewayUrl}/candidates/refId/a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d`);
      const card = page.getByRole('region', { name: 'What the service recorded' });
      await expect(card).toContainText('The passport photo is blurred');
      const copyReply = (await page.getByRole('button', { name: 'Copy reply' }).boundingBox())!;
      expect(copyReply.y + copyReply.height).toBeLessThan(844);
      // The header says the status and since when: no second card repeats the chip.
      await expect(page.getByRole('region', { name: 'Decision summary' })).toHaveCount(0);
      await expect(page.getByTestId('summary-status')).toContainText('since');
      await context.close();
    });
  });
});

test.describe('print', () => {
  test('keeps headings with what they head, and a masked printout says it was masked', async ({ page }) => {
    await page.goto('/candidates/refId/user-7781');
    await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    const heading = page.getByRole('heading', { name: 'Status history' });
    expect(await heading.evaluate((element) => getComputedStyle(element).breakAfter)).toBe('avoid-page');
    await expect(page.getByTestId('print-masked')).toHaveCount(0);
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('button', { name: 'Privacy mask', exact: true }).click();
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('print-masked')).toBeVisible();
    await expect(page.getByTestId('print-masked')).toContainText('Printed with the privacy mask on');
  });
});
