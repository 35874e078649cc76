import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test, needsServers } from './fixtures.ts';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { decodeAddress } from '../../src/kyc/view/address.ts';
import { apiMetaSchema, type SampleCandidate } from '../../src/kyc/contract/api.ts';
import { candidateName } from '../../src/kyc/contract/candidate-name.ts';
import { sortAttributes } from '../../src/kyc/view/attributes.ts';
import { decodePhone } from '../../src/kyc/view/phone.ts';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { statusInfo } from '../../src/kyc/contract/status.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';
import { reviewOf } from '../../src/kyc/view/certificate-review.ts';
import { layOutCertificate, parseCertificate } from '../../src/kyc/view/certificate.ts';
import { APP_HEADERS, expectAllPicturesDecoded, followRequests, screenshot } from './helpers.ts';

needsServers('sandbox');

/**
 * Every sample candidate, opened with one click from the home page as a newcomer would, renders its
 * key facts. What to expect is computed from the record the sandbox serves (through the proxy).
 */
// In parts of a few samples each, every fourth sample a part: all of them in one test ran past its two
// minutes on the CI machine.
const SAMPLE_PARTS = 4;
for (let part = 0; part < SAMPLE_PARTS; part++) {
  test(`every sample candidate renders its key facts (part ${part + 1} of ${SAMPLE_PARTS})`, async ({ page, request }) => {
    test.slow();
    const meta = apiMetaSchema.parse(await (await request.get('/api/meta', { headers: APP_HEADERS })).json());
    expect(meta.samples!.length).toBeGreaterThanOrEqual(8);
    await expectSamplesRender(
      page,
      request,
      meta.samples!.filter((_, index) => index % SAMPLE_PARTS === part),
    );
  });
}

async function expectSamplesRender(page: Page, request: APIRequestContext, samples: SampleCandidate[]) {
  for (const sample of samples) {
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
}

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

/**
 * How Chromium laid out a certificate's text (its <pre>), in what a reader would see as wrong: a word that
 * fits the box cut other than after a hyphen, an ISO date split, a value dropped below its line's
 * indentation (a row of spaces above it), a wrapped part left of the indentation. Run in the page.
 */
function certificateLayout(pre: HTMLElement) {
  // Each character by its text node: the lines are elements of their own, a date or a number a span.
  const chars: Array<{ node: Text; offset: number }> = [];
  const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let offset = 0; offset < (node as Text).data.length; offset++) chars.push({ node: node as Text, offset });
  }
  const text = pre.textContent ?? '';
  const rectOf = (index: number) => {
    const range = document.createRange();
    range.setStart(chars[index]!.node, chars[index]!.offset);
    range.setEnd(chars[index]!.node, chars[index]!.offset + 1);
    return range.getBoundingClientRect();
  };
  const topOf = (index: number) => Math.round(rectOf(index).top);
  const charWidth = rectOf(text.search(/\S/)).width;
  const left = pre.getBoundingClientRect().left;
  const indentOf = (line: string) => Math.min((/^ */.exec(line)?.[0].length ?? 0) * charWidth, pre.clientWidth / 2);
  const found = {
    cut: [] as string[],
    dates: [] as string[],
    dropped: [] as string[],
    leftOfIndent: [] as string[],
    rows: new Set<number>(),
  };
  let start = 0;
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    if (indent > 0 && indent < line.length && topOf(start + indent) !== topOf(start)) found.dropped.push(line.trim());
    for (let i = start + indent; i < start + line.length; i++) {
      found.rows.add(topOf(i));
      if (rectOf(i).left < left + indentOf(line) - 1) found.leftOfIndent.push(line.trim());
    }
    for (const match of line.matchAll(/\S+/g)) {
      const at = start + match.index;
      const word = match[0];
      if (word.length * charWidth > pre.clientWidth - indentOf(line)) continue;
      for (let i = 1; i < word.length; i++) if (topOf(at + i) !== topOf(at + i - 1) && word[i - 1] !== '-') found.cut.push(word);
    }
    for (const match of line.matchAll(/\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})?/g)) {
      const at = start + match.index;
      if (topOf(at) !== topOf(at + match[0].length - 1)) found.dates.push(match[0]);
    }
    start += line.length + 1;
  }
  const { rows, ...rest } = found;
  return { ...rest, wrapped: rows.size > text.split('\n').length, text };
}

