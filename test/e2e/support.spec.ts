import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { docScreenshot } from './helpers.ts';
import { auditLinesOf, E2E_PORTS } from './servers.ts';

needsServers('gateway');

/**
 * A support agent answering "why was I rejected?" (issue 24), on the sandbox as `npm start` serves it
 * behind an identity-aware proxy: the recorded reason near the status, then Copy reply read, edited and
 * copied. The sandbox's support fields need no setup.
 */
const gatewayUrl = `http://127.0.0.1:${E2E_PORTS.gateway}`;
const REJECTED = 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d';

test('a support user sees the recorded reason of a rejected candidate, then edits and copies the reply', async ({ browser }) => {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'X-Forwarded-User': 'sam@example.org', 'X-Forwarded-Role': 'support' },
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gatewayUrl });
  const page = await context.newPage();
  await page.goto(`${gatewayUrl}/candidates/refId/${REJECTED}`);

  const card = page.getByRole('region', { name: 'What the service recorded' });
  await expect(card).toContainText('Rejection reason');
  await expect(card).toContainText('The passport photo is blurred');
  await expect(card).toContainText("Take a new photo of the passport's photo page");
  // Nothing else of the record: no identity, no pictures, no certificates, no other custom field.
  await expect(page.getByRole('heading', { name: 'Pictures' })).toHaveCount(0);
  await expect(page.getByText('Zoë')).toHaveCount(0);
  await expect(page.getByText('riskLevel')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await docScreenshot(page, 'support-view');

  await page.getByRole('button', { name: 'Copy reply' }).click();
  const editor = page.getByRole('dialog', { name: 'Reply to the customer' });
  const text = editor.getByRole('textbox', { name: 'Reply' });
  await expect(text).toBeFocused();
  await expect(text).toHaveValue(/The reason: The passport photo is blurred/);
  await expect(text).toHaveValue(new RegExp(`Your reference: ${REJECTED}$`));
  expect(await seriousViolations(page)).toEqual([]);
  await docScreenshot(page, 'reply-editor');

  await text.press('ControlOrMeta+End');
  await text.pressSequentially('\nKind regards, Sam');
  await editor.getByRole('button', { name: 'Copy' }).click();
  await expect(editor).toBeHidden();
  await expect(page.getByText('Reply copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^We could not complete your identity verification/);
  expect(copied).toContain('What to do: Take a new photo');
  expect(copied.endsWith(`Your reference: ${REJECTED}\nKind regards, Sam`)).toBe(true);

  // Audited as a reply from the rejected template, never its text; the lookup named the fields shown.
  const lines = auditLinesOf('gateway').filter((line) => line.user === 'sam@example.org' && line.id === REJECTED);
  expect(lines.some((line) => line.kind === 'export' && line.what === 'reply' && line.template === 'rejected')).toBe(true);
  expect(
    lines.some((line) => line.kind === 'refId' && line.level === 'stripped' && String(line.fields) === 'rejectionReason,resubmitHint'),
  ).toBe(true);
  expect(JSON.stringify(lines)).not.toContain('blurred');

  // The keyboard help, on this page: closed by Escape.
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
  await context.close();
});

test('a support agent typing a reply sees, inside the reply editor, that the server is being asked again', async ({ browser }) => {
  const context = await browser.newContext({
    extraHTTPHeaders: { 'X-Forwarded-User': 'sam@example.org', 'X-Forwarded-Role': 'support' },
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  // The live stream ends as soon as it opens and comes back after 3 s: each drop re-checks the session,
  // as a restart's does. Nothing else of the server is touched (it is shared with the other specs).
  await page.route('**/api/events', (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 3000\n\n' }));
  await page.goto(`${gatewayUrl}/candidates/refId/${REJECTED}`);
  await page.getByRole('button', { name: 'Copy reply' }).click();
  const editor = page.getByRole('dialog', { name: 'Reply to the customer' });
  await editor.getByRole('textbox', { name: 'Reply' }).pressSequentially('kept');

  // The server stops answering the session's re-check, as while it restarts.
  await page.route('**/api/session', (route) => route.abort('connectionrefused'));
  // The words come into the editor's own live region, there (empty) from when it opened.
  const notice = editor.getByTestId('dialog-notices');
  await expect(notice).toHaveText("Can't reach the server — retrying. This page and what you typed stay here.");
  await expect(notice).toBeVisible();
  // Over the dialog's backdrop, not behind it: the browser's own hit test at its middle finds the notice.
  const onTop = await notice.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });
  expect(onTop).toBe(true);
  // The only live region holding the words: the page's own, behind the dialog, is empty.
  await expect(page.locator('[aria-live]', { hasText: "Can't reach the server" })).toHaveCount(1);
  await expect(page.getByTestId('session-retry')).toBeEmpty();
  expect(await seriousViolations(page)).toEqual([]);

  await page.unroute('**/api/session');
  await expect(notice).toBeEmpty();
  await expect(editor.getByRole('textbox', { name: 'Reply' })).toHaveValue(/kept/);
  await context.close();
});
