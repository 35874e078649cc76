import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ROW_OPEN_DELAY_MS } from '../../src/app/applicants/row-open.ts';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { withFakeEventSource } from './fake-event-source.ts';
import { envelope, renderWithProviders, stubApi } from './render.tsx';

/**
 * The moments between a reviewer's action on the queue and the page it leads to, as a reviewer using it
 * every day met them: a clicked row that showed nothing for the wait that tells a click from a
 * double-click, a skeleton that said a candidate stepped to was being looked up before any request had
 * left, and a `j` pressed after the address changed but before its page was drawn, which was lost.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const withRecordId = samples.filter((record) => record.recordId && record.refId && !record.isArchived);
const [first, second, third, fourth] = withRecordId as [CandidateRecord, CandidateRecord, CandidateRecord, CandidateRecord];
const asApplicant = (record: CandidateRecord): Applicant => ({
  status: 'waiting',
  isArchived: false,
  recordId: record.recordId!,
  refId: record.refId!,
});
const lookupPath = (record: CandidateRecord) => `/api/candidates/recordId/${encodeURIComponent(record.recordId!)}`;
const pageOf = (record: CandidateRecord) => `/candidates/recordId/${encodeURIComponent(record.recordId!)}`;

function stub(records: CandidateRecord[], answers: Record<string, () => Response | Promise<Response>> = {}) {
  const candidates = Object.fromEntries(withRecordId.map((record) => [lookupPath(record), () => envelope(record)]));
  return stubApi({ applicants: records.map(asApplicant), candidates: { ...candidates, ...answers } });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const place = () => screen.getByTestId('queue-place');
const rowLink = (index: number) => rows()[index]!.querySelector<HTMLElement>('a[data-open]')!;
const dateCell = (index: number) => within(rows()[index]!).getAllByRole('cell')[1]!;
/** A key as a fast typist's comes: not through user-event, whose act() renders after each key. */
const press = (key: string) => window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

async function queue(records: CandidateRecord[], answers?: Record<string, () => Response | Promise<Response>>) {
  const stubbed = stub(records, answers);
  const rendered = renderWithProviders('/applicants?status=waiting');
  await waitFor(() => expect(rows()).toHaveLength(records.length));
  return { ...stubbed, ...rendered };
}

withFakeEventSource();

describe('a clicked queue row', { timeout: 20_000 }, () => {
  it('is marked chosen and busy at once, while the click waits to be told from a double-click, then opens', async () => {
    const { router } = await queue([first, second]);
    fireEvent.click(dateCell(1), { detail: 1 });
    // Before: nothing on the row until its page came, 300 ms later.
    expect(rows()[1]).toHaveAttribute('aria-busy', 'true');
    expect(rows()[1]).toHaveAttribute('data-opening', 'true');
    expect(rows()[1]).toHaveClass('bg-blue-100', 'cursor-progress');
    expect(rows()[0]).not.toHaveAttribute('aria-busy');
    expect(router.state.location.pathname).toBe('/applicants');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
  });

  it('a second click (a double-click) takes the mark away as it cancels the open', async () => {
    const { router, requests } = await queue([first, second]);
    fireEvent.mouseDown(dateCell(0), { detail: 1 });
    fireEvent.click(dateCell(0), { detail: 1 });
    expect(rows()[0]).toHaveAttribute('aria-busy', 'true');
    fireEvent.mouseDown(dateCell(0), { detail: 2 });
    expect(rows()[0]).not.toHaveAttribute('aria-busy');
    expect(rows()[0]).not.toHaveAttribute('data-opening');
    expect(router.state.location.pathname).toBe('/applicants');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
  });

  it('a selection made meanwhile takes the mark away when the wait ends, and opens nothing', async () => {
    const { router, requests } = await queue([first, second]);
    fireEvent.click(dateCell(0), { detail: 1 });
    expect(rows()[0]).toHaveAttribute('aria-busy', 'true');
    window.getSelection()?.selectAllChildren(within(rows()[0]!).getByText(first.refId!));
    await waitFor(() => expect(rows()[0]).not.toHaveAttribute('aria-busy'));
    expect(router.state.location.pathname).toBe('/applicants');
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([]);
    window.getSelection()?.removeAllRanges();
  });

  it('a click on another row within the wait cancels the first: only the last clicked is marked, looked up and opened', async () => {
    const { router, requests } = await queue([first, second, third]);
    const entries = window.history.length;
    fireEvent.click(dateCell(0), { detail: 1 });
    fireEvent.click(dateCell(1), { detail: 1 });
    // Before: both rows marked, and the first candidate's page opened, then the second's (two lookups, in
    // the audit log and in both candidates' Activity).
    expect(rows()[0]).not.toHaveAttribute('aria-busy');
    expect(rows()[0]).not.toHaveAttribute('data-opening');
    expect(rows()[1]).toHaveAttribute('aria-busy', 'true');
    expect(rows()[1]).toHaveAttribute('data-opening', 'true');
    // The first row's wait ended before the second's: by the second page, the first would have opened.
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await waitFor(() => expect(requests).toContain(lookupPath(second)));
    await screen.findByRole('heading', { level: 1 });
    expect(window.history.length - entries).toBe(1);
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([lookupPath(second)]);
  });

  it("Enter on another row within the wait opens that row alone, and takes the first row's mark away", async () => {
    const { router, requests } = await queue([first, second, third]);
    const entries = window.history.length;
    fireEvent.click(dateCell(0), { detail: 1 });
    expect(rows()[0]).toHaveAttribute('aria-busy', 'true');
    // Enter on a link is its click of detail 0; outside act(), so that the queue is still shown after it.
    rowLink(1).dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 0 }));
    // Taken away before the second page is drawn (Before: kept until the queue went).
    await waitFor(() => expect(rows()[0]).not.toHaveAttribute('aria-busy'));
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await screen.findByRole('heading', { level: 1 });
    // Later than the first row's wait: its open, cancelled, never comes.
    await act(() => new Promise((resolve) => setTimeout(resolve, ROW_OPEN_DELAY_MS + 50)));
    expect(router.state.location.pathname).toBe(pageOf(second));
    expect(window.history.length - entries).toBe(1);
    expect(requests.filter((url) => url.startsWith('/api/candidates'))).toEqual([lookupPath(second)]);
  });
});

