import { expect, test, needsServers } from './fixtures.ts';
import { E2E_PORTS } from './servers.ts';
import { screenshot } from './helpers.ts';

needsServers('sandbox', 'statusOnly', 'upstreamDown');

test.describe('lookup', () => {
  test('by refId through the form, then back and reload', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByTestId('environment-badge')).toHaveText('Sandbox');
    await page.getByRole('textbox', { name: 'refId to look up' }).fill('  cust_000482  ');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page).toHaveURL(/\/candidates\/refId\/cust_000482$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
    await expect(page.getByTestId('environment-badge')).toHaveText('Sandbox');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Look up a candidate' })).toBeVisible();
  });

  test('by recordId through the form, for the candidate without refId', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('radio', { name: 'recordId' }).check({ force: true });
    await page.getByRole('textbox', { name: 'recordId to look up' }).fill('65f1c2a9e4b0d3a1f0c9b810');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kwame Mensah');
    // The answer lacks a refId: it says so, not that none was assigned.
    await expect(page.locator('dl dt', { hasText: /^refId$/ }).locator('xpath=following-sibling::dd[1]')).toHaveText(
      'not in this response',
    );
  });

  test('a deep link opens directly', async ({ page }) => {
    await page.goto('/candidates/recordId/65f1c2a9e4b0d3a1f0c9b805');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zoë Ångström');
  });

  for (const id of ['a/b c', 'x?y=1#frag', '张伟 / ?#', '100%', "it's (odd) *"]) {
    test(`an unknown id with awkward characters round-trips: ${id}`, async ({ page }) => {
      await page.goto('/');
      await page.getByRole('textbox', { name: 'refId to look up' }).fill(id);
      await page.keyboard.press('Enter');
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(`No candidate with refId "${id.trim()}"`);
      await page.reload();
      await expect(heading).toHaveText(`No candidate with refId "${id.trim()}"`);
    });
  }

  test("an unknown refId without a recordId's form offers no other kind; an unknown recordId offers to try it as a refId", async ({
    page,
  }) => {
    await page.goto('/candidates/refId/crm-00000');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No candidate with refId "crm-00000"');
    await screenshot(page, 'not-found');
    // It can be no recordId (24 hexadecimal characters): trying it as one would only send it again.
    await expect(page.getByRole('link', { name: /Try as/ })).toHaveCount(0);
    await page.goto('/candidates/recordId/crm-00000');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No candidate with recordId "crm-00000"');
    await page.getByRole('link', { name: 'Try as refId' }).click();
    // Looked up both ways: said so, with nothing more to try.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No candidate with refId or recordId "crm-00000"');
    await expect(page.getByRole('link', { name: /Try as/ })).toHaveCount(0);
    await expect(page.getByRole('radio', { name: 'refId' })).toBeChecked();
  });

  test('an encrypted answer (the sandbox plays one): says what it is, shows none of it, and the next lookup works', async ({ page }) => {
    await page.goto('/candidates/refId/encrypted-demo');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The answer is not a readable record');
    await expect(page.getByText(/It may be encrypted/)).toBeVisible();
    await expect(page.locator('body')).not.toContainText('eyJhbGci');
    // Above it no empty bar: no queue, nobody else, no dashboard address for a refId the service did not answer for.
    expect(await page.getByTestId('review-bar').boundingBox()).toBeNull();
    await page.getByRole('textbox', { name: 'refId to look up' }).fill('cust_000482');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
  });

  for (const [name, viewport] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    test(`the header's question about personal data pushes the candidate page down, covering none of it (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto('/candidates/refId/cust_000482');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('王秀英');
      const top = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((element) => element.getBoundingClientRect().top);
      const markTop = await top('header a');
      if (name === 'phone') await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('header input[name="id"]').fill('mehmet.yilmaz@example.com.tr');
      await page.keyboard.press('Enter');
      const question = page.getByTestId('personal-data-popover');
      await expect(question).toBeVisible();
      await screenshot(page, `header-question-${name}`);
      const asked = await question.boundingBox();
      // Before: laid over the page under the header, it hid the review bar and, on a phone, the top of the page.
      expect(asked!.y + asked!.height).toBeLessThanOrEqual(await top('main'));
      expect(asked!.y + asked!.height).toBeLessThanOrEqual(await top('h1'));
      // The header grows down: its mark stays where it was, not slid to the middle of a taller header.
      expect(await top('header a')).toBe(markTop);
    });
  }

  test('an empty lookup is refused with a message', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByRole('alert')).toHaveText('Enter a refId to look up.');
    await expect(page).toHaveURL(/\/$/);
  });
});

test('the status-only key shows one clear note instead of empty sections', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${E2E_PORTS.statusOnly}/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10`);
  await expect(page.getByText('This answer has no identity data, custom fields or certificates')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { name: 'Status history' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pictures' })).toHaveCount(0);
  // Pointed at a service of its own: the badge names it by host and client id, not as the sandbox.
  await expect(page.getByTestId('environment-badge')).toHaveText('127.0.0.1 · candidate_lookup_sandbox');
  await screenshot(page, 'status-only');
});

test('the upstream down: a specific message and a retry button', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${E2E_PORTS.upstreamDown}/candidates/refId/cust_000482`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The KYC service cannot be reached');
  await expect(page.getByText('connection refused')).toBeVisible();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The KYC service cannot be reached');
  await screenshot(page, 'upstream-down');
});
