import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Applicant, QueueIndexState } from '../../src/kyc/contract/applicants.ts';
import { renderWithProviders, stubApi } from './render.tsx';
import { effectsRun, fakeClock, seconds } from './wait-clock.ts';

/**
 * A tab the server's index is still reading from the service, none of it read yet: the page said "None
 * read yet: … Refresh in a moment." and never asked again by itself, the reviewer had to press Refresh.
 * It now asks for the view every few seconds while the list is being read, and stops once it is read
 * whole (or while a service wait runs: that wait's end asks again).
 */

const IN_REVIEW: Applicant[] = [
  { status: 'inreview', isArchived: false, recordId: 'rec-1', refId: 'ref-1' },
  { status: 'inreview', isArchived: false, recordId: 'rec-2', refId: 'ref-2' },
];

const crawling = (extra: Partial<QueueIndexState> = {}): QueueIndexState => ({
  at: new Date().toISOString(),
  crawling: true,
  read: 0,
  listed: 2,
  dated: 0,
  of: 0,
  ...extra,
});
const readWhole = (): QueueIndexState => ({ at: new Date().toISOString(), asOf: new Date().toISOString(), dated: 0, of: 2 });

/** The proxy over a list the test fills in (as the crawler reads it), the open tab's index as `extras` says. */
function stubQueue(index: QueueIndexState) {
  const applicants: Applicant[] = [];
  const extras = { inreview: { index } };
  const { requests } = stubApi({ applicants, queueExtras: extras });
  const views = () => requests.filter((url) => url.startsWith('/api/applicants')).length;
  return { applicants, extras, views };
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('a tab still being read fills in by itself', () => {
  it('asks for the view again while the list is being read, and shows the rows read without a Refresh', async () => {
    fakeClock();
    const queue = stubQueue(crawling());
    renderWithProviders('/applicants?status=inreview');
    const reading = await screen.findByTestId('queue-still-reading');
    expect(reading).toHaveTextContent('None read yet: the KYC service’s list is still being read; this list fills in by itself.');
    expect(reading).not.toHaveTextContent(/refresh/i);
    const asked = queue.views();
    // The crawler reads the tab meanwhile; nobody touches the page.
    queue.applicants.push(...IN_REVIEW);
    queue.extras.inreview.index = readWhole();
    await effectsRun();
    seconds(3);
    // Before: "None read yet: … Refresh in a moment." stayed, and no view was asked for.
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toHaveTextContent('ref-1');
    expect(rows()[1]).toHaveTextContent('ref-2');
    expect(screen.queryByTestId('queue-still-reading')).not.toBeInTheDocument();
    expect(queue.views()).toBe(asked + 1);
  });

  it('asks no more once the list has been read whole', async () => {
    fakeClock();
    const queue = stubQueue(crawling());
    renderWithProviders('/applicants?status=inreview');
    await screen.findByTestId('queue-still-reading');
    queue.applicants.push(IN_REVIEW[0]!);
    queue.extras.inreview.index = crawling({ read: 1, of: 1 });
    await effectsRun();
    seconds(3);
    await screen.findByRole('table');
    const whileReading = queue.views();
    queue.applicants.push(IN_REVIEW[1]!);
    queue.extras.inreview.index = readWhole();
    seconds(3);
    await screen.findByText('rec-2');
    const done = queue.views();
    expect(done).toBe(whileReading + 1);
    // The crawl has finished: a minute of the page open asks nothing more.
    seconds(60);
    await effectsRun();
    expect(queue.views()).toBe(done);
  });

  it('never asks for a tab that is not being read at all', async () => {
    fakeClock();
    const queue = stubQueue(readWhole());
    queue.applicants.push(...IN_REVIEW);
    renderWithProviders('/applicants?status=inreview');
    await screen.findByRole('table');
    const asked = queue.views();
    seconds(60);
    await effectsRun();
    expect(queue.views()).toBe(asked);
  });

  it("does not ask while the service's wait runs (its end asks again)", async () => {
    fakeClock();
    const until = new Date(Date.now() + 60_000).toISOString();
    const queue = stubQueue(crawling({ limited: { until } }));
    renderWithProviders('/applicants?status=inreview');
    await screen.findByTestId('queue-still-reading');
    const asked = queue.views();
    seconds(30);
    await effectsRun();
    expect(queue.views()).toBe(asked);
  });

  it('does not ask while the page is hidden, nor once it is closed', async () => {
    fakeClock();
    const queue = stubQueue(crawling());
    const { unmount } = renderWithProviders('/applicants?status=inreview');
    await screen.findByTestId('queue-still-reading');
    const asked = queue.views();
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      seconds(30);
      await effectsRun();
      expect(queue.views()).toBe(asked);
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    unmount();
    seconds(30);
    await effectsRun();
    expect(queue.views()).toBe(asked);
  });
});
