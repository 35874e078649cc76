import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Applicant, QueueIndexState } from '../../src/kyc/contract/applicants.ts';
import { formatSoon } from '../../src/kyc/view/time.ts';
import { inTimeZone } from './in-time-zone.ts';
import { renderWithProviders, stubApi } from './render.tsx';

/**
 * A tab with rows whose last read met the service's wait: when the list is read again, never the seconds the
 * crawler was told then (which stayed on the page however long ago they were said). Said in the zone the reader chose, as every other
 * time on the page: it was said in the browser's zone whatever the header's UTC switch said. And a wait's end
 * already passed (the view not fetched again since) is not said as still to come.
 */

inTimeZone('Asia/Singapore');

const approved: Applicant[] = [{ status: 'approved', recordId: 'rec-1', refId: 'ref-1', isArchived: false }];
const MESSAGE = 'The KYC service is limiting requests (HTTP 429).';

function readTab(extra: Partial<QueueIndexState>) {
  const index: QueueIndexState = {
    at: new Date().toISOString(),
    asOf: new Date(Date.now() - 60_000).toISOString(),
    dated: 1,
    of: 1,
    ...extra,
  };
  return stubApi({ applicants: approved, queueExtras: { approved: { index } } });
}
const freshness = () => screen.getByTestId('queue-freshness').textContent ?? '';

describe("the service's wait beside a tab's rows", () => {
  it('says when the list is read again (a clock time), not the seconds the crawler was told', async () => {
    const until = new Date(Date.now() + 25_000);
    readTab({ error: { message: MESSAGE, at: new Date(Date.now() - 5_000).toISOString(), until: until.toISOString() } });
    renderWithProviders('/applicants?status=approved');
    // Before: "… failed: The KYC service is limiting requests (HTTP 429). Try again in 30 s.", however long ago.
    await waitFor(() =>
      expect(freshness()).toContain(
        `The last read of the list failed: ${MESSAGE} The list will be read again after ${formatSoon(until, { zone: 'local', seconds: true })}.`,
      ),
    );
  });

  it('says it once when the list limit says it too', async () => {
    const until = new Date(Date.now() + 25_000);
    readTab({
      error: { message: MESSAGE, at: new Date().toISOString(), until: until.toISOString() },
      limited: { until: until.toISOString() },
    });
    renderWithProviders('/applicants?status=approved');
    await waitFor(() => expect(freshness()).toContain('The KYC service is limiting requests;'));
    expect(freshness()).not.toContain('The list will be read again after');
  });

  it("says when the list is read again in the reader's zone, and in UTC once the header's switch says so", async () => {
    const until = new Date(Date.now() + 25_000);
    readTab({ error: { message: MESSAGE, at: new Date().toISOString(), until: until.toISOString() } });
    renderWithProviders('/applicants?status=approved');
    const local = `The list will be read again after ${formatSoon(until, { zone: 'local', seconds: true })}.`;
    await waitFor(() => expect(freshness()).toContain(local));
    expect(freshness()).not.toMatch(/UTC\.$/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'UTC times' }));
    await waitFor(() =>
      expect(freshness()).toContain(`The list will be read again after ${formatSoon(until, { zone: 'utc', seconds: true })}.`),
    );
    expect(freshness()).toMatch(/ UTC\.$/);
  });

  it('says the list limit in the same zone', async () => {
    const until = new Date(Date.now() + 25_000);
    readTab({ limited: { until: until.toISOString() } });
    renderWithProviders('/applicants?status=approved');
    await waitFor(() =>
      expect(freshness()).toContain(`the list will be read again at ${formatSoon(until, { zone: 'local', seconds: true })}.`),
    );
  });

  it("asks for the view again when the service's wait ends, and shows what was read after it", async () => {
    const until = new Date(Date.now() + 300);
    const extras = { approved: { index: { at: new Date().toISOString(), dated: 1, of: 1, limited: { until: until.toISOString() } } } };
    const { requests } = stubApi({ applicants: approved, queueExtras: extras });
    renderWithProviders('/applicants?status=approved');
    await waitFor(() => expect(freshness()).toContain('The KYC service is limiting requests;'));
    const asked = requests.filter((url) => url.startsWith('/api/applicants')).length;
    // The crawler has read the list since the wait ended: the next view says so.
    extras.approved.index = { at: new Date().toISOString(), dated: 1, of: 1 } as typeof extras.approved.index;
    // Before: the page kept the line (a time already passed) until a Refresh.
    await waitFor(() => expect(freshness()).not.toContain('limiting requests'), { timeout: 6_000 });
    expect(requests.filter((url) => url.startsWith('/api/applicants')).length).toBe(asked + 1);
    expect(freshness()).toMatch(/^List read from the KYC service/);
  });

  it('does not say a wait whose end has passed as still to come', async () => {
    readTab({
      error: { message: MESSAGE, at: new Date(Date.now() - 40_000).toISOString(), until: new Date(Date.now() - 10_000).toISOString() },
    });
    renderWithProviders('/applicants?status=approved');
    await waitFor(() => expect(freshness()).toContain(MESSAGE));
    expect(freshness()).not.toContain('will be read again');
  });
});