describe("a candidate stepped to with j: the skeleton's words", { timeout: 20_000 }, () => {
  it('say which candidate is being opened while no request has left, and that it is looked up once one has', async () => {
    let answer: (response: Response) => void = () => {};
    const slow = () => new Promise<Response>((resolve) => (answer = resolve));
    const { router, requests } = await queue([first, second, third], { [lookupPath(second)]: slow });
    fireEvent.click(rowLink(0), { detail: 0 });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(place()).toHaveTextContent('1 of 3 · Waiting'));
    // Every status the skeleton says, with whether the lookup had been asked for when it said it.
    const said: Array<{ words: string; asked: boolean }> = [];
    const asked = () => requests.includes(lookupPath(second));
    const observer = new MutationObserver(() => {
      const words = document.querySelector('[aria-busy="true"] [role="status"]')?.textContent;
      if (words && words !== said.at(-1)?.words) said.push({ words, asked: asked() });
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await waitFor(() => expect(asked()).toBe(true));
    await waitFor(() => expect(said.at(-1)?.words).toBe('Looking the candidate up…'));
    observer.disconnect();
    // Before: "Looking the candidate up…" from the step on, while the page only waited to see whether the reviewer stays.
    expect(said[0]).toEqual({ words: 'Candidate 2 of 3 — opening…', asked: false });
    expect(said.map((one) => one.words)).toEqual(['Candidate 2 of 3 — opening…', 'Looking the candidate up…']);
    await act(async () => answer(envelope(second)));
    await screen.findByRole('heading', { level: 1 });
  });
});

describe('keys pressed before the page they lead to is drawn', { timeout: 20_000 }, () => {
  it('j three times in one go, from the first of four: each is kept for the page drawn next, and lands on the fourth, no further', async () => {
    const { router, requests } = await queue([first, second, third, fourth]);
    fireEvent.click(rowLink(0), { detail: 0 });
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(place()).toHaveTextContent('1 of 4 · Waiting'));
    // The second and third come while the second candidate's page is not drawn yet (its render is a transition).
    for (const key of ['j', 'j', 'j']) press(key);
    // Before: the first candidate's page took them, and opened the second again each time.
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(fourth)));
    await waitFor(() => expect(place()).toHaveTextContent('4 of 4 · Waiting'));
    await screen.findByRole('heading', { level: 1 });
    // Not taken twice: nothing past the last candidate was asked for.
    expect(screen.queryByTestId('queue-edge')).toBeNull();
    const lookups = (record: CandidateRecord) => requests.filter((url) => url === lookupPath(record)).length;
    expect([first, second, third, fourth].map(lookups)).toEqual([1, 0, 0, 1]);
  });

  it('j right after Enter on a row: the candidate page, once drawn, takes it (the queue did, and moved its focus)', async () => {
    const { router } = await queue([first, second, third]);
    // Enter on a link is its click of detail 0; outside act(), so that the page is not drawn before the key.
    rowLink(0).dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 0 }));
    press('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await waitFor(() => expect(place()).toHaveTextContent('2 of 3 · Waiting'));
  });
});
