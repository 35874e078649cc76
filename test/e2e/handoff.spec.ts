import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { auditLinesOf, E2E_PORTS, E2E_USERS } from './servers.ts';
import { APP_HEADERS, screenshot } from './helpers.ts';

needsServers('sandbox', 'environments', 'users');

const XIUYING = '/candidates/refId/cust_000482';
const KWAME_RECORD_ID = '65f1c2a9e4b0d3a1f0c9b810';
const searchBox = (page: Page) => page.getByLabel(/^(refId|recordId) to look up$/);
const environmentsUrl = `http://127.0.0.1:${E2E_PORTS.environments}`;

/** Audit lines of this spec's servers that match. */
function auditLines(match: (line: Record<string, unknown>) => boolean): Array<Record<string, unknown>> {
  return auditLinesOf('sandbox', 'environments', 'users').filter(match);
}

test.describe('the search box', () => {
  test('a paste into a filled box replaces its content', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(XIUYING);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
    await expect(searchBox(page)).toHaveValue('cust_000482');
    await page.evaluate(() => navigator.clipboard.writeText('user-7781'));
    await searchBox(page).click();
    await page.keyboard.press('Control+V');
    await expect(searchBox(page)).toHaveValue('user-7781');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/candidates\/refId\/user-7781$/);
  });

  test('"/" focuses the box from anywhere', async ({ page }) => {
    await page.goto(XIUYING);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
    await page.getByRole('heading', { level: 1 }).click();
    await expect(searchBox(page)).not.toBeFocused();
    await page.keyboard.press('/');
    await expect(searchBox(page)).toBeFocused();
    await expect(searchBox(page)).toHaveValue('cust_000482');
  });

  test('an id pasted with a zero-width space finds the candidate, and the page says what was removed', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await expect(searchBox(page)).toBeFocused();
    await page.evaluate(() => navigator.clipboard.writeText('cust_\u200b000482'));
    await page.keyboard.press('Control+V');
    await expect(searchBox(page)).toHaveValue('cust_000482');
    await expect(page.getByText('Removed from the pasted id: 1 zero-width space.')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
    await expect(page.getByText('Removed from the id: 1 zero-width space.')).toBeVisible();
  });

  test('a recordId looked up as a refId (the switch says so) finds the candidate, both lookups audited', async ({ page }) => {
    await page.goto('/');
    await searchBox(page).fill(KWAME_RECORD_ID);
    // Read as a recordId by its form; the switch overrides that.
    await expect(page.getByRole('radio', { name: 'recordId' })).toBeChecked();
    await page.getByRole('radio', { name: 'refId' }).check({ force: true });
    await searchBox(page).press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kwame Mensah');
    await expect(page).toHaveURL(new RegExp(`/candidates/recordId/${KWAME_RECORD_ID}$`));
    await expect(
      page.getByText(`No candidate has the refId ${KWAME_RECORD_ID}; it looks like a recordId, so it was looked up as one.`),
    ).toBeVisible();
    // The switch follows the page's kind, the one it was found by: Enter again looks nothing up as a refId
    // known to fail (it used to stay on refId, and each Enter wrote a refId and a recordId lookup).
    await expect(page.getByRole('radio', { name: 'recordId' })).toBeChecked();
    const lines = auditLines((l) => l.id === KWAME_RECORD_ID && l.user === 'local');
    expect(lines.some((l) => l.kind === 'refId' && l.code === 'not_found')).toBe(true);
    expect(lines.some((l) => l.kind === 'recordId' && l.status === 200)).toBe(true);
  });

  test('on a phone, the kind toggle sits above a full-width field', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    // On a phone the live indicator sits in the folded Menu, so "Connecting…" turning to "Live" moves nothing.
    await expect(page.getByTestId('live-indicator')).toBeHidden();
    await expect(searchBox(page)).toBeVisible();
    const toggle = (await page.getByRole('group', { name: 'Look up by' }).boundingBox())!;
    const field = (await searchBox(page).boundingBox())!;
    const button = (await page.getByRole('button', { name: 'Look up' }).boundingBox())!;
    const form = (await page.locator('search form').boundingBox())!;
    // The toggle on its own line, the field below it from the left edge, the field and its button filling the width.
    expect(toggle.y + toggle.height).toBeLessThanOrEqual(field.y);
    expect(Math.abs(field.x - form.x)).toBeLessThan(1);
    expect(button.x + button.width).toBeGreaterThan(form.x + form.width - 1);
    expect(field.width).toBeGreaterThan(form.width - button.width - 16);
    await screenshot(page, 'search-box-phone');
  });
});

