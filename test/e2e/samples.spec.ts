import { expect, test, needsServers } from './fixtures.ts';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { decodeAddress } from '../../src/kyc/view/address.ts';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { candidateName } from '../../src/kyc/contract/candidate-name.ts';
import { sortAttributes } from '../../src/kyc/view/attributes.ts';
import { decodePhone } from '../../src/kyc/view/phone.ts';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { statusInfo } from '../../src/kyc/contract/status.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';
import { reviewOf } from '../../src/kyc/view/certificate-review.ts';
import { parseCertificate } from '../../src/kyc/view/certificate.ts';
import { APP_HEADERS, expectAllPicturesDecoded, followRequests, screenshot } from './helpers.ts';

needsServers('sandbox');

/**
 * Every sample candidate, opened with one click from the home page as a newcomer would, renders its
 * key facts. What to expect is computed from the record the sandbox serves (through the proxy).
 */
test('every sample candidate renders its key facts', async ({ page, request }) => {
  test.setTimeout(120_000);
  const meta = apiMetaSchema.parse(await (await request.get('/api/meta', { headers: APP_HEADERS })).json());
  expect(meta.samples!.length).toBeGreaterThanOrEqual(8);

  for (const sample of meta.samples!) {
    await test.step(`${sample.kind} ${sample.id}: ${sample.summary}`, async () => {
      const response = await request.get(`/api/candidates/${sample.kind}/${encodeURIComponent(sample.id)}`, { headers: APP_HEADERS });
      const record = candidateEnvelopeSchema.parse(await response.json()).data;

      await page.goto('/');
      await page.getByRole('link', { name: new RegExp(sample.summary.replace(/[()]/g, '.')) }).click();

      const title = candidateName(record) ?? record.refId ?? record.recordId!;
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.locator('header [data-status]').first()).toHaveText(new RegExp(statusInfo(record.status).label));

      const timeline = buildTimeline(record);
      const expectedOrder = [
        ...timeline.steps.map((step) => step.status.status),
        ...(timeline.undatedCurrent ? [timeline.undatedCurrent.status] : []),
        ...(timeline.willArchiveAt ? ['will-archive'] : []),
      ];
      const steps = page.getByRole('list', { name: 'Status changes, oldest first' }).getByRole('listitem');
      await expect(steps).toHaveCount(expectedOrder.length);
      expect(await steps.evaluateAll((items) => items.map((li) => li.getAttribute('data-status')))).toEqual(expectedOrder);
      await expect(page.locator('[aria-current="step"]')).toHaveCount(1);

      const identities = record.identities;
      if (record.isArchived) await expect(page.getByText('Identity data was archived on the service')).toBeVisible();
      if (identities?.address) {
        const address = decodeAddress(identities.address.value);
        if (address.ok) await expect(page.locator('address')).toContainText(address.value.city!);
      }
      if (identities?.phone) {
        const phone = decodePhone(identities.phone.value);
        // Every sample's phone has its full number (the card composes one only without it: phone-card.tsx).
        if (phone.ok && phone.value.phoneNumber) {
          const formatted = parsePhoneNumberFromString(phone.value.phoneNumber)!.formatInternational();
          await expect(page.getByTestId('phone-number')).toHaveText(formatted);
        }
      }
      const pictures = identities ? sortAttributes(identities).pictures : [];
      await expectAllPicturesDecoded(page, pictures.length);

      for (const [slug, text] of Object.entries(record.certs ?? {})) {
        const panel = page.locator(`article[data-cert="${slug}"]`);
        const parsed = parseCertificate(text);
        const chip = page.getByRole('region', { name: 'Decision summary' }).locator(`[data-cert-chip="${slug}"]`);
        if (parsed.ok) {
          const outcome = reviewOf(parsed.json, slug).outcome;
          if (outcome) await expect(chip).toContainText(outcome);
          await expect(panel.getByTestId('review-rows')).toContainText('Provider');
          const json = panel.locator('details[data-raw-json]');
          await expect(json).not.toHaveAttribute('open');
          await json.locator('summary').click();
          await expect(json).toHaveAttribute('open');
          await expect(json.locator('pre')).toBeVisible();
        } else {
          await expect(chip).toContainText('unreadable');
          await expect(panel.locator('pre')).toBeVisible();
        }
      }
      await screenshot(page, `sample-${sample.id}`);
    });
  }
});

