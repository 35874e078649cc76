import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import { batchAnswer, csvOf, foundRecord, LAZY_PAGE, lookUpAll, threeSamples } from './batch-fixture.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, json, renderWithProviders, stubApi } from './render.tsx';

/**
 * A compliance user's batch rows show what the queue index knows of each candidate for triage (the
 * certificates' word with the queue's chip, no pictures, as of when the index learnt it, or not known
 * yet), in the table and at the end of the CSV; "Needs attention first" puts those rows first, and j/k
 * from a row's candidate follow that order. A support user's batch shows none of it.
 */
const [first, second, third] = await threeSamples();
const AS_OF = '2026-11-21T09:30:00.000Z';
const found = foundRecord;

const TRIAGED: BatchEvent[] = [
  found(0, first, { known: true, certificate: 'clear', pictures: true, asOf: AS_OF }),
  found(1, second, { known: true, certificate: 'potential_match', pictures: false, asOf: AS_OF }),
  found(2, third, { known: false }),
  { type: 'done', found: 3, failed: 0 },
];
const PLAIN: BatchEvent[] = [found(0, first), found(1, second), found(2, third), { type: 'done', found: 3, failed: 0 }];

function stub(events: BatchEvent[], role: 'compliance' | 'support' | 'lead' = 'compliance') {
  const candidates = Object.fromEntries(
    [first, second, third].map((record) => [`/api/candidates/refId/${encodeURIComponent(record.refId!)}`, () => envelope(record)]),
  );
  return stubApi({
    session: { mode: 'local', user: 'ana', role },
    candidates: { ...candidates, '/api/batch': () => batchAnswer(events), '/api/export': () => json({ status: 'success' }) },
  });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const ids = () => rows().map((row) => within(row).getByRole('link').textContent);

afterEach(() => {
  vi.restoreAllMocks();
});
withFakeEventSource();

describe("the batch's triage for compliance users", { timeout: 30_000 }, () => {
  it('each found row shows the certificate word with the chip, no pictures, as of when the index learnt it, or not known yet', async () => {
    stub(TRIAGED);
    renderWithProviders('/batch');
    await lookUpAll([first.refId, second.refId, third.refId].join('\n'));
    await screen.findByText(/^Done:/);
    expect(screen.getByRole('columnheader', { name: 'Certificates' })).toBeInTheDocument();
    const [clear, attention, unknown] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(clear).getByText('clear').closest('[data-tone]')).toHaveAttribute('data-tone', 'positive');
    expect(within(attention).getByText('potential_match').closest('[data-tone]')).toHaveAttribute('data-tone', 'caution');
    expect(attention).toHaveTextContent('no pictures');
    expect(clear).not.toHaveTextContent('no pictures');
    expect(attention).toHaveTextContent(/as of/);
    expect(unknown).toHaveTextContent('Not known yet: open the candidate');
    expect(screen.getByTestId('attention-count')).toHaveTextContent('(1 candidate with a certificate that needs attention');
  });

  it('the CSV ends with the triage columns (then the date doubt column): the word, pictures, and when the index learnt them; empty when not known', async () => {
    stub(TRIAGED, 'lead');
    renderWithProviders('/batch');
    const user = await lookUpAll([first.refId, second.refId, third.refId].join('\n'));
    await screen.findByText(/^Done:/);
    const csv = await csvOf(user);
    expect(csv[0]).toMatch(/,unreadable,certificate,pictures,triageAsOf,triageAsOfLocal,statusDateDoubt$/);
    expect(csv[1]).toMatch(new RegExp(`,clear,yes,${AS_OF},"[^"]+",$`));
    expect(csv[2]).toMatch(new RegExp(`,potential_match,no,${AS_OF},"[^"]+",$`));
    expect(csv[3]).toMatch(/,,,,,,$/);
  });

  it('"Needs attention first" puts those rows first from the keyboard, and j from a row’s candidate follows the order shown', async () => {
    stub(TRIAGED);
    const { router } = renderWithProviders('/batch');
    const user = await lookUpAll([first.refId, second.refId, third.refId].join('\n'));
    await screen.findByText(/^Done:/);
    expect(ids()).toEqual([first.refId, second.refId, third.refId]);
    const toggle = screen.getByRole('checkbox', { name: 'Needs attention first' });
    toggle.focus();
    await user.keyboard(' ');
    expect(toggle).toBeChecked();
    expect(ids()).toEqual([second.refId, first.refId, third.refId]);

    await user.click(within(rows()[0]!).getByRole('link'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/refId/${encodeURIComponent(second.refId!)}`));
    await screen.findByRole('heading', { level: 1 }, LAZY_PAGE);
    await waitFor(() => expect(screen.getByTestId('queue-place')).toHaveTextContent('1 of 3 · Found rows of this batch'));
    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/candidates/refId/${encodeURIComponent(first.refId!)}`));
    await userEvent.setup().keyboard('u');
    await waitFor(() => expect(router.state.location.pathname).toBe('/batch'));
    // Back on the batch: the same order, the row of the candidate left focused.
    await waitFor(() => expect(within(rows()[1]!).getByRole('link', { name: first.refId! })).toHaveFocus(), LAZY_PAGE);
    expect(screen.getByRole('checkbox', { name: 'Needs attention first' })).toBeChecked();
  });

  it("a support user's batch shows no certificate, no toggle, and its CSV keeps its columns", async () => {
    stub(PLAIN, 'support');
    renderWithProviders('/batch');
    const user = await lookUpAll([first.refId, second.refId, third.refId].join('\n'));
    await screen.findByText(/^Done:/);
    expect(screen.queryByRole('columnheader', { name: 'Certificates' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: 'Needs attention first' })).toBeNull();
    expect(screen.queryByText(/Not known yet/)).toBeNull();
    const csv = await csvOf(user);
    expect(csv[0]).toBe(
      'line,id,status,statusText,statusDate,statusDateLocal,submitCount,archived,refId,recordId,repeatOf,error,message,unreadable,statusDateDoubt',
    );
  });
});

describe("the batch's intro says what each role's rows hold", () => {
  const intro = async () => (await screen.findByTestId('batch-intro')).textContent ?? '';

  it('a support user: the status level, and nothing of the queue index', async () => {
    stub(PLAIN, 'support');
    renderWithProviders('/batch');
    await waitFor(async () =>
      expect(await intro()).toMatch(/looked up at status level: status, since when, submissions and the other id\./),
    );
    expect(await intro()).not.toMatch(/queue index/);
  });

  for (const role of ['compliance', 'lead'] as const) {
    it(`a ${role === 'lead' ? 'lead' : 'compliance user'}: the status level, and what the queue index knows, with no extra call to the service`, async () => {
      stub(TRIAGED, role);
      renderWithProviders('/batch');
      await waitFor(async () => expect(await intro()).toMatch(/queue index already knows/));
      const text = await intro();
      expect(text).toMatch(/looked up at status level/);
      expect(text).toMatch(/certificates’ worst outcome, a record without pictures, as of when/);
      expect(text).toMatch(/no extra call to the service/);
    });
  }
});
