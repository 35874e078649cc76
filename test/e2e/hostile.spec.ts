import { expect, test, needsServers } from './fixtures.ts';
import { E2E_PORTS } from './servers.ts';
import { HOSTILE_ISSUE_DATE, HOSTILE_REF_ID, PAYLOADS } from '../fixtures/hostile-candidate.mjs';
import { screenshot } from './helpers.ts';

needsServers('hostile');

const base = `http://127.0.0.1:${E2E_PORTS.hostile}`;

/**
 * A candidate whose every field carries script, markup, javascript: URLs, entities, right-to-left
 * overrides and 100 kB strings, and whose "pictures" are SVG with script, HTML, a PDF and random bytes.
 */
test('hostile content never runs, never renders as markup, never overflows', async ({ page }) => {
  // Every 100 kB value shown in full and folded again: 24 s on a quiet machine.
  test.slow();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  // Every object URL the page makes: the fake pictures come in parts of their own, and none may get one.
  await page.addInitScript(() => {
    const made: string[] = [];
    (window as unknown as { __objectUrls: string[] }).__objectUrls = made;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) => {
      made.push(object instanceof Blob ? object.type : 'media');
      return create(object);
    };
  });

  await page.goto(`${base}/`);
  const answer = page.waitForResponse((response) => response.url().includes('/api/candidates/'));
  await page.getByRole('link', { name: /Hostile content in every field/ }).click();
  expect((await answer).headers()['content-type']).toMatch(/^multipart\/mixed; boundary=/);
  await expect(page).toHaveURL(`${base}/candidates/refId/${encodeURIComponent(HOSTILE_REF_ID)}`);
  const heading = page.getByRole('heading', { level: 1 });
  // Shown as text, the right-to-left override made visible, the 100 kB name cut with the rest one click away.
  await expect(heading).toContainText('<script>window.__pwned=1</script> ⟦U+202E⟧evil right-to-left override⟦U+202C⟧WWW');
  await expect(heading.getByRole('button', { name: /Show all \(99,9\d\d more characters\)/ })).toBeVisible();

  // Open everything that can be opened.
  for (const summary of await page.locator('details summary').all()) await summary.click();
  // One certificate's raw JSON (the other is not JSON), and the candidate's Activity (issue 34).
  await expect(page.locator('details[open]')).toHaveCount(2);
  await expect(page.locator('details[open][data-raw-json]')).toHaveCount(1);
  // The readable certificate's provider results are rows of text; the unreadable one stays raw text.
  await expect(page.getByTestId('review-rows')).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Decision summary' }).locator('[data-cert-chip]')).toHaveCount(2);

  // The certificate's provider results, keys and values alike, are rows of text; so are the decision fields.
  const visible = (text: string) => text.replace(/\u202E/g, '⟦U+202E⟧').replace(/\u202C/g, '⟦U+202C⟧');
  const rows = page.getByTestId('review-rows');
  const summary = page.getByRole('region', { name: 'Decision summary' });
  // Every long value shown in full, so that what could overflow does.
  // Each one clicked becomes "Show less": the first left is always a new one.
  const more = rows.or(summary).getByRole('button', { name: /^Show all/ });
  for (let left = await more.count(); left > 0; left--) await more.first().click();
  await expect(more).toHaveCount(0);
  const pairs = await rows.evaluate((dl) =>
    [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );
  const valuesOf = (label: string | RegExp) =>
    pairs.filter(([name]) => (typeof label === 'string' ? name === label : label.test(name ?? ''))).map(([, value]) => value);
  expect(valuesOf('Check type')).toEqual([PAYLOADS[0], PAYLOADS[4]]);
  expect(valuesOf('Result')).toEqual([expect.stringContaining(PAYLOADS[2]!)]);
  expect(valuesOf('Match status')).toEqual([expect.stringContaining(PAYLOADS[3]!)]);
  expect(valuesOf(/^Sub results › <img src=x onerror=/)).toEqual([expect.stringContaining(PAYLOADS[0]!)]);
  expect(valuesOf('Sub results › Visual authenticity')).toEqual([expect.stringContaining(visible(PAYLOADS[5]!))]);
  expect(valuesOf('Sub results › Proto › Polluted')).toEqual([expect.stringContaining(PAYLOADS[0]!)]);
  expect(valuesOf('Sub results › Constructor › Prototype › Polluted')).toEqual([expect.stringContaining(PAYLOADS[1]!)]);
  expect(valuesOf(/^Sub results › W{80}/)).toEqual([expect.stringMatching(/W{100000}/)]);
  // The check's name labels its result (and is no row of its own).
  expect(valuesOf(`Breakdown › ${PAYLOADS[6]}`)).toEqual([expect.stringContaining(PAYLOADS[4]!)]);
  expect(valuesOf('Sources')).toEqual([expect.stringContaining(`${PAYLOADS[0]}, ${PAYLOADS[3]}, ${visible(PAYLOADS[5]!)}, WWW`)]);
  expect(valuesOf('Issued')).toEqual([visible(HOSTILE_ISSUE_DATE)]);
  expect(valuesOf('Completed date')).toEqual([`2026-01-01T00:00:00.000Z${PAYLOADS[1]}`]);
  expect(valuesOf('Proto')).toEqual([PAYLOADS[0]]);
  expect(valuesOf('Constructor')).toEqual([PAYLOADS[1]]);
  await expect(summary.locator('[data-field="riskLevel"]')).toHaveText(`Risk level${PAYLOADS[1]}`);
  await expect(summary.locator('[data-field="screeningCase"]')).toContainText(`Screening case${PAYLOADS[0]}WWW`);
  await expect(summary.locator('[data-field="screeningCase"] dd')).toHaveText(/W{100000}/);
  await expect(summary.locator('[data-cert-chip]').first()).toContainText(PAYLOADS[2]!);
  // Neither a key nor a value reached a prototype, or an attribute that runs script.
  expect(await page.evaluate(() => (({}) as Record<string, unknown>).polluted ?? 'none')).toBe('none');
  expect(await page.evaluate(() => (Object.prototype as Record<string, unknown>).polluted)).toBeUndefined();
  expect(await page.locator('[onerror], [onload], [onclick], [href^="javascript" i], [src^="javascript" i]').count()).toBe(0);

  // The payloads are text on the page, never elements.
  await expect(page.getByText('<img src=x onerror="window.__pwned=1">').first()).toBeVisible();
  expect(await page.locator('main script, main iframe, main object, main embed, main svg[onload]').count()).toBe(0);
  expect(await page.locator('main img').count()).toBe(0);
  // Every "picture" is described, none rendered.
  for (const kind of ['type SVG', 'type HTML', 'type PDF', 'type TIFF', 'an unknown type']) {
    await expect(page.getByText(new RegExp(`^A file of ${kind} \\(not shown\\)`)).first()).toBeVisible();
  }
  await expect(page.getByText('Not shown: the picture data is not valid base64.')).toBeVisible();
  // No link leads to script.
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.filter((href) => /^\s*javascript:/i.test(href))).toEqual([]);

  // Nothing overflows its card.
  const overflowing = await page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'main section, main header, main figure, main details, main dl, main table, main article, main dt, main dd, main [data-field], main [data-cert-chip]',
      ),
    ]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName}:${el.textContent?.slice(0, 40)}`),
  );
  expect(overflowing).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

  // Folded again, so that the screenshot is a page and not 30,000 pixels of W.
  const less = rows.or(summary).getByRole('button', { name: 'Show less' });
  for (let left = await less.count(); left > 0; left--) await less.first().click();
  await expect(less).toHaveCount(0);

  // Every part has been read by now (each "picture" is described above, which its part must be whole for):
  // none of them made an object URL.
  expect(await page.evaluate(() => (window as unknown as { __objectUrls: string[] }).__objectUrls)).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'hostile');
});

test('the Content-Security-Policy would block an inline script anyway', async ({ page }) => {
  await page.goto(`${base}/`);
  const blocked = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; violated: string }>((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) =>
          resolve({ ran: Boolean((window as unknown as { __inline?: unknown }).__inline), violated: event.violatedDirective }),
        );
        const script = document.createElement('script');
        script.textContent = 'window.__inline = 1';
        document.body.append(script);
        setTimeout(() => resolve({ ran: Boolean((window as unknown as { __inline?: unknown }).__inline), violated: '' }), 1000);
      }),
  );
  expect(blocked).toEqual({ ran: false, violated: 'script-src-elem' });
});
