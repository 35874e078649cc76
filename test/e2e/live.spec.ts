import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, needsServers, test } from './fixtures.ts';
import { E2E_PORTS } from './servers.ts';

needsServers('live', 'statusOnly');

/**
 * Live updates as a newcomer sees them after `npm start`: the embedded sandbox signs and sends a webhook
 * for each decision simulated on a candidate page, the app's receiver accepts it, and every open page of
 * that candidate and its queue updates by itself: no reload, no focus change.
 */
const liveUrl = `http://127.0.0.1:${E2E_PORTS.live}`;
/** A waiting sample candidate, so that Approve is a change. */
const WAITING = '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33';

const indicator = (page: Page) => page.getByTestId('live-indicator');
/** The header's status chip. */
const chipOf = (page: Page) => page.locator('main header [data-status]').first();

test('a decision simulated in the sandbox updates the open candidate page and the queue in another tab, by themselves', async ({
  context,
}) => {
  const candidate = await context.newPage();
  const queue = await context.newPage();
  // The sandbox keeps its statuses while the servers run: a run before this one on the same servers left
  // the candidate approved. Ready to review puts it back to waiting; once the page shows it (its delivery
  // processed), the queue opens on counts that change no more before the decision.
  await candidate.goto(`${liveUrl}/candidates/refId/${WAITING}`);
  await expect(indicator(candidate)).toHaveAccessibleName('Live');
  if ((await chipOf(candidate).getAttribute('data-status')) !== 'waiting') {
    await candidate
      .getByRole('group', { name: 'Sandbox tool: simulate a decision' })
      .getByRole('button', { name: 'Ready to review' })
      .click();
    await expect(chipOf(candidate)).toHaveAttribute('data-status', 'waiting');
  }
  await queue.goto(`${liveUrl}/applicants`);
  await expect(indicator(queue)).toHaveAccessibleName('Live');
  const approvedTab = queue.getByRole('tab', { name: /^Approved/ });
  // The counts come with the queue's pages: read once they are there.
  await expect(approvedTab).toHaveText(/^Approved\s*\d+$/);
  const approvedBefore = Number((await approvedTab.textContent())?.match(/\d+/)?.[0]);

  await candidate.goto(`${liveUrl}/candidates/refId/${WAITING}`);
  await expect(candidate.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(indicator(candidate)).toHaveAccessibleName('Live');
  await expect(chipOf(candidate)).toHaveAttribute('data-status', 'waiting');
  const lookups: string[] = [];
  candidate.on('request', (request) => {
    if (/\/api\/(candidates|status)\//.test(request.url())) lookups.push(new URL(request.url()).pathname);
  });

  // The queue's row says it changed for a few seconds only (live-queue.ts HIGHLIGHT_MS): watched for in
  // the page from before the click, not looked for once the candidate's page has been checked, which a
  // loaded machine may take longer than the highlight lasts.
  const highlighted = queue.evaluate(
    (id) =>
      new Promise<boolean>((done) => {
        const seen = () => [...document.querySelectorAll('tr[data-changed]')].some((row) => row.textContent?.includes(id));
        const observer = new MutationObserver(() => {
          if (seen()) done(true);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-changed'] });
        setTimeout(() => done(false), 25_000);
      }),
    WAITING,
  );
  const simulate = candidate.getByRole('group', { name: 'Sandbox tool: simulate a decision' });
  await simulate.getByRole('button', { name: 'Approve' }).click();
  await expect(simulate.getByRole('status')).toHaveText('The sandbox approved this candidate and sent its webhook.');

  // The page that asked: the chip and the line saying where the news came from (the sandbox's delivery carries approvedDate).
  // The server confirms a delivery with the service before any page is told, and asks again after 1 and
  // 4 s when the service could not be asked at once (delivery-processing.ts): the wait allows for that.
  await expect(candidate.getByText(/^Approved at .* — from the KYC service, received just now$/)).toBeVisible();
  await expect(chipOf(candidate)).toHaveAttribute('data-status', 'approved');
  await expect(candidate.getByRole('list', { name: 'Status changes, oldest first' })).toContainText('Approved');
  // A status-level re-check, never the pictures again.
  expect(lookups.length).toBeGreaterThan(0);
  for (const path of lookups) expect(path).toMatch(/^\/api\/status\/refId\//);

  // The queue in the other tab, which nobody touched: the count moved and the row says it changed.
  await expect(approvedTab).toHaveText(new RegExp(`^Approved\\s*${approvedBefore + 1}$`));
  expect(await highlighted).toBe(true);

  // The header's notifications list has the event, as a link to its candidate.
  await candidate.getByRole('button', { name: /^Notifications/ }).click();
  const list = candidate.getByRole('region', { name: 'Notifications' });
  await expect(list.getByRole('link', { name: /^Approved: / })).toHaveAttribute('href', /^\/candidates\/(refId|recordId)\//);
  expect(await seriousViolations(candidate)).toEqual([]);

  // Home, within the app: the candidate's sample card shows the decision, not the status the sandbox started with.
  await candidate.keyboard.press('Escape');
  await candidate.getByRole('link', { name: 'Candidate Lookup' }).click();
  const card = candidate.getByRole('region', { name: 'Sample candidates' }).getByRole('link', { name: new RegExp(WAITING) });
  await expect(card).toContainText('Approved');
});

test('the simulate buttons are offered in sandbox mode only', async ({ page }) => {
  await page.goto(`http://127.0.0.1:${E2E_PORTS.statusOnly}/candidates/refId/${WAITING}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Sandbox tool: simulate a decision' })).toHaveCount(0);
  // Without a webhook secret, the page says its updates are not live.
  await expect(indicator(page)).toHaveAccessibleName('Live updates off');
});