test.describe('batch lookup', () => {
  test('50 ids with unknown and invalid ones mixed in give the right rows, and the CSV has them', async ({ page }) => {
    const meta = await (await page.request.get('/api/meta', { headers: APP_HEADERS })).json();
    const known: Array<{ id: string; status: string }> = meta.samples.filter((s: { kind: string }) => s.kind === 'refId');
    const invalid = ['..', `too-long-${'x'.repeat(300)}`];
    const unknown = Array.from({ length: 50 - known.length - invalid.length }, (_, i) => `nobody-${i}`);
    // Interleaved: known, unknown and invalid ids side by side.
    const ids: string[] = [];
    for (let i = 0; ids.length < 50; i++) {
      if (known[i]) ids.push(known[i]!.id);
      if (unknown[i]) ids.push(unknown[i]!);
      if (invalid[i]) ids.push(invalid[i]!);
    }
    await page.goto('/');
    await page.getByRole('link', { name: 'Batch lookup' }).click();
    await page.getByRole('textbox', { name: 'refIds to look up' }).fill(ids.join('\n'));
    await expect(page.getByTestId('batch-hint')).toHaveText(/^50 ids, one per line/);
    await page.getByRole('button', { name: 'Look up all' }).click();
    const notFound = ids.filter((id) => unknown.includes(id)).length;
    await expect(
      page.getByText(`Done: ${known.length} found, ${notFound} not found, ${50 - known.length - notFound} failed.`),
    ).toBeVisible();
    await expect(page.getByTestId('batch-progress')).toHaveText('50 of 50');

    const rows = page.getByRole('table').locator('tbody tr');
    await expect(rows).toHaveCount(50);
    for (const [index, id] of ids.entries()) {
      const row = rows.nth(index);
      const sample = known.find((k) => k.id === id);
      if (sample) {
        await expect(row).toHaveAttribute('data-row-state', 'found');
        await expect(row.locator('[data-status]')).toHaveAttribute('data-status', sample.status);
      } else if (invalid.includes(id)) {
        await expect(row).toHaveAttribute('data-code', 'invalid_id');
      } else {
        await expect(row).toHaveAttribute('data-code', 'not_found');
      }
    }
    await screenshot(page, 'batch');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^candidates-refId-.*\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8')
      .replace(/^\ufeff/, '')
      .split('\r\n');
    expect(csv[0]).toBe(
      'line,id,status,statusText,statusDate,statusDateLocal,submitCount,archived,refId,recordId,repeatOf,error,message,unreadable,certificate,pictures,triageAsOf,triageAsOfLocal,statusDateDoubt',
    );
    expect(csv.slice(1, -1)).toHaveLength(50);
    const column = (name: string) => csv[0]!.split(',').indexOf(name);
    for (const [index, id] of ids.entries()) {
      const cells = csv[index + 1]!.split(',');
      const sample = known.find((k) => k.id === id);
      if (sample) expect(cells.slice(0, 3)).toEqual([String(index + 1), id, sample.status]);
      else expect(cells[column('error')]).toBe(invalid.includes(id) ? 'invalid_id' : 'not_found');
    }
    const batchLines = auditLines((l) => l.batch === true && typeof l.id === 'string' && (l.id as string).startsWith('nobody-'));
    expect(batchLines.length).toBeGreaterThanOrEqual(unknown.length);
  });
});