/** What selecting the whole box and pressing Ctrl+C puts on the clipboard. */
async function copiedByHand(page: Page, pre: Locator): Promise<string> {
  await pre.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
  });
  await page.keyboard.press('Control+C');
  return page.evaluate(() => navigator.clipboard.readText());
}

test("a certificate's raw JSON wraps each line under its own indentation, keeps dates whole, and copies as its text", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const refId = 'c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10';
  const record = candidateEnvelopeSchema.parse(
    await (await request.get(`/api/candidates/refId/${refId}`, { headers: APP_HEADERS })).json(),
  ).data;
  const raw = record.certs!['onfido-service-cert']!;
  const parsed = parseCertificate(raw);
  const sent = parsed.ok ? layOutCertificate(raw, parsed) : undefined;
  if (!sent?.ok) throw new Error('The sample certificate is JSON');
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/candidates/refId/${refId}`);
    const json = page.locator('details[data-raw-json]').first();
    await json.locator('summary').click();
    const pre = json.locator('pre');
    await expect(pre).toBeVisible();
    const layout = await pre.evaluate(certificateLayout);
    expect(layout.text).toBe(sent.pretty);
    // Before, at 390 px: `"https://w3id.org/identity/v1",` dropped to column 0 under a row of its indentation's
    // spaces, and "2026-11-01T16:31:44.837Z" broke at a hyphen. Since break-all, no word that fits is cut.
    expect(layout.dropped).toEqual([]);
    expect(layout.leftOfIndent).toEqual([]);
    expect(layout.dates).toEqual([]);
    expect(layout.cut).toEqual([]);
    // At 390 px the box is narrow enough that lines do wrap: the checks are about something.
    if (width === 390) expect(layout.wrapped).toBe(true);
    // The indentation is in the padding, yet a copy by hand gives the text, indentation and line breaks included.
    expect(await copiedByHand(page, pre)).toBe(sent.pretty);
    await screenshot(page, `certificate-json-${width}`);
  }
});

test('a certificate that is not JSON wraps the same way and copies as received', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 390, height: 900 });
  const refId = 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d';
  const record = candidateEnvelopeSchema.parse(
    await (await request.get(`/api/candidates/refId/${refId}`, { headers: APP_HEADERS })).json(),
  ).data;
  const raw = record.certs!['onfido-service-cert']!;
  await page.goto(`/candidates/refId/${refId}`);
  const pre = page.getByRole('region', { name: /certificate text$/ }).locator('pre');
  await expect(pre).toBeVisible();
  const layout = await pre.evaluate(certificateLayout);
  expect(layout.text).toBe(raw);
  // Before: "2026-11-22T10:31:44.837Z" broke after "2026-11-".
  expect(layout).toMatchObject({ dropped: [], leftOfIndent: [], dates: [], cut: [], wrapped: true });
  expect(await copiedByHand(page, pre)).toBe(raw);
  await screenshot(page, 'certificate-not-json-390');
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
    // 10 kB/s: the passport's 51 kB are some five seconds on the way, its progress in view meanwhile. At
    // 40 kB/s it was a second and a half, which a loaded machine's page could pass before it was looked for.
    downloadThroughput: 10 * 1024,
    uploadThroughput: 10 * 1024,
  });
  await page.getByRole('textbox', { name: 'refId to look up' }).fill('c0a8f3e2-6b1d-4f7e-9a52-3d1e8b7c4a10');
  await page.keyboard.press('Enter');
  // The answer comes in parts: the record first, then each picture with its own progress.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Amélie Dubois-Léger');
  await expect(page.getByText(/^Passport: \d+(\.\d)? k?B of \d+(\.\d)? kB$/)).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Passport downloading' })).toBeVisible();
  await screenshot(page, 'download-progress');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(page.getByRole('button', { name: 'Open a larger view of the proof of address' })).toBeVisible();
});
