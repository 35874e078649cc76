import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import { ROW_OPEN_DELAY_MS } from '../../src/app/applicants/row-open.ts';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import type { ApiMeta } from '../../src/kyc/contract/api.ts';
import { applicantsAnswer, json, type QueueExtras, renderWithProviders, testMeta } from './render.tsx';

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

type Extra = QueueExtras[string];

/**
 * The proxy, for these tests: each status's candidates as given, the page's extras (order, SLA) per
 * status, and the statuses the service refuses (render.tsx's applicantsAnswer: the view's `refused`).
 */
function stubList(
  applicants: Applicant[],
  options: {
    extra?: Record<string, Extra>;
    refused?: string[];
    unavailable?: string[];
    role?: 'support' | 'compliance' | 'lead';
    meta?: ApiMeta;
  } = {},
) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://test');
      if (url.pathname === '/api/session') return json({ mode: 'local', user: 'local', role: options.role ?? 'compliance' });
      if (url.pathname === '/api/meta') return json(options.meta ?? { upstream: 'remote' });
      return applicantsAnswer(url, applicants, options);
    }),
  );
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const cells = (row: HTMLElement) => within(row).getAllByRole('cell');
const tab = (name: RegExp) => screen.getByRole('tab', { name });

const QUEUE: Applicant[] = [
  { status: 'waiting', isArchived: false, recordId: 'rec-old', refId: 'ref-old', since: ago(3 * 24 + 4.5) },
  { status: 'waiting', isArchived: true, recordId: 'rec-new', since: ago(5.25) },
  { status: 'waiting', isArchived: false, recordId: 'rec-unknown', refId: 'ref-unknown' },
  { status: 'approved', isArchived: false, recordId: 'rec-approved', refId: 'ref-approved', since: ago(24 * 10) },
  { status: 'inreview', isArchived: false, recordId: 'rec-review', refId: 'ref-review', since: ago(50) },
  { status: 'review_requested', isArchived: false, recordId: 'rec-again', refId: 'ref-again', since: ago(1) },
];
const WAITING_EXTRA: Extra = { order: { by: 'age', known: 2, of: 3 }, slaHours: 48, overSla: 1 };

describe('the queue columns', () => {
  it('show the status chip, since when with the age, refId, recordId and archived, the heading naming the tab’s date', async () => {
    stubList(QUEUE, { extra: { waiting: WAITING_EXTRA } });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const headings = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    // No dashboard address for this service: no column of empty cells for it.
    expect(headings).toEqual(['Status', 'Waiting since', 'refId', 'recordId', 'Archived']);
    const [status, since, refId, recordId, archived] = cells(rows()[0]!);
    expect(status).toHaveTextContent('Waiting');
    expect(status!.querySelector('[data-status="waiting"]')).not.toBeNull();
    expect(since!.querySelector('time')).toHaveAttribute('datetime', QUEUE[0]!.since);
    expect(since).toHaveTextContent('3 d 4 h');
    expect(refId).toHaveTextContent('ref-old');
    expect(recordId).toHaveTextContent('rec-old');
    expect(archived).toHaveTextContent('No');
    const second = cells(rows()[1]!);
    expect(second[1]).toHaveTextContent('5 h 15 min');
    // A row without a refId says it was not given, as a row without a recordId does: not that none was assigned.
    expect(second[2]).toHaveTextContent(/^not given$/);
    expect(second[4]).toHaveTextContent('Yes');
    // A date the index does not know yet says so.
    expect(cells(rows()[2]!)[1]).toHaveTextContent('not known yet');
  });

  it("has the KYC service's dashboard column, a link in each row, where the service has a dashboard", async () => {
    const meta = testMeta();
    stubList(QUEUE, {
      meta: { ...meta, environment: { ...meta.environment, dashboardUrl: 'https://kyc.example.org/#/acme/kyc_detail/{recordId}' } },
    });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getAllByRole('columnheader').at(-1)).toHaveTextContent('KYC service');
    expect(within(rows()[0]!).getByRole('link', { name: /Dashboard/ })).toBeInTheDocument();
  });

  it.each([
    ['inreview', 'In review since'],
    ['approved', 'Approved since'],
    ['review_requested', 'Review requested since'],
  ])('on the %s tab the date column is "%s"', async (status, heading) => {
    stubList(QUEUE);
    renderWithProviders(`/applicants?status=${status}`);
    await waitFor(() => expect(screen.getAllByRole('columnheader')[1]).toHaveTextContent(heading));
  });

  it('on All each row shows the date of its own status', async () => {
    stubList(QUEUE);
    renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(screen.getAllByRole('columnheader')[1]).toHaveTextContent(/^Since$/);
    expect(cells(rows()[3]!)[1]).toHaveTextContent('10 d');
    expect(cells(rows()[4]!)[1]).toHaveTextContent('2 d 2 h');
  });

  it('says a status the service never dates has no date, and keeps "not known yet" for a date still to come', async () => {
    const incomplete: Applicant[] = [
      { status: 'incomplete', isArchived: false, recordId: 'rec-checks', refId: 'ref-checks' },
      { status: 'on_hold', isArchived: false, recordId: 'rec-held', refId: 'ref-held' },
      { status: 'waiting', isArchived: false, recordId: 'rec-unknown', refId: 'ref-unknown' },
    ];
    stubList(incomplete);
    renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const since = rows().map((row) => cells(row)[1]!.textContent);
    expect(since).toEqual(['not dated by the service', 'not known yet', 'not known yet']);
  });

  it('each row is one link to its candidate, by recordId', async () => {
    stubList(QUEUE);
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    for (const row of rows()) expect(within(row).getAllByRole('link')).toHaveLength(1);
    expect(within(rows()[1]!).getByRole('link')).toHaveAttribute('href', '/candidates/recordId/rec-new');
  });
});