test.describe('hand-off', () => {
  test('copy summary puts the ids, status, submissions and environment on the clipboard, and audits it', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/candidates/refId/user-7781');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Copy summary' }).click();
    await expect(page.getByText('Summary copied')).toBeVisible();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    // 29 × 24 h before the sandbox started: 30 calendar days once a midnight passed since (time.ts counts days).
    expect(text).toMatch(
      /^Candidate \(Sandbox\)\nrefId: user-7781\nrecordId: [0-9a-f]{24}\nblockPassID: \S+\nStatus: Blocked since .+ \((29|30) days ago\)\nSubmissions: \d+\n/,
    );
    expect(text).toContain('Certificates:\n');
    // The decision summary's custom fields, as the strip shows them (the default summaryFields).
    expect(text).toContain('Decision fields:\n  riskLevel: high\n  screeningCase: CA-2026-00917\n');
    expect(text).toMatch(/Looked up: .+\n$/);
    const record = (await (await page.request.get('/api/candidates/refId/user-7781', { headers: APP_HEADERS })).json()).data;
    for (const name of ['dob', 'address', 'phone', 'email']) {
      const value = record.identities?.[name]?.value;
      if (value) expect(text).not.toContain(value);
    }
    expect(auditLines((l) => l.kind === 'export' && l.what === 'summary' && l.id === 'user-7781').length).toBeGreaterThanOrEqual(1);
  });

  test('Print opens the print dialog; on paper: the first line, every certificate as its result rows, no form or buttons', async ({
    page,
  }) => {
    await page.goto('/candidates/refId/user-7781');
    await expect(page.getByRole('heading', { name: 'Pictures' })).toBeVisible();
    await expect(page.getByTestId('print-header')).toBeHidden();
    // The dialog itself is the browser's: the stub records the call and says the dialog opens, as Chromium does.
    await page.evaluate(() => {
      const counted = window as unknown as { printCalls: number };
      counted.printCalls = 0;
      window.print = () => {
        counted.printCalls++;
        window.dispatchEvent(new Event('beforeprint'));
      };
    });
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    expect(await page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);
    await page.emulateMedia({ media: 'print' });

    const first = page.getByTestId('print-header');
    await expect(first).toBeVisible();
    await expect(first).toHaveText(
      /^Printed by local on \w{3} \d{1,2}, \d{4}, \d{2}:\d{2}(\s[AP]M)? (UTC|UTC[+-]\d{1,2}(:\d\d)?|(?!GMT)[A-Z]{2,5}) · Sandbox environment · client id candidate_lookup_sandbox$/,
    );
    await expect(page.locator('search')).toBeHidden();
    await expect(page.locator('header').first()).toBeHidden();
    // No controls on paper; the pictures' thumbnails (buttons on screen) print as pictures.
    expect(
      await page
        .locator('button:visible')
        .filter({ hasNot: page.locator('img') })
        .count(),
    ).toBe(0);
    // The first line is the first thing on the page.
    const top = await first.boundingBox();
    const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
    expect(top!.y).toBeLessThan(heading!.y);
    // Every certificate prints its provider results as rows; the raw JSON-LD (signatures and all) stays on screen.
    const certificates = page.locator('article[data-cert]');
    await expect(certificates).toHaveCount(2);
    for (const certificate of await certificates.all()) {
      await expect(certificate.getByTestId('review-rows')).toBeVisible();
      await expect(certificate.locator('details[data-raw-json]')).toBeHidden();
    }
    const screening = page.locator('article[data-cert="complyadvantage-service-cert"]').getByTestId('review-rows');
    await expect(screening.getByText('potential_match', { exact: true })).toBeVisible();
    // Pictures large enough to read.
    const picture = await page.locator('figure[data-attribute] img').first().boundingBox();
    expect(picture!.width).toBeGreaterThanOrEqual(400);
    await screenshot(page, 'print');
    expect(auditLines((l) => l.kind === 'export' && l.what === 'print' && l.id === 'user-7781').length).toBeGreaterThanOrEqual(1);
  });

  test('on paper, a certificate that is not JSON prints its raw text whole, not cut to a scrolling box', async ({ page }) => {
    await page.goto('/candidates/refId/a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d');
    const box = page.getByRole('region', { name: /certificate text$/ });
    await expect(box).toBeVisible();
    const layout = () =>
      box.evaluate((el) => ({
        maxHeight: getComputedStyle(el).maxHeight,
        overflow: getComputedStyle(el).overflowY,
        cut: el.scrollHeight > el.clientHeight + 1,
      }));
    expect((await layout()).maxHeight).toBe('384px');
    await page.emulateMedia({ media: 'print' });
    await expect(box).toBeVisible();
    expect(await layout()).toEqual({ maxHeight: 'none', overflow: 'visible', cut: false });
    await expect(box).toContainText('"reviewBody":');
  });
});

