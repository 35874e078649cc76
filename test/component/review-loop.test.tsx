import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApiMeta, SessionInfo } from '../../src/kyc/contract/api.ts';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import type { ActivityAnswer } from '../../src/kyc/contract/audit-search.ts';
import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import type { PresenceViewer } from '../../src/kyc/contract/presence.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { auditRow } from './audit-row.ts';
import { FakeEventSource, withFakeEventSource } from './fake-event-source.ts';
import { applicantsAnswer, envelope, json, renderWithProviders, stubApi, testMeta, testRooms } from './render.tsx';

/**
 * The reviewer's loop (issue 33) in the app as a whole: the queue hands a candidate page its place,
 * which opens its neighbours (links, `j`, `k`) and returns to the queue (`u`) with the row focused; the
 * tab's stream names itself and says who else has which candidate open; a live change is announced in
 * a notice that stays in view.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const withRecordId = samples.filter((record) => record.recordId && record.refId && !record.isArchived);
const [first, second, third, fourth] = withRecordId as [CandidateRecord, CandidateRecord, CandidateRecord, CandidateRecord];
const asApplicant = (record: CandidateRecord, status = 'waiting'): Applicant => ({
  status,
  isArchived: false,
  recordId: record.recordId!,
  refId: record.refId!,
  rooms: testRooms(record),
});
const candidatePath = (record: CandidateRecord) => `/api/candidates/recordId/${encodeURIComponent(record.recordId!)}`;
const pageOf = (record: CandidateRecord) => `/candidates/recordId/${encodeURIComponent(record.recordId!)}`;
const STREAM = 'stream-id-of-this-tab-0001';

function stub(applicants: Applicant[], session?: SessionInfo, meta: ApiMeta = testMeta()) {
  const candidates = Object.fromEntries(withRecordId.map((record) => [candidatePath(record), () => envelope(record)]));
  return stubApi({ applicants, candidates, session, meta });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const place = () => screen.getByTestId('queue-place');
const rowLink = (index: number) => rows()[index]!.querySelector<HTMLElement>('a[data-open]')!;

async function openFromQueue(path: string, index: number) {
  const result = renderWithProviders(path);
  await waitFor(() => expect(rows().length).toBeGreaterThan(index));
  await userEvent.setup().click(rowLink(index));
  // A click opens the row once it is not the first of a double-click (row-open.ts): a moment later.
  await waitFor(() => expect(result.router.state.location.pathname).toMatch(/^\/candidates\//));
  await screen.findByRole('heading', { level: 1 });
  return result;
}

withFakeEventSource();

describe('the reviewer loop', { timeout: 20_000 }, () => {
  it('a candidate opened from the queue knows its place, and Previous, Next, j and k open its neighbours in place', async () => {
    stub([first, second, third].map((record) => asApplicant(record)));
    const { router } = await openFromQueue('/applicants?status=waiting', 1);
    expect(router.state.location.pathname).toBe(pageOf(second));
    await waitFor(() => expect(place()).toHaveTextContent('2 of 3 · Waiting'));
    const nav = screen.getByRole('navigation', { name: 'Queue' });
    expect(within(nav).getByRole('link', { name: 'Previous' })).toHaveAttribute('href', pageOf(first));
    expect(within(nav).getByRole('link', { name: 'Next' })).toHaveAttribute('href', pageOf(third));
    expect(within(nav).getByRole('link', { name: 'Back to queue' })).toHaveAttribute('href', '/applicants?status=waiting');
    const length = window.history.length;

    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(third)));
    await waitFor(() => expect(place()).toHaveTextContent('3 of 3 · Waiting'));
    expect(within(screen.getByRole('navigation', { name: 'Queue' })).queryByRole('link', { name: 'Next' })).toBeNull();
    await userEvent.setup().keyboard('k');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    // Each step replaced the entry: the browser's Back still leads to the queue.
    expect(window.history.length).toBe(length);
    // No id in the history entry: only the tab, the page and the row's place.
    expect(JSON.stringify(window.history.state)).not.toContain(second.recordId!);
    // The keyboard help lists the loop's keys here, where they work.
    await userEvent.setup().keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('heading', { name: 'A candidate opened from the queue' })).toBeInTheDocument();
    expect(within(help).getByText('u', { selector: 'kbd' })).toBeInTheDocument();
  });

  it('j at the last candidate of the tab, and k at the first, say so politely where nothing else happens (UX review)', async () => {
    stub([first, second].map((record) => asApplicant(record)));
    const { router } = await openFromQueue('/applicants?status=waiting', 1);
    await waitFor(() => expect(place()).toHaveTextContent('2 of 2 · Waiting'));
    await userEvent.setup().keyboard('j');
    // Before: nothing happened, and nothing was said.
    const said = await screen.findByTestId('queue-edge');
    expect(said).toHaveTextContent('Last candidate in this tab');
    expect(said.closest('[aria-live="polite"]')).not.toBeNull();
    expect(router.state.location.pathname).toBe(pageOf(second));
    await userEvent.setup().keyboard('k');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(first)));
    await waitFor(() => expect(place()).toHaveTextContent('1 of 2 · Waiting'));
    // Said of the candidate it was said on, not of the one opened since.
    expect(screen.queryByTestId('queue-edge')).toBeNull();
    await userEvent.setup().keyboard('k');
    await waitFor(() => expect(screen.getByTestId('queue-edge')).toHaveTextContent('First candidate in this tab'));
    expect(router.state.location.pathname).toBe(pageOf(first));
  });

  it("j and k put focus on the new candidate's heading as the first open does, also after a key or a click while it opened (UX review)", async () => {
    stub([first, second, third].map((record) => asApplicant(record, 'inreview')));
    const { router } = await openFromQueue('/applicants?status=inreview', 0);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveFocus());
    const user = userEvent.setup();
    await user.keyboard('j');
    await waitFor(() => expect(place()).toHaveTextContent('2 of 3 · In review'));
    // While "Candidate 2 of 3 — opening…" (300 ms, then the lookup): an arrow key scrolling the page. Before, it
    // ended the watch for the heading, and focus stayed on the document.
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveFocus());
    expect(router.state.location.pathname).toBe(pageOf(second));
    await user.keyboard('k');
    await waitFor(() => expect(place()).toHaveTextContent('1 of 3 · In review'));
    fireEvent.pointerDown(document.body);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveFocus());
    expect(router.state.location.pathname).toBe(pageOf(first));
  });

  it('Back to queue (u) returns to the same tab and page, the row just opened focused and marked "Opened"', async () => {
    stub([first, second, third].map((record) => asApplicant(record)));
    const { router } = await openFromQueue('/applicants?status=waiting', 0);
    await waitFor(() => expect(place()).toHaveTextContent('1 of 3 · Waiting'));
    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await screen.findByRole('heading', { level: 1 });
    await userEvent.setup().keyboard('u');
    await waitFor(() => expect(router.state.location.search).toBe('?status=waiting'));
    await waitFor(() => expect(rowLink(1)).toHaveFocus());
    expect(within(rows()[0]!).getByText('Opened')).toBeInTheDocument();
    expect(within(rows()[1]!).getByText('Opened')).toBeInTheDocument();
    expect(within(rows()[2]!).queryByText('Opened')).toBeNull();
    // On the queue, j and k move between rows; Enter opens the one focused.
    await userEvent.setup().keyboard('j');
    expect(rowLink(2)).toHaveFocus();
    await userEvent.setup().keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(third)));
  });

  it('j then u before the next candidate has shown: back on the queue, the row stepped to has focus, not the one stepped from', async () => {
    stub([first, second, third].map((record) => asApplicant(record)));
    const { router } = await openFromQueue('/applicants?status=waiting', 0);
    await waitFor(() => expect(place()).toHaveTextContent('1 of 3 · Waiting'));
    // Both keys in one task, as a fast typist's may come: `u` lands before React has shown the next
    // candidate's page (its render is a transition), while the first one's page is still the one shown.
    // Not through user-event, whose act() renders after each key.
    for (const key of ['j', 'u']) window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=waiting'));
    await waitFor(() => expect(rowLink(1)).toHaveFocus());
  });

  it('j pressed quickly past candidates looks up only the one landed on: the ones passed over get no full lookup, and are not marked Opened', async () => {
    const { requests } = stub([first, second, third, fourth].map((record) => asApplicant(record)));
    const { router } = await openFromQueue('/applicants?status=waiting', 0);
    await waitFor(() => expect(place()).toHaveTextContent('1 of 4 · Waiting'));
    // Three presses as a fast typist's come: each next candidate's page shown (rendered, its effects run) before the next key.
    for (const record of [second, third, fourth]) {
      act(() => {
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true }));
      });
      expect(router.state.location.pathname).toBe(pageOf(record));
    }
    await waitFor(() => expect(place()).toHaveTextContent('4 of 4 · Waiting'));
    await screen.findByRole('heading', { level: 1 });
    const lookups = (record: CandidateRecord) => requests.filter((url) => url === candidatePath(record)).length;
    expect([first, second, third, fourth].map(lookups)).toEqual([1, 0, 0, 1]);
    await userEvent.setup().keyboard('u');
    await waitFor(() => expect(rowLink(3)).toHaveFocus());
    expect(rows().map((row) => within(row).queryByText('Opened') !== null)).toEqual([true, false, false, true]);
  });

  it('at the end of a page, Next fetches the next page and opens its first candidate', async () => {
    const many: Applicant[] = Array.from({ length: 50 }, (_, index) => ({
      status: 'waiting',
      isArchived: false,
      recordId: `5f00000000000000000000${String(index).padStart(2, '0')}`,
      refId: `filler-${index}`,
    }));
    const { requests } = stub([...many.slice(0, 49), asApplicant(first), asApplicant(second)]);
    const { router } = await openFromQueue('/applicants?status=waiting', 49);
    await waitFor(() => expect(place()).toHaveTextContent('50 of 51 · Waiting'));
    await waitFor(() =>
      expect(within(screen.getByRole('navigation', { name: 'Queue' })).getByRole('link', { name: 'Next' })).toHaveAttribute(
        'href',
        pageOf(second),
      ),
    );
    expect(requests.filter((url) => url.startsWith('/api/applicants') && url.includes('skip=50'))).toHaveLength(1);
    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await waitFor(() => expect(place()).toHaveTextContent('51 of 51 · Waiting'));
    expect(within(screen.getByRole('navigation', { name: 'Queue' })).getByRole('link', { name: 'Back to queue' })).toHaveAttribute(
      'href',
      '/applicants?status=waiting&page=2',
    );
  });

  it('a candidate decided since it was opened (gone from its tab) keeps its place: Next opens the row that moved into it', async () => {
    const applicants = [first, second, third, fourth].map((record) => asApplicant(record));
    stub(applicants);
    const { queryClient } = await openFromQueue('/applicants?status=waiting', 1);
    await waitFor(() => expect(place()).toHaveTextContent('2 of 4 · Waiting'));
    // The queue, fetched again, no longer lists it.
    applicants.splice(1, 1);
    await act(() => queryClient.invalidateQueries({ queryKey: ['applicants'] }));
    await waitFor(() => expect(place()).toHaveTextContent('No longer listed · Waiting'));
    const nav = screen.getByRole('navigation', { name: 'Queue' });
    expect(within(nav).getByRole('link', { name: 'Next' })).toHaveAttribute('href', pageOf(third));
    expect(within(nav).getByRole('link', { name: 'Previous' })).toHaveAttribute('href', pageOf(first));
  });

  it('a decision taken elsewhere on the candidate opened from the queue (a live update): its place says so, and Back to queue shows the tab as it is', async () => {
    const applicants = [first, second, third].map((record) => asApplicant(record));
    stub(applicants, undefined, { ...testMeta(), live: true, environment: { ...testMeta().environment, live: true } });
    const { router } = await openFromQueue('/applicants?status=waiting', 1);
    await waitFor(() => expect(place()).toHaveTextContent('2 of 3 · Waiting'));
    await waitFor(() => expect(FakeEventSource.instances.length).toBeGreaterThan(0));
    // Approved in another tab: the server's index has it in Approved now, and its event comes.
    applicants[1] = asApplicant(second, 'approved');
    const event: LiveEvent = {
      environment: 'default',
      event: 'review.approved',
      refId: second.refId!,
      recordId: second.recordId!,
      status: 'approved',
      isArchived: false,
      at: new Date().toISOString(),
    };
    FakeEventSource.instances.at(-1)!.emit('kyc', event);
    await waitFor(() => expect(place()).toHaveTextContent('No longer listed · Waiting'), { timeout: 5000 });
    await userEvent.setup().keyboard('u');
    await waitFor(() => expect(router.state.location.pathname).toBe('/applicants'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows().map((row) => row.textContent)).not.toContainEqual(expect.stringContaining(second.refId!));
  });

  it('from a queue filtered to Over SLA only, the place, Next and Back to queue are of the filtered list', async () => {
    const { fetchMock } = stub([first, second, third, fourth].map((record) => asApplicant(record)));
    // Over SLA, the tab lists only the first and the third: asked without overSla=1, it would list all four.
    const over = [first, third].map((record) => asApplicant(record));
    const whole = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      const answer = await whole(input, init);
      const url = new URL(String(input), 'http://test');
      const filtered = url.pathname === '/api/applicants' && url.searchParams.get('overSla') === '1';
      return filtered && answer.ok ? applicantsAnswer(url, over) : answer;
    });
    const { router } = await openFromQueue('/applicants?status=waiting&overSla=1', 0);
    expect(router.state.location.pathname).toBe(pageOf(first));
    await waitFor(() => expect(place()).toHaveTextContent('1 of 2 · Waiting · over SLA only'));
    const nav = screen.getByRole('navigation', { name: 'Queue' });
    expect(within(nav).getByRole('link', { name: 'Next' })).toHaveAttribute('href', pageOf(third));
    expect(within(nav).getByRole('link', { name: 'Back to queue' })).toHaveAttribute('href', '/applicants?status=waiting&overSla=1');

    await userEvent.setup().keyboard('j');
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(third)));
    await waitFor(() => expect(place()).toHaveTextContent('2 of 2 · Waiting · over SLA only'));
    expect(within(screen.getByRole('navigation', { name: 'Queue' })).queryByRole('link', { name: 'Next' })).toBeNull();
    await userEvent.setup().keyboard('u');
    await waitFor(() => expect(router.state.location.search).toBe('?status=waiting&overSla=1'));
    await waitFor(() => expect(rowLink(1)).toHaveFocus());
  });

  it('a candidate opened otherwise (the search box, a link) has no queue bar, only the dashboard and who else is here', async () => {
    stub([]);
    renderWithProviders(pageOf(first));
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('navigation', { name: 'Queue' })).toBeNull();
  });
});

describe('who else is here', { timeout: 20_000 }, () => {
  const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };
  const viewer = (user: string, record: CandidateRecord, environment = 'default'): PresenceViewer => ({
    user,
    environment,
    rooms: testRooms(record),
  });

  it('the page says under its stream which candidate it shows, and the others on it are named on the page and the queue row', async () => {
    const { fetchMock } = stub(
      [first, second].map((record) => asApplicant(record)),
      ANA,
    );
    const { router } = renderWithProviders('/applicants?status=waiting');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    source.emit('hello', { stream: STREAM });
    await waitFor(() => expect(rows()).toHaveLength(2));
    source.emit('presence', { viewers: [viewer('sam.lee', second), viewer('rita', first, 'staging')] });
    // Sam's initials on his row, his name in words; Rita's candidate is of another environment.
    const samOn = within(rows()[1]!).getByTitle('sam.lee is viewing');
    expect(samOn).toHaveTextContent('SL');
    expect(within(rows()[0]!).queryByTitle(/is viewing/)).toBeNull();

    await userEvent.setup().click(rowLink(1));
    await waitFor(() => expect(router.state.location.pathname).toBe(pageOf(second)));
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByTestId('viewers')).toHaveTextContent(/sam\.lee is viewing this candidate$/);
    const said = () =>
      fetchMock.mock.calls.filter(([url]) => url === '/api/presence').map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    await waitFor(() =>
      expect(said()).toContainEqual({
        stream: STREAM,
        environment: 'default',
        candidate: { refId: second.refId, recordId: second.recordId },
      }),
    );
    // Leaving the candidate says so.
    router.navigate('/applicants?status=waiting');
    await waitFor(() => expect(said().at(-1)).toEqual({ stream: STREAM, environment: 'default', candidate: null }));
  });
});

describe('who looked, as colleagues come', { timeout: 20_000 }, () => {
  it("reads the Activity again when a colleague opens the page: their lookup is no longer missing from 'today'", async () => {
    const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };
    let lines: ActivityAnswer['rows'] = [];
    const line = (user: string) => auditRow({ user, id: second.refId! });
    lines = [line('ana')];
    const candidates = { [candidatePath(second)]: () => envelope(second) };
    const answer = () => json({ rows: lines, since: '', more: false, source: { kind: 'files' } });
    stubApi({ candidates, session: ANA, activity: answer });
    renderWithProviders(pageOf(second));
    expect(await screen.findByText('Nobody else has looked at this candidate today.')).toBeInTheDocument();
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    const source = FakeEventSource.instances[0]!;
    source.emit('hello', { stream: STREAM });
    // Carl looks the candidate up, and his page says it is here.
    lines = [line('carl'), line('ana')];
    source.emit('presence', { viewers: [{ user: 'carl', environment: 'default', rooms: testRooms(second) }] });
    expect(await screen.findByText(/^Looked at today by carl \(.*\), and by you\.$/)).toBeInTheDocument();
  });
});

describe('the Activity of a candidate', { timeout: 20_000 }, () => {
  it('explains each level as the audit page does: its meaning in the title, and that nothing was shown for a refusal', async () => {
    const ANA: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };
    const rows = [
      auditRow({ user: 'sam', role: 'support', id: second.refId!, level: 'stripped' }),
      auditRow({ user: 'ben', id: second.refId!, level: 'full', status: 404, code: 'not_found' }),
    ];
    stubApi({
      candidates: { [candidatePath(second)]: () => envelope(second) },
      session: ANA,
      activity: { rows, since: '', more: false, source: { kind: 'files' } },
    });
    renderWithProviders(pageOf(second));
    await userEvent.setup().click(await screen.findByText('Activity'));
    const stripped = await screen.findByText('Status level (reduced here)');
    expect(stripped).toHaveAttribute(
      'title',
      expect.stringMatching(/cut down by this server .* no identity data or pictures left the server/),
    );
    expect(screen.getByText('Full key asked, nothing shown')).toHaveAttribute('title', expect.stringMatching(/^Asked, nothing shown: /));
  });
});

describe('a live change where the reviewer is', { timeout: 20_000 }, () => {
  it('shows "Waiting → Approved, just now — from the KYC service" in a notice that stays in view, until dismissed', async () => {
    let status = 'waiting';
    const record = { ...first, status: 'waiting' };
    const statusPath = `/api/status/recordId/${encodeURIComponent(record.recordId!)}`;
    stubApi({
      meta: { ...testMeta(), live: true, environment: { ...testMeta().environment, live: true } },
      candidates: { [candidatePath(record)]: () => envelope(record), [statusPath]: () => envelope({ ...record, status }) },
    });
    renderWithProviders(pageOf(record));
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
    // The live region is there before the news, empty.
    const region = screen.getByTestId('status-change-announcement');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('');
    status = 'approved';
    // A status date a few seconds ahead of this browser's clock (the service's clock runs ahead).
    const event: LiveEvent = {
      environment: 'default',
      event: 'review.approved',
      refId: record.refId!,
      recordId: record.recordId!,
      status: 'approved',
      isArchived: false,
      at: new Date().toISOString(),
      statusDate: new Date(Date.now() + 4000).toISOString(),
    };
    FakeEventSource.instances[0]!.emit('kyc', event);
    const toast = await screen.findByTestId('status-toast');
    expect(toast).toHaveTextContent(/^Waiting → Approved, just now — from the KYC service/);
    expect(region).toHaveTextContent('Status changed: Waiting → Approved — from the KYC service.');
    // Said once: the line above the record shows the change, and is not a second live region.
    const line = screen.getByTestId('live-status');
    expect(line).toHaveTextContent(/^Approved at /);
    expect(line).not.toHaveAttribute('role');
    expect(line).not.toHaveAttribute('aria-live');
    expect(toast.closest('.fixed')).not.toBeNull();
    // At the top of a phone's screen (at its bottom it hid Copy reply, the end of a support agent's first screen), at the bottom from `sm` up.
    expect(toast.closest('.fixed')).toHaveClass('top-0', 'sm:top-auto', 'sm:bottom-0');
    await userEvent.setup().click(within(toast).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('status-toast')).toBeNull();
    // The keyboard goes to the page's heading, not to the document with the button.
    expect(screen.getByRole('heading', { level: 1 })).toHaveFocus();
    expect(region).toHaveTextContent('');
  });
});