describe('the SLA flag', () => {
  it('marks rows older than the SLA with an icon and the words "Over SLA", not colour alone', async () => {
    stubList(QUEUE, { extra: { waiting: WAITING_EXTRA, all: { slaHours: 48 } } });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const flag = within(cells(rows()[0]!)[1]!).getByText('Over SLA');
    expect(flag.closest('[data-over-sla]')).toHaveTextContent('⚠ Over SLA');
    expect(cells(rows()[1]!)[1]).not.toHaveTextContent('Over SLA');
    expect(cells(rows()[2]!)[1]).not.toHaveTextContent('Over SLA');
  });

  it('flags only the statuses a reviewer works through: an approved candidate is never over', async () => {
    stubList(QUEUE, { extra: { all: { slaHours: 48 } } });
    renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(6));
    expect(cells(rows()[3]!)[1]).not.toHaveTextContent('Over SLA');
    expect(cells(rows()[4]!)[1]).toHaveTextContent('Over SLA');
  });

  it('without an SLA no row is flagged', async () => {
    stubList(QUEUE);
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByText('Over SLA')).not.toBeInTheDocument();
  });
});

describe('a long id (over 64 characters)', () => {
  it('keeps its “Show all” outside the row’s link, and the button shows the whole id without opening the row', async () => {
    const longRecord = `rec-${'r'.repeat(96)}`;
    const longRef = `ref-${'f'.repeat(96)}`;
    stubList([{ status: 'waiting', isArchived: false, recordId: longRecord, refId: longRef, since: ago(5) }]);
    const { router } = renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const [, , refId, recordId] = cells(rows()[0]!);
    const link = within(recordId!).getByRole('link');
    expect(link).toHaveTextContent(/^rec-r+…$/);
    expect(within(link).queryByRole('button')).not.toBeInTheDocument();
    for (const cell of [recordId!, refId!]) {
      const toggle = within(cell).getByRole('button', { name: /^Show all/ });
      expect(toggle.closest('a')).toBeNull();
    }
    const user = userEvent.setup();
    await user.click(within(recordId!).getByRole('button', { name: /^Show all/ }));
    expect(link).toHaveTextContent(longRecord, { normalizeWhitespace: false });
    expect(within(recordId!).getByRole('button', { name: 'Show less' })).toBeInTheDocument();
    // Pressing it did not open the candidate, then or after a row's click would have (row-open.ts).
    await act(() => new Promise((resolve) => setTimeout(resolve, ROW_OPEN_DELAY_MS + 50)));
    expect(router.state.location.pathname).toBe('/applicants');
  });
});