test('a picture opens in a larger view and closes with Escape', async ({ page }) => {
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await page.getByRole('button', { name: 'Open a larger view of the passport' }).click();
  const dialog = page.getByRole('dialog', { name: 'Passport of Amélie Dubois-Léger' });
  await expect(dialog).toBeVisible();
  await screenshot(page, 'picture-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('the larger view takes focus, a click on the backdrop closes it, and focus returns to the thumbnail', async ({ page }) => {
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  const thumbnail = page.getByRole('button', { name: 'Open a larger view of the passport' });
  await thumbnail.click();
  const dialog = page.getByRole('dialog', { name: 'Passport of Amélie Dubois-Léger' });
  // The picture's pane takes focus, so that the arrow keys and +/- act on it at once.
  await expect(dialog.getByRole('group', { name: /^Passport, \d+ %/ })).toBeFocused();
  await page.mouse.click(3, 3);
  await expect(dialog).toBeHidden();
  await expect(thumbnail).toBeFocused();
});

test('at 768 px wide nothing overflows its card', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1000 });
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.locator('details[data-raw-json] summary').first().click();
  const overflowing = await page.evaluate(() =>
    [...document.querySelectorAll('section, header, figure, details')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  expect(overflowing).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
  await screenshot(page, 'candidate-768');
});

test("a certificate's raw JSON breaks its lines where text breaks: no word that fits the box is cut at its edge", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/candidates/refId/c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  const json = page.locator('details[data-raw-json]').first();
  await json.locator('summary').click();
  const pre = json.locator('pre');
  await expect(pre).toBeVisible();
  // Each word of the JSON as Chromium laid it out: one that would fit a line whole but breaks other than after
  // a hyphen (as any text breaks) was cut at the box's edge: before, `break-all` cut "https://w3id.o|rg/…".
  const { cut, wrapped } = await pre.evaluate((element) => {
    const text = element.firstChild as Text;
    const rangeOf = (start: number, end: number) => {
      const range = document.createRange();
      range.setStart(text, start);
      range.setEnd(text, end);
      return range;
    };
    const topOf = (index: number) => Math.round(rangeOf(index, index + 1).getBoundingClientRect().top);
    const charWidth = rangeOf(0, 1).getBoundingClientRect().width;
    const cutWords: string[] = [];
    for (const match of text.data.matchAll(/\S+/g)) {
      const word = match[0];
      if (word.length * charWidth > element.clientWidth) continue;
      for (let i = 1; i < word.length; i++) {
        if (topOf(match.index + i) !== topOf(match.index + i - 1) && word[i - 1] !== '-') cutWords.push(word);
      }
    }
    const lines = new Set([...rangeOf(0, text.data.length).getClientRects()].map((rect) => Math.round(rect.top))).size;
    return { cut: cutWords, wrapped: lines > text.data.split('\n').length };
  });
  // The box is narrow enough that lines do wrap: the check is about something.
  expect(wrapped).toBe(true);
  expect(cut).toEqual([]);
  await screenshot(page, 'certificate-json-390');
});

test('on a slow link, the record shows at once and each picture its bytes received', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  const requests = followRequests(page);
  await page.goto('/');
  // The home page whole (its chunks, session and samples) before the link is slowed: only the lookup is.
  await expect(page.getByRole('region', { name: 'Sample candidates' })).toBeVisible();
  await requests.settled();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 50,
    downloadThroughput: 40 * 1024,
    uploadThroughput: 40 * 1024,
  });
  await page.getByRole('textbox', { name: 'refId to look up' }).fill('c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await page.keyboard.press('Enter');
  // The answer comes in parts: the record first, then each picture with its own progress.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Amélie Dubois-Léger', { timeout: 10_000 });
  await expect(page.getByText(/^Passport: \d+(\.\d)? k?B of \d+(\.\d)? kB$/)).toBeVisible({ timeout: 10_000 });
  await expect(page.getByRole('progressbar', { name: 'Passport downloading' })).toBeVisible();
  await screenshot(page, 'download-progress');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(page.getByRole('button', { name: 'Open a larger view of the proof of address' })).toBeVisible({ timeout: 15_000 });
});