test.describe('where and when', () => {
  test('two environments: the header switches between them, and their badges differ', async ({ page }) => {
    await page.goto(`${environmentsUrl}/candidates/refId/crm-55102`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('environment-badge')).toHaveText('Sandbox A · candidate_lookup_sandbox');
    await expect(page.getByRole('link', { name: "Open in the KYC service's dashboard (opens in a new tab)" })).toHaveAttribute(
      'href',
      /^https:\/\/dashboard\.example\.com\/kyc\/[0-9a-f]{24}$/,
    );
    // The other environment's home, the id in the box: looked up there only on Enter.
    const inB = () => auditLines((l) => l.id === 'crm-55102' && l.env === 'b').length;
    const before = inB();
    // With two environments their switcher is under Menu, the badge in the row (header-row.spec.ts).
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('combobox', { name: 'Environment' }).selectOption('b');
    await expect(page).toHaveURL(`${environmentsUrl}/e/b/`);
    await expect(page.getByTestId('environment-badge')).toHaveText('Sandbox B · candidate_lookup_sandbox');
    await expect(page.getByLabel('refId to look up')).toHaveValue('crm-55102');
    expect(inB()).toBe(before);
    await page.getByLabel('refId to look up').press('Enter');
    await expect(page).toHaveURL(`${environmentsUrl}/e/b/candidates/refId/crm-55102`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Sandbox B names no console and is no Blockpass service: no link.
    await expect(page.getByRole('link', { name: /^Open in the KYC service's dashboard/ })).toHaveCount(0);
    await screenshot(page, 'environment-b');
    const lines = auditLines((l) => l.id === 'crm-55102' && (l.env === 'a' || l.env === 'b'));
    expect(new Set(lines.map((l) => l.env))).toEqual(new Set(['a', 'b']));
  });

  test('the candidate page says when it was fetched; after a status change, coming back to the tab shows a banner', async ({ page }) => {
    await page.clock.install();
    await page.goto(`${environmentsUrl}/candidates/refId/support-ticket-4410`);
    const header = page.getByRole('heading', { level: 1 });
    await expect(header).toBeVisible();
    await expect(page.getByTestId('fetched-at')).toHaveText(/^Fetched .+\((just now|\d+ seconds? ago)\)$/);
    // Away from the tab for a minute: the page says how old its answer is. Read before the status changes:
    // the change's live update may fetch the record again at once (CI saw "just now" after the change).
    await page.evaluate(() => window.dispatchEvent(new Event('blur')));
    await page.clock.fastForward('01:05');
    await expect(page.getByTestId('fetched-at')).toHaveText(/^Fetched .+\(1 minute ago\)$/);
    const before = (
      await (await page.request.get(`${environmentsUrl}/api/status/refId/support-ticket-4410`, { headers: APP_HEADERS })).json()
    ).data.status;
    const after = before === 'approved' ? 'rejected' : 'approved';
    const changed = await page.request.post(`http://127.0.0.1:${E2E_PORTS.sandboxA}/_test/status`, {
      data: { kind: 'refId', id: 'support-ticket-4410', status: after },
    });
    expect(changed.status()).toBe(200);

    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const banner = page.getByRole('alert').filter({ hasText: 'The status changed' });
    await expect(banner).toContainText(`to ${after === 'approved' ? 'Approved' : 'Rejected'} since this page was loaded`);
    await banner.getByRole('button', { name: 'Refresh now' }).click();
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('fetched-at')).toHaveText(/^Fetched .+\((just now|\d+ seconds? ago)\)$/);
  });

  test('recent lookups appear under the home page form, and vanish at sign-out', async ({ page }) => {
    const usersUrl = `http://127.0.0.1:${E2E_PORTS.users}`;
    const signIn = async () => {
      await page.getByLabel('Username').fill(E2E_USERS.support.username);
      await page.getByLabel('Password').fill(E2E_USERS.support.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    await page.goto(usersUrl);
    await signIn();
    await searchBox(page).fill('cust_000482');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('cust_000482');
    await page.getByRole('link', { name: 'Candidate Lookup' }).click();
    const recent = page.getByRole('region', { name: 'Recent lookups' });
    await expect(recent.getByRole('link')).toHaveCount(1);
    await expect(recent).toContainText('cust_000482');
    await expect(recent).toContainText('In review');
    const stored = await page.evaluate(() => sessionStorage.getItem('candidate-lookup:recent'));
    expect(JSON.parse(stored!)).toEqual([
      { kind: 'refId', id: 'cust_000482', status: 'inreview', environment: 'sandbox', at: expect.any(String) },
    ]);
    await screenshot(page, 'recent-lookups');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('candidate-lookup:recent'))).toBeNull();
    await signIn();
    await expect(searchBox(page)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Recent lookups' })).toHaveCount(0);
  });
});