describe('the queue tabs', () => {
  it('offer every status with its count, and how many are over the SLA', async () => {
    stubList(QUEUE, { extra: { waiting: WAITING_EXTRA, inreview: { slaHours: 48, overSla: 1 } } });
    renderWithProviders('/applicants');
    await waitFor(() => expect(tab(/^Waiting/)).toHaveTextContent('Waiting3'));
    const names = screen.getAllByRole('tab').map((element) => element.dataset.tab);
    expect(names).toEqual(['all', 'waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'blocked', 'incomplete']);
    await waitFor(() => expect(tab(/^Waiting/)).toHaveTextContent('1 over SLA'));
    expect(tab(/^In review/)).toHaveTextContent('1 over SLA');
    expect(tab(/^Approved/)).not.toHaveTextContent('over SLA');
    // An exact count is not a floor.
    expect(tab(/^Waiting/)).not.toHaveTextContent('≥');
    expect(tab(/^Review requested/)).toHaveTextContent('Review requested1');
    expect(tab(/^Rejected/)).toHaveTextContent('Rejected0');
  });

  it.each([
    ['while the index fills', { by: 'age', known: 2, of: 3 } as const],
    ['above queueIndexMax', { by: 'service', over: 1000 } as const],
  ])('%s, say the over-SLA count is a floor: “≥ 12 over SLA”, read as “at least 12”', async (_, order) => {
    stubList(QUEUE, { extra: { waiting: { order, slaHours: 48, overSla: 12, overSlaPartial: true } } });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(tab(/^Waiting/)).toHaveAccessibleName(/at least 12 over SLA/));
    const badge = tab(/^Waiting/).querySelector('[data-over-sla]')!;
    expect(badge).toHaveAttribute('data-over-sla-partial', 'true');
    // What the eye reads: the sign, not the words for screen readers.
    const seen = [...badge.childNodes].filter((node) => !(node instanceof HTMLElement && node.classList.contains('sr-only')));
    expect(seen.map((node) => node.textContent).join('')).toBe('⚠ ≥ 12 over SLA');
  });

  it("say the over-SLA count of another tab than the one open is a floor too, from the view's counts", async () => {
    stubList(QUEUE, { extra: { waiting: { slaHours: 48, overSla: 12, overSlaPartial: true } } });
    renderWithProviders('/applicants');
    await waitFor(() => expect(tab(/^Waiting/)).toHaveAccessibleName(/at least 12 over SLA/));
    expect(tab(/^Waiting/).querySelector('[data-over-sla]')).toHaveAttribute('data-over-sla-partial', 'true');
  });

  it('leave out the filters the service refuses, and say which', async () => {
    stubList(QUEUE, { refused: ['rejected', 'blocked'] });
    renderWithProviders('/applicants');
    expect(await screen.findByTestId('refused-filters')).toHaveTextContent(
      'This KYC service does not offer the Rejected and Blocked filters: those candidates are listed under All.',
    );
    expect(screen.queryByRole('tab', { name: /^Rejected/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /^Blocked/ })).not.toBeInTheDocument();
    expect(tab(/^Incomplete/)).toBeInTheDocument();
  });

  it('say a count is unavailable when that tab’s count failed, the page and the other counts shown all the same', async () => {
    stubList(QUEUE, { unavailable: ['approved'] });
    renderWithProviders('/applicants');
    await waitFor(() => expect(rows()).toHaveLength(QUEUE.length));
    expect(tab(/^Approved/)).toHaveTextContent('(count unavailable)');
    expect(tab(/^Waiting/)).toHaveTextContent('Waiting3');
    expect(screen.queryByTestId('refused-filters')).not.toBeInTheDocument();
  });

  it('opened at a refused filter (an old link), keep its tab to say why it is empty', async () => {
    stubList(QUEUE, { refused: ['rejected'] });
    renderWithProviders('/applicants?status=rejected');
    expect(await screen.findByTestId('filter-refused')).toHaveTextContent(
      'This KYC service does not offer the "rejected" filter: its candidates are listed under All.',
    );
    expect(tab(/^Rejected/)).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await waitFor(() => expect(tab(/^All/)).toHaveTextContent('All6'));
  });
});

describe('ids in the rows', () => {
  it('keeps a recordId or a UUID on one line, whatever the columns beside, and lets only a longer id wrap', async () => {
    const long = `ref-${'x'.repeat(60)}`;
    stubList([
      {
        status: 'waiting',
        recordId: '65f1c2a9e4b0d3a1f0c9b899',
        refId: '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33',
        since: ago(5),
        certificate: 'potential_match',
      },
      { status: 'waiting', recordId: '65f1c2a9e4b0d3a1f0c9b803', refId: long, since: ago(4) },
    ]);
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const idCode = (row: number, column: string) => rows()[row]!.querySelector(`td[data-label="${column}"] code`)!;
    // A recordId broke before its last character beside a certificate chip at 1280 px ("…b89" / "9"), and
    // "cust_0004 / 82" at 200 % zoom: in the table never now (where it would not fit, its rows stack, and
    // there an id wraps only when longer than its line: test/e2e/any-screen.spec.ts measures it).
    expect(idCode(0, 'recordId')).toHaveClass('whitespace-nowrap');
    expect(idCode(0, 'refId')).toHaveClass('whitespace-nowrap');
    expect(idCode(1, 'refId')).not.toHaveClass('whitespace-nowrap');
    expect(idCode(1, 'refId')).toHaveClass('break-all');
  });
});

describe('triage on the rows (issue 32)', () => {
  const TRIAGED: Applicant[] = [
    { status: 'waiting', recordId: 'rec-screened', since: ago(50), certificate: 'potential_match', pictures: true },
    { status: 'waiting', recordId: 'rec-bare', since: ago(3), pictures: false },
    { status: 'waiting', recordId: 'rec-unseen', since: ago(2) },
  ];

  it('shows compliance users the certificates’ worst outcome as a chip, and a record without pictures, where a lookup showed them', async () => {
    stubList(TRIAGED);
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const chip = rows()[0]!.querySelector('[data-triage] [data-tone]');
    expect(chip).toHaveAttribute('data-tone', 'caution');
    expect(chip).toHaveTextContent('potential_match');
    expect(rows()[0]!.querySelector('[data-triage]')).toHaveTextContent(/^Certificates\W*potential_match/);
    expect(rows()[1]!.querySelector('[data-triage]')).toHaveTextContent('no pictures');
    expect(rows()[2]!.querySelector('[data-triage]')).toBeNull();
  });

  it('shows them to a lead as to a compliance user (a lead reads full records, and the batch gives leads the triage too)', async () => {
    stubList(TRIAGED, { role: 'lead' });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]!.querySelector('[data-triage]')).toHaveTextContent(/^Certificates\W*potential_match/);
    expect(rows()[1]!.querySelector('[data-triage]')).toHaveTextContent('no pictures');
  });

  it('never shows them to a support user, whatever the answer holds', async () => {
    stubList(TRIAGED, { role: 'support' });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(document.querySelector('[data-triage]')).toBeNull();
  });
});

