import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { navigate } from '../../src/app/navigation.tsx';
import type { BatchEvent } from '../../src/kyc/contract/batch.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { batchAnswer, foundRecord, LAZY_PAGE, lookUpAll, threeSamples } from './batch-fixture.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * The reviewer's loop over a batch's found rows: a candidate opened from a found row gets the review
 * bar's place, Previous and Next (`j`, `k`) over the batch's found rows, and Back to batch (`u`), as a
 * candidate opened from the queue does.
 */
const [first, second, third] = await threeSamples();
const withIds = [first, second, third];
const lookupOf = (record: CandidateRecord) => `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
const pageOf = (record: CandidateRecord) => `/candidates/refId/${encodeURIComponent(record.refId!)}`;

const found = (index: number, record: CandidateRecord): BatchEvent => foundRecord(index, record);
const notFound = (index: number, id: string): BatchEvent => ({
  type: 'row',
  index,
  ok: false,
  code: 'not_found',
  message: `No candidate with refId "${id}".`,
});

/** The batch answers `events` at once; each sample candidate answers its full lookup. */
function stub(events: BatchEvent[]) {
  const candidates = Object.fromEntries(withIds.map((record) => [lookupOf(record), () => envelope(record)]));
  return stubApi({ candidates: { ...candidates, '/api/batch': () => batchAnswer(events) } });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const place = () => screen.getByTestId('queue-place');
const nav = () => screen.getByRole('navigation', { name: 'Batch' });

/** Looks the pasted `lines` up, then opens the found row of `id`. */
async function openFromBatch(lines: string[], id: string) {
  const result = renderWithProviders('/batch');
  const user = await lookUpAll(lines.join('\n'));
  await screen.findByText(/^Done:/);
  await user.click(within(screen.getByRole('table')).getAllByRole('link', { name: id })[0]!);
  await waitFor(() => expect(result.router.state.location.pathname).toMatch(/^\/candidates\//));
  await screen.findByRole('heading', { level: 1 }, LAZY_PAGE);
  return result;
}

withFakeEventSource();

describe('the reviewer loop over a batch', { timeout: 30_000 }, () => {
  it('a candidate opened from a found row knows its place; j steps to the next found row, past a row not found, and u returns to the batch with that row focused', async () => {
    const lines = [first.refId!, 'nobody-here', second.refId!, third.refId!];
    const { requests } = stub([
      found(0, first),
      notFound(1, 'nobody-here'),
      found(2, second),
      found(3, third),
      { type: 'done', found: 3, failed: 1 },
    ]);
    const { router } = await openFromBatch(lines, first.refId!);
    expect(router.state.location.pathname).toBe(pageOf(first));
    await waitFor(() => expect(place()).toHaveTextContent('1 of 3 · Found rows of this batch'));
    expect(within(nav()).getByRole('link', { name: 'Next' })).toHaveAttribute('href', pageOf(second));
    expect(within(nav()).getByRole('link', { name: 'Back to batch' })).toHaveAttribute('href', '/batch');
    // No id in the history entry: only the row's place among the batch's lines.
    expect(window.history.state).toEqual({ batchRow: { index: 0 } });
    const length = window.history.length;

    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await waitFor(() => expect(place()).toHaveTextContent('2 of 3 · Found rows of this batch'));
    expect(within(nav()).getByRole('link', { name: 'Previous' })).toHaveAttribute('href', pageOf(first));
    // The step replaced the entry: the browser's Back still leads to the batch.
    expect(window.history.length).toBe(length);
    // The keyboard help lists the loop's keys here, where they work.
    await userEvent.setup().keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('heading', { name: 'A candidate opened from a batch' })).toBeInTheDocument();
    expect(within(help).getByText('Back to the batch, to the row of this candidate')).toBeInTheDocument();
    await userEvent.setup().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull());

    // Stayed on: looked up (and so marked Opened) once the step has settled (step-settle.ts).
    await waitFor(() => expect(requests).toContain(lookupOf(second)));
    await userEvent.setup().keyboard('u');
    await waitFor(() => expect(router.state.location.pathname).toBe('/batch'));
    await waitFor(() => expect(within(rows()[2]!).getByRole('link', { name: second.refId! })).toHaveFocus(), LAZY_PAGE);
    expect(rows().map((row) => within(row).queryByText('Opened') !== null)).toEqual([true, false, true, false]);
  });

  it('j at the last found row, and k at the first, say so politely; a repeated line is not stepped to twice', async () => {
    // Line 3 repeats line 1: its row opens the same candidate, which `j` does not open again.
    const lines = [first.refId!, second.refId!, first.refId!, 'nobody-here'];
    stub([found(0, first), found(1, second), notFound(2, 'nobody-here'), { type: 'done', found: 2, failed: 1 }]);
    const { router } = await openFromBatch(lines, second.refId!);
    await waitFor(() => expect(place()).toHaveTextContent('2 of 2 · Found rows of this batch'));
    await userEvent.setup().keyboard('j');
    const said = await screen.findByTestId('queue-edge');
    expect(said).toHaveTextContent('Last found row of this batch');
    expect(said.closest('[aria-live="polite"]')).not.toBeNull();
    expect(router.state.location.pathname).toBe(pageOf(second));
    await userEvent.setup().keyboard('k');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(first)));
    await waitFor(() => expect(place()).toHaveTextContent('1 of 2 · Found rows of this batch'));
    await userEvent.setup().keyboard('k');
    await waitFor(() => expect(screen.getByTestId('queue-edge')).toHaveTextContent('First found row of this batch'));
    expect(router.state.location.pathname).toBe(pageOf(first));
  });

  it('j pressed quickly past found rows looks up only the one landed on: the rows passed over get no full lookup', async () => {
    const lines = [first.refId!, second.refId!, third.refId!];
    const { requests } = stub([found(0, first), found(1, second), found(2, third), { type: 'done', found: 3, failed: 0 }]);
    const { router } = await openFromBatch(lines, first.refId!);
    await waitFor(() => expect(place()).toHaveTextContent('1 of 3 · Found rows of this batch'));
    for (const record of [second, third]) {
      act(() => {
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true }));
      });
      expect(router.state.location.pathname).toBe(pageOf(record));
    }
    await waitFor(() => expect(place()).toHaveTextContent('3 of 3 · Found rows of this batch'));
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(requests.filter((url) => url === lookupOf(third))).toHaveLength(1));
    const lookups = (record: CandidateRecord) => requests.filter((url) => url === lookupOf(record)).length;
    expect([first, second, third].map(lookups)).toEqual([1, 0, 1]);
  });

  it('a history entry whose line is not this candidate (another batch since) gives no place and no steps', async () => {
    const lines = [first.refId!, second.refId!];
    stub([found(0, first), found(1, second), { type: 'done', found: 2, failed: 0 }]);
    const { router } = await openFromBatch(lines, first.refId!);
    await waitFor(() => expect(place()).toHaveTextContent('1 of 2'));
    // The same entry, on another candidate's page: line 1 is not theirs.
    act(() => navigate(pageOf(third), { state: { batchRow: { index: 0 } } }));
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(third)));
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('navigation', { name: 'Batch' })).toBeNull();
    await userEvent.setup().keyboard('j');
    expect(router.state.location.pathname).toBe(pageOf(third));
  });
});