describe('the progress line', () => {
  it('says how many dates are known while the index fills', async () => {
    stubList(QUEUE, { extra: { waiting: { order: { by: 'age', known: 340, of: 1000 } } } });
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent(/^Ordered by age: 340 of 1,000 known, oldest first/);
  });

  it('says the rows whose record has no date, or one in the future, apart from those still looked up, and none pending when none is', async () => {
    stubList(QUEUE, { extra: { waiting: { order: { by: 'age', known: 5, of: 9, noDate: 2, future: 1 } } } });
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent(
      "Ordered by age: 5 of 9 known, oldest first; 1 is dated in the future (doubtful), placed by that date; 2 have no date in the service's record (none, or a placeholder), in the order the KYC service listed them; the other 1 follows in the order the KYC service listed them while its date is looked up.",
    );
  });

  it('says no date is waiting to be looked up when the rows without one have none to come', async () => {
    stubList(QUEUE, { extra: { waiting: { order: { by: 'age', known: 7, of: 9, noDate: 2 } } } });
    renderWithProviders('/applicants?status=waiting');
    const line = await screen.findByTestId('queue-order');
    expect(line).toHaveTextContent(
      "Ordered by age: 7 of 9 known, oldest first; 2 have no date in the service's record (none, or a placeholder), in the order the KYC service listed them; no date is waiting to be looked up.",
    );
    expect(line).not.toHaveTextContent('while their dates are looked up');
  });

  it('says the tab is ordered oldest first once every date is known', async () => {
    stubList(QUEUE, { extra: { waiting: { order: { by: 'age', known: 3, of: 3 } } } });
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent('Ordered by age: oldest first.');
  });

  it('says the service’s order is shown above the bound', async () => {
    stubList(QUEUE, { extra: { waiting: { order: { by: 'service', over: 1000 } } } });
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent(
      "In the KYC service's order: this tab has more than 1,000 candidates, too many to order by age.",
    );
  });

  it('says only the service’s order when the order by age is turned off (queueIndexMax 0)', async () => {
    stubList(QUEUE, { extra: { waiting: { order: { by: 'service', over: 0 } } } });
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent(/^In the KYC service's order\.$/);
  });

  it('on the tab of a status the service never dates (incomplete), promises no dates: no "known", no "dated"', async () => {
    const at = new Date().toISOString();
    stubList([{ status: 'incomplete', isArchived: false, recordId: 'rec-checks', refId: 'ref-checks' }], {
      extra: { incomplete: { order: { by: 'age', known: 0, of: 0 }, index: { at, asOf: at, dated: 0, of: 0 } } },
    });
    renderWithProviders('/applicants?status=incomplete');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent(
      "In the KYC service's order: the service gives no date for Incomplete, so there is no age to order by.",
    );
    // Said once, in the order note: the freshness line promises no count of dates.
    expect(screen.getByTestId('queue-freshness')).toHaveTextContent(
      /^List read from the KYC service under 1 min ago, kept current since by live updates\.$/,
    );
  });

  it('on All, says how many Incomplete rows stand beside the dated ones, and that they come last: "14 of 14 dated" beside 15 rows read as a miscount', async () => {
    const at = new Date().toISOString();
    stubList(QUEUE, {
      extra: { all: { order: { by: 'age', known: 5, of: 5, byStatus: true }, index: { at, asOf: at, dated: 5, of: 5, undated: 1 } } },
    });
    renderWithProviders('/applicants');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent(
      "By status, in the tabs' order, each by age: the waits oldest first, the decisions newest first. Incomplete (1 row), which the service does not date, comes last, in its order.",
    );
    expect(screen.getByTestId('queue-freshness')).toHaveTextContent(/; 5 of 5 dated; Incomplete \(1 row\) not dated by the service\.$/);
  });

  it('orders the decisions’ tabs newest first, and All status by status, and says so', async () => {
    stubList(QUEUE, {
      extra: {
        approved: { order: { by: 'age', known: 1, of: 1, newestFirst: true } },
        all: { order: { by: 'age', known: 5, of: 6, byStatus: true } },
      },
    });
    renderWithProviders('/applicants?status=approved');
    expect(await screen.findByTestId('queue-order')).toHaveTextContent('Ordered by date: newest first.');
    await userEvent.click(tab(/^All/));
    await waitFor(() =>
      expect(screen.getByTestId('queue-order')).toHaveTextContent(/^By status, in the tabs' order, each by age: 5 of 6 known/),
    );
  });

  it('says how current the index is: as of how long ago, how many rows are dated (issue 32)', async () => {
    const at = new Date();
    const asOf = new Date(at.getTime() - 5 * 60_000);
    stubList(QUEUE, {
      extra: { waiting: { ...WAITING_EXTRA, index: { at: at.toISOString(), asOf: asOf.toISOString(), dated: 1204, of: 1210 } } },
    });
    renderWithProviders('/applicants?status=waiting');
    expect(await screen.findByTestId('queue-freshness')).toHaveTextContent(
      'List read from the KYC service 5 min ago, kept current since by live updates; 1,204 of 1,210 dated.',
    );
  });

  it('says nothing of dates for an empty tab, where it read "0 of 0 dated" (UI review)', async () => {
    const at = new Date();
    stubList(QUEUE, {
      extra: { waiting: { ...WAITING_EXTRA, index: { at: at.toISOString(), asOf: at.toISOString(), dated: 0, of: 0 } } },
    });
    renderWithProviders('/applicants?status=waiting');
    const freshness = await screen.findByTestId('queue-freshness');
    expect(freshness).toHaveTextContent(/^List read from the KYC service/);
    expect(freshness).not.toHaveTextContent(/dated/);
  });

  it("says what keeps the list current where live updates are off: the next read (a minute, a decisions' tab 15), and lookups made here", async () => {
    const at = new Date();
    const meta = testMeta();
    const index = { at: at.toISOString(), asOf: at.toISOString(), dated: 3, of: 3 };
    for (const [tab, every] of [
      ['waiting', 'minute'],
      ['approved', '15 minutes'],
    ] as const) {
      stubList(QUEUE, {
        extra: { [tab]: { ...WAITING_EXTRA, index } },
        meta: { ...meta, environment: { ...meta.environment, live: false } },
      });
      const { unmount } = renderWithProviders(`/applicants?status=${tab}`);
      expect(await screen.findByTestId('queue-freshness')).toHaveTextContent(
        `List read from the KYC service under 1 min ago, read again every ${every} (live updates are off: a change at the service shows at the next read, or when its candidate is looked up here); 3 of 3 dated.`,
      );
      unmount();
    }
  });

  it('while the list is still being read for the first time, says so, shows what is known, and never says the tab is empty', async () => {
    const index = { at: new Date().toISOString(), crawling: true as const, read: 1200, listed: 10000, dated: 0, of: 0 };
    stubList(QUEUE, { extra: { blocked: { order: { by: 'age', known: 0, of: 0 }, index } } });
    renderWithProviders('/applicants?status=blocked');
    expect(await screen.findByTestId('queue-freshness')).toHaveTextContent(
      'Still reading this list from the KYC service (1,200 of 10,000 read): what is known so far is shown; the order is not final yet.',
    );
    expect(screen.getByTestId('queue-still-reading')).toHaveTextContent('None read yet');
    expect(screen.queryByText('No candidates have the status “Blocked”.')).not.toBeInTheDocument();
  });

  it('a list the crawler does not read, to keep identity data, is never said to be still being read (facts review, 29 November)', async () => {
    const message =
      'The applicants list is read once a lookup here has shown that the API key keeps identity data: without a status-level key it is read with the full key.';
    const index = {
      at: new Date().toISOString(),
      crawling: true as const,
      dated: 0,
      of: 0,
      error: { message, at: new Date().toISOString(), withheld: true as const },
    };
    stubList(QUEUE, { extra: { blocked: { order: { by: 'age', known: 0, of: 0 }, index } } });
    renderWithProviders('/applicants?status=blocked');
    const freshness = await screen.findByTestId('queue-freshness');
    expect(freshness).toHaveTextContent(`Not read from the KYC service: what lookups made here told the queue is shown. ${message}`);
    expect(freshness).not.toHaveTextContent(/Still reading|last read of the list failed/);
    expect(screen.getByTestId('queue-still-reading')).toHaveTextContent(/^None known: the KYC service’s list is not read/);
  });

  it('has no serious axe violations with the new columns, flags and notes', async () => {
    stubList(QUEUE, { extra: { waiting: WAITING_EXTRA }, refused: ['blocked'] });
    renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(rows()).toHaveLength(3));
    await screen.findByTestId('refused-filters');
    const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});
