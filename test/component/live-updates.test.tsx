import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it, vi } from 'vitest';
import type { ApiMeta, SessionInfo } from '../../src/kyc/contract/api.ts';
import type { Applicant } from '../../src/kyc/contract/applicants.ts';
import { type LiveEvent, webhookDeliverySchema } from '../../src/kyc/contract/live-events.ts';
import { MAX_NOTIFICATIONS } from '../../src/app/live/live-stream.ts';
import { DEFAULT_REPLIES, mergeReplyTemplates } from '../../src/kyc/contract/replies.ts';
import { formatDateTime } from '../../src/kyc/view/time.ts';
import { LIVE_REFETCH_MS } from '../../src/app/applicants/queue-follows-live.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { recordForScope } from '../../src/server/sandbox/sandbox.ts';
import { liveEventOf } from '../../src/server/live/webhook-delivery.ts';
import { FakeEventSource, withFakeEventSource } from './fake-event-source.ts';
import { inTimeZone } from './in-time-zone.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta, type QueueExtras } from './render.tsx';

inTimeZone('UTC');

withFakeEventSource();

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const waiting = samples.find((r) => r.refId === '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33')!;
const other = samples.find((r) => r.refId === 'user-7781')!;
const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const SUPPORT: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };
const AT = '2026-11-26T10:42:00.000Z';

function liveMeta(live = true): ApiMeta {
  const meta = testMeta();
  const environment = { ...meta.environment, live };
  return { ...meta, environment, environments: [environment] };
}

function event(overrides: Partial<LiveEvent> = {}): LiveEvent {
  return {
    environment: 'default',
    event: 'review.approved',
    refId: waiting.refId ?? null,
    recordId: waiting.recordId ?? null,
    status: 'approved',
    isArchived: false,
    at: AT,
    ...overrides,
  };
}

async function stream(): Promise<FakeEventSource> {
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  const source = FakeEventSource.instances[0]!;
  source.open();
  return source;
}

/** The candidate page of `waiting`, whose status the service later says is `current.status`. */
function showCandidate(session: SessionInfo = COMPLIANCE, options: { meta?: ApiMeta; record?: typeof waiting } = {}) {
  const shown = options.record ?? waiting;
  const current: { status: string; refused?: boolean } = { status: 'waiting' };
  const refPath = `/api/candidates/refId/${encodeURIComponent(waiting.refId!)}`;
  const statusPath = `/api/status/refId/${encodeURIComponent(waiting.refId!)}`;
  const api = stubApi({
    session,
    meta: options.meta ?? liveMeta(),
    candidates: {
      [refPath]: () => envelope(shown),
      '/api/export': () => json({ status: 'success' }),
      [statusPath]: () =>
        current.refused
          ? apiError(502, 'upstream_unreachable', 'The KYC service cannot be reached (connection reset).')
          : envelope({
              ...recordForScope(waiting, 'status'),
              status: current.status,
              ...(current.status === 'approved' ? { approvedDate: AT } : {}),
            }),
    },
  });
  const utils = renderWithProviders(`/candidates/refId/${encodeURIComponent(waiting.refId!)}`);
  const count = (path: string) => api.requests.filter((url) => url === path).length;
  return { ...api, ...utils, current, lookups: () => count(refPath), statusChecks: () => count(statusPath) };
}

/** The candidate page (showCandidate) once its heading is shown, and its live stream, open. */
async function liveCandidate(...args: Parameters<typeof showCandidate>) {
  const page = showCandidate(...args);
  await screen.findByRole('heading', { level: 1 });
  return { ...page, source: await stream() };
}

describe('live updates on the candidate page', { timeout: 20_000 }, () => {
  it("keeps a support agent's edited reply when the status changes while the editor is open, and offers the new status's reply", async () => {
    const user = userEvent.setup();
    const { source, ...page } = await liveCandidate(SUPPORT);
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    const box = editor.getByRole('textbox', { name: 'Reply' });
    await user.type(box, ' MY EDIT');
    const edited = (box as HTMLTextAreaElement).value;
    page.current.status = 'approved';
    source.send(event());
    expect(
      await editor.findByText(
        /The candidate's status changed since this reply was filled in\. The text below is still the reply for Waiting/,
      ),
    ).toBeVisible();
    expect(box).toHaveValue(edited);
    await user.click(editor.getByRole('button', { name: 'Use the reply for Approved' }));
    expect(box).not.toHaveValue(edited);
    expect(editor.getByText(/^Filled in from the reply for Approved/)).toBeInTheDocument();
  });

  it('says a reply written with the general template was for the status before, when the new status is given the same template', async () => {
    const user = userEvent.setup();
    // Two statuses this tool does not know: both are given the general reply.
    const meta = { ...liveMeta(), replyTemplates: { ...DEFAULT_REPLIES, '*': { reply: 'Your verification is {status}.' } } };
    const page = showCandidate(SUPPORT, { meta, record: { ...waiting, status: 'on_hold' } });
    page.current.status = 'on_hold';
    await screen.findByRole('heading', { level: 1 });
    const source = await stream();
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    const box = editor.getByRole('textbox', { name: 'Reply' });
    await user.type(box, ' MY EDIT');
    page.current.status = 'escalated';
    source.send(event({ event: 'review.escalated', status: 'escalated' }));
    expect(await screen.findByTestId('status-toast')).toHaveTextContent(/^on_hold → escalated/);
    // Before: nothing said, the text written for on_hold left as escalated's reply.
    expect(
      editor.getByText(
        /The candidate's status changed since this reply was filled in\. The text below is still the general reply for on_hold/,
      ),
    ).toBeVisible();
    expect(box).toHaveValue('Your verification is on_hold. MY EDIT');
    await user.click(editor.getByRole('button', { name: 'Use the general reply for escalated' }));
    expect(box).toHaveValue('Your verification is escalated.');
  });

  it('keeps an edited reply within reach when the status changes while the editor is closed, or while open and it is then closed (UX review, 29 November)', async () => {
    const user = userEvent.setup();
    const { source, ...page } = await liveCandidate(SUPPORT);
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const box = () => within(screen.getByTestId('reply-editor')).getByRole('textbox', { name: 'Reply' });
    await user.type(box(), ' MY EDIT');
    const edited = (box() as HTMLTextAreaElement).value;
    await user.click(within(screen.getByTestId('reply-editor')).getByRole('button', { name: 'Cancel' }));
    page.current.status = 'approved';
    source.send(event());
    expect(await screen.findByTestId('status-toast')).toHaveTextContent(/^Waiting → Approved/);
    // Before: reopened on the Approved reply alone, the edits gone without a word.
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    expect(box()).toHaveValue(edited);
    expect(
      editor.getByText(/The candidate's status changed since this reply was filled in\. The text below is still the reply for Waiting/),
    ).toBeVisible();
    // Closed again, still there; the new reply is a press away.
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    expect(box()).toHaveValue(edited);
    await user.click(within(screen.getByTestId('reply-editor')).getByRole('button', { name: 'Use the reply for Approved' }));
    expect(box()).not.toHaveValue(edited);
  });

  it('attack: a draft written before the candidate was blocked hides the blocked note and copies in one click', async () => {
    const user = userEvent.setup();
    const page = showCandidate(SUPPORT, { record: { ...waiting, status: 'inreview' } });
    page.current.status = 'inreview';
    await screen.findByRole('heading', { level: 1 });
    const source = await stream();
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const box = () => within(screen.getByTestId('reply-editor')).getByRole('textbox', { name: 'Reply' });
    await user.type(box(), ' All fine, should be approved soon.');
    const edited = (box() as HTMLTextAreaElement).value;
    await user.click(within(screen.getByTestId('reply-editor')).getByRole('button', { name: 'Cancel' }));
    page.current.status = 'blocked';
    source.send(event({ event: 'user.blocked', status: 'blocked' }));
    expect(await screen.findByTestId('status-toast')).toHaveTextContent(/^In review → Blocked/);

    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    expect(box()).toHaveValue(edited);
    expect(editor.getByText(/The text below is still the reply for In review/)).toBeVisible();
    // Before: only the In review reply's note (it has none): "Do not disclose" nowhere in the dialog.
    expect(editor.getByTestId('reply-current-note')).toHaveTextContent(
      'Internal note for Blocked (not copied): Do not disclose the reason; escalate to compliance.',
    );
    // Before: one press put "…should be approved soon" on the clipboard and wrote the audit line.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(editor.getByRole('button', { name: 'Copy' }));
    expect(writeText).not.toHaveBeenCalled();
    expect(page.requests.filter((url) => url.endsWith('/export'))).toEqual([]);
    const question = editor.getByRole('group', { name: /The candidate is Blocked now, and this text is still the reply for In review/ });
    expect(question).toHaveTextContent('Internal note for Blocked: Do not disclose the reason; escalate to compliance.');
    // The safe choice has the focus: a second Enter does not copy either.
    expect(document.activeElement).toBe(within(question).getByRole('button', { name: 'Keep editing' }));
    await user.keyboard('{Enter}');
    expect(writeText).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(box());
    expect(box()).toHaveValue(edited);
    // Ctrl+Enter in the text is Copy pressed: it asks first too, and copies nothing.
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(editor.getByRole('group', { name: /The candidate is Blocked now/ })).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
    expect(box()).toHaveValue(edited);
    await user.click(editor.getByRole('button', { name: 'Keep editing' }));

    // Asked again, and told to: the agent's own text, as written, audited as the In review template.
    await user.click(editor.getByRole('button', { name: 'Copy' }));
    await user.click(editor.getByRole('button', { name: 'Copy the In review text anyway' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(edited));
    const audited = page.fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/export'));
    expect(audited.map(([, init]) => JSON.parse(String((init as RequestInit).body)).template)).toEqual(['inreview']);
  });

  it('keeps the reply editor open, with the text, when the status changes live to one with no reply, and the draft within reach once closed', async () => {
    const user = userEvent.setup();
    const meta = { ...liveMeta(), replyTemplates: mergeReplyTemplates({ blocked: { reply: null, note: 'Call compliance.' } }) };
    const { source, ...page } = await liveCandidate(SUPPORT, { meta });
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const box = () => within(screen.getByTestId('reply-editor')).getByRole('textbox', { name: 'Reply' });
    await user.type(box(), ' MY EDIT');
    const edited = (box() as HTMLTextAreaElement).value;
    page.current.status = 'blocked';
    source.send(event({ event: 'user.blocked', status: 'blocked' }));
    expect(await screen.findByTestId('status-toast')).toHaveTextContent(/^Waiting → Blocked/);
    // Before: the editor went with Copy reply, and the agent's text with it.
    const editor = within(screen.getByTestId('reply-editor'));
    expect(box()).toHaveValue(edited);
    expect(box()).toHaveFocus();
    expect(editor.getByText(/The text below is still the reply for Waiting, as you left it/)).toBeVisible();
    expect(editor.getByText('Blocked has no customer reply.')).toBeVisible();
    expect(editor.getByTestId('reply-current-note')).toHaveTextContent('Internal note for Blocked (not copied): Call compliance.');
    expect(editor.queryByRole('button', { name: /^Use the/ })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open your Waiting draft' })).toHaveAccessibleDescription(
      'Kept from before the status changed to Blocked.',
    );
    await user.click(screen.getByRole('button', { name: 'Open your Waiting draft' }));
    expect(box()).toHaveValue(edited);
  });

  it("takes the keyboard's focus to the new reply's text when the agent chooses it, not to the page behind (UX review)", async () => {
    const user = userEvent.setup();
    const { source, ...page } = await liveCandidate(SUPPORT);
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    page.current.status = 'approved';
    source.send(event());
    await user.click(await editor.findByRole('button', { name: 'Use the reply for Approved' }));
    // Before: the button went with its notice, and the focus fell to <body>.
    expect(document.activeElement).toBe(editor.getByRole('textbox', { name: 'Reply' }));
    expect((document.activeElement as HTMLTextAreaElement).value).toMatch(/^Good news: your identity verification has been approved/);
  });

  it("says a support user's recorded fields were read before a live change of status, not as the new status's (UX review, 29 November)", async () => {
    const meta = { ...liveMeta(), supportFields: ['rejectionReason', 'reviewReason'] };
    const page = showCandidate(SUPPORT, { meta, record: { ...waiting, customFields: { reviewReason: 'Address changed' } } });
    const card = await screen.findByRole('region', { name: 'What the service recorded' });
    expect(within(card).getByText('Review reason').closest('[data-field]')).toHaveTextContent('Address changed');
    expect(within(card).queryByTestId('support-fields-before-change')).not.toBeInTheDocument();
    const source = await stream();
    page.current.status = 'approved';
    source.send(event());
    // Before: "Not recorded: Rejection reason." under Approved, as if the service had recorded nothing with it.
    expect(await within(card).findByTestId('support-fields-before-change')).toHaveTextContent(
      'Read when the status was Waiting: what the service recorded with Approved shows once the page is refreshed (Refresh, above).',
    );
  });

  it('says the new status\'s support fields are not read yet after a live change, not "Nothing recorded" (UX review, Simulate → Reject)', async () => {
    const meta = { ...liveMeta(), supportFields: ['rejectionReason', 'resubmitHint'] };
    const page = showCandidate(SUPPORT, { meta, record: { ...waiting, customFields: {} } });
    const card = await screen.findByRole('region', { name: 'What the service recorded' });
    expect(card).toHaveTextContent(/^What the service recordedNothing recorded\.$/);
    const source = await stream();
    page.current.status = 'rejected';
    source.send(event({ event: 'review.rejected', status: 'rejected' }));
    await within(card).findByTestId('support-fields-before-change');
    // Before: "Nothing recorded: Rejection reason, Resubmit hint.", of a record read while the candidate was Waiting.
    expect(card).not.toHaveTextContent('Nothing recorded');
    expect(within(card).getByTestId('support-fields-not-read')).toHaveTextContent(
      /^Not read yet: Rejection reason, Resubmit hint \(Refresh to read them\)\.$/,
    );
    expect(within(card).queryByTestId('support-fields-not-recorded')).not.toBeInTheDocument();
  });

  it('re-checks the open candidate at status level when the stream says it could not send everything missed (resync), never the full record', async () => {
    const { source, ...page } = await liveCandidate();
    page.current.status = 'approved';
    act(() => void source.dispatchEvent(new MessageEvent('resync', { data: '{}', lastEventId: '9' })));
    await waitFor(() => expect(page.statusChecks()).toBe(1));
    // The change it missed is shown; the full record (an audited full lookup, megabytes) is not asked again.
    expect(await screen.findByTestId('status-toast')).toHaveTextContent(/^Waiting → Approved/);
    expect(page.lookups()).toBe(1);
  });

  it('re-checks the status at status level when an event names the open candidate, and shows it with where it came from', async () => {
    const { source, ...page } = await liveCandidate();
    expect(source.url).toBe('/api/events');
    page.current.status = 'approved';
    source.send(event());
    const line = await screen.findByTestId('live-status');
    expect(line).toHaveTextContent(/^Approved at .*10:42.* — from the KYC service$/);
    expect(page.statusChecks()).toBe(1);
    // Status level only: the record and its pictures were not fetched again.
    expect(page.lookups()).toBe(1);
    const header = screen.getByRole('heading', { level: 1 }).closest('header')!;
    expect(within(header).getByText('Approved')).toBeInTheDocument();
    expect(within(header).queryByText('Waiting')).not.toBeInTheDocument();
    // The timeline now has the approval.
    expect(screen.getByRole('heading', { name: /timeline|history/i }).closest('section')).toHaveTextContent('Approved');
    // And the tab's recent lookups say the status the page shows, not the one it was looked up with.
    await page.router.navigate('/');
    const recent = await screen.findByRole('region', { name: /Recent/ });
    expect(within(recent).getByRole('link', { name: new RegExp(waiting.refId!) })).toHaveTextContent('Approved');
    expect(recent).not.toHaveTextContent('Waiting');
  });

  it('says a reported change could not be checked, rather than nothing, and Refresh shows the candidate as it is now', async () => {
    const { source, ...page } = await liveCandidate();
    page.current.refused = true;
    source.send(event({ at: new Date().toISOString() }));
    const line = await screen.findByTestId('live-status');
    expect(line).toHaveTextContent(
      /^The KYC service reported a change to this candidate \(Approved\), received just now, but this page could not check it: The KYC service cannot be reached \(connection reset\)\. The page still shows the candidate as it was\.Refresh$/,
    );
    // The page says what it has: still waiting, as looked up.
    const header = screen.getByRole('heading', { level: 1 }).closest('header')!;
    expect(within(header).getByText('Waiting')).toBeInTheDocument();
    page.current.refused = false;
    page.current.status = 'approved';
    await userEvent.setup().click(within(line).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(page.lookups()).toBe(2));
    await waitFor(() => expect(screen.queryByTestId('live-status')).toBeNull());
  });

  it("the banner's date: a delivery carrying approvedDate shows that date, and when it was received", async () => {
    const { source, ...page } = await liveCandidate();
    page.current.status = 'approved';
    // The delivery as the service sends it, turned into the page's event by the server's own code, received now.
    const delivery = webhookDeliverySchema.parse({
      guid: 'g-banner',
      event: 'review.approved',
      status: 'approved',
      clientId: 'acme',
      refId: waiting.refId,
      recordId: waiting.recordId,
      approvedDate: '2021-01-14T11:00:00.000Z',
      env: 'prod',
      webhookId: null,
    });
    source.send(liveEventOf('default', delivery, new Date().toISOString()));
    const line = await screen.findByTestId('live-status');
    expect(line).toHaveTextContent(/^Approved at .* — from the KYC service, received just now$/);
    // The approval's own date, in the test's zone and the runtime's locale ("14 Jan 2021, 11:00 UTC" in en-GB).
    const approvedAt = line.querySelector('time')!;
    expect(approvedAt).toHaveAttribute('datetime', '2021-01-14T11:00:00.000Z');
    expect(approvedAt.textContent).toBe(formatDateTime(new Date('2021-01-14T11:00:00.000Z')));
    expect(approvedAt.textContent).toMatch(/14.*2021.*11:00.*UTC/);
    expect(line).not.toHaveTextContent(/10:42/);
  });

  it("keeps today's banner when the delivery gives no date, or a date of another status than the page found", async () => {
    const { source, ...page } = await liveCandidate();
    page.current.status = 'approved';
    // The service said "in review" on 14 Jan; by the re-check the candidate was approved: that date is not the approval's.
    source.send(event({ event: 'user.inReview', status: 'inreview', statusDate: '2021-01-14T11:00:00.000Z' }));
    const line = await screen.findByTestId('live-status');
    expect(line).toHaveTextContent(/^Approved at .*10:42.* — from the KYC service$/);
    expect(line).not.toHaveTextContent('2021');
  });

  it.each([
    ['1970-01-01T00:00:00.000Z', 'probably a placeholder, not a real date'],
    ['2999-01-01T00:00:00.000Z', 'dated in the future: doubtful'],
  ])(
    'a delivery dated %s: the banner and the notice tell the time it was received, and the date as sent with its doubt',
    async (date, doubt) => {
      const { source, ...page } = await liveCandidate();
      page.current.status = 'approved';
      const received = new Date().toISOString();
      source.send(event({ at: received, statusDate: date }));
      const line = await screen.findByTestId('live-status');
      expect(line).toHaveTextContent(`— from the KYC service; the service dates it ${date} (${doubt})`);
      expect(line.querySelector('time')).toHaveAttribute('datetime', received);
      const toast = await screen.findByTestId('status-toast');
      expect(toast).toHaveTextContent('Waiting → Approved');
      expect(toast.querySelector('time')).toHaveAttribute('datetime', received);
      expect(toast).not.toHaveTextContent(/year/);
    },
  );

  it('changes nothing for an event about another candidate, or of another environment', async () => {
    const { source, ...page } = await liveCandidate();
    page.current.status = 'approved';
    source.send(event({ refId: other.refId ?? null, recordId: other.recordId ?? null }));
    source.send(event({ environment: 'staging' }), '2');
    // The notifications list got both: the page had its chance to react to them.
    await waitFor(() => expect(screen.getByRole('button', { name: /Notifications/ })).toHaveTextContent('2'));
    expect(page.statusChecks()).toBe(0);
    expect(screen.queryByTestId('live-status')).not.toBeInTheDocument();
    const header = screen.getByRole('heading', { level: 1 }).closest('header')!;
    expect(within(header).getByText('Waiting')).toBeInTheDocument();
  });

  it('says the data is gone when the candidate was deleted, without a re-check that would fail', async () => {
    const { source, ...page } = await liveCandidate();
    source.send(event({ event: 'user.deleted', status: null }));
    expect(await screen.findByTestId('live-status')).toHaveTextContent(
      /The KYC service deleted this candidate at .*10:42.*: the data on this page is gone/,
    );
    expect(page.statusChecks()).toBe(0);
  });

  it('says identity data is gone when an event says the candidate was archived', async () => {
    const { source, ...page } = await liveCandidate();
    source.send(event({ event: 'user.inReview', status: 'inreview', isArchived: true }));
    expect(await screen.findByTestId('live-status')).toHaveTextContent(/archived this candidate's identity data/);
    expect(page.statusChecks()).toBe(0);
  });
});

function makeApplicants(): Applicant[] {
  return ['waiting', 'inreview', 'approved'].map((status, index) => ({
    status,
    isArchived: false,
    recordId: `rec-${index}`,
    refId: `ref-${index}`,
    blockPassID: `bp-${index}`,
  }));
}

/** The queue open with live updates: its candidates, the stream, and the queue's requests so far. */
async function liveQueue() {
  const applicants = makeApplicants();
  const { requests } = stubApi({ session: COMPLIANCE, meta: liveMeta(), applicants });
  renderWithProviders('/applicants');
  await screen.findByRole('table');
  const source = await stream();
  const views = () => requests.filter((r) => r.startsWith('/api/applicants'));
  return { applicants, source, views, before: views().length };
}

const HOUR = 3_600_000;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();

/** A queue in the index's order: the waiting oldest first, the approved newest first; an SLA of 24 h. */
function datedApplicants(): Applicant[] {
  const row = (id: string, status: string, hours: number): Applicant => ({
    status,
    isArchived: false,
    recordId: `rec-${id}`,
    refId: `ref-${id}`,
    since: hoursAgo(hours),
  });
  return [row('w1', 'waiting', 50), row('w2', 'waiting', 30), row('w3', 'waiting', 10), row('a1', 'approved', 1), row('a2', 'approved', 5)];
}

/** Two browser tabs of the same user, each with its own page of the queue open (its own cache and stream). */
async function twoQueuePages() {
  const applicants = datedApplicants();
  const { requests } = stubApi({
    session: COMPLIANCE,
    meta: liveMeta(),
    applicants,
    queueExtras: { waiting: { slaHours: 24, overSla: 2 }, approved: { slaHours: 24 } },
  });
  const waitingTab = renderWithProviders('/applicants?status=waiting');
  const waitingTable = await within(waitingTab.container).findByRole('table');
  window.history.replaceState(null, '', '/applicants?status=approved');
  const approvedTab = renderWithProviders('/applicants?status=approved');
  const approvedTable = await within(approvedTab.container).findByRole('table');
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2));
  for (const source of FakeEventSource.instances) source.open();
  const views = () => requests.filter((r) => r.startsWith('/api/applicants'));
  return { waitingTab, approvedTab, waitingTable, approvedTable, views };
}

/**
 * The waiting page (with `extras`), then w1's approval in the index and its event (`said` of it): a move
 * the page cannot apply as it is, so it asks for its view again (once the events' refetch window has
 * passed) and shows what the index has. Resolves once it has asked.
 */
async function approvalAfterTheFact(extras: NonNullable<QueueExtras[string]>, said: Partial<LiveEvent>) {
  const applicants = datedApplicants();
  const { requests } = stubApi({ session: COMPLIANCE, meta: liveMeta(), applicants, queueExtras: { waiting: extras } });
  const { container } = renderWithProviders('/applicants?status=waiting');
  const table = await within(container).findByRole('table');
  await stream();
  const views = () => requests.filter((r) => r.startsWith('/api/applicants'));
  const before = views().length;
  expect(rowIds(table)).toEqual(['ref-w1', 'ref-w2', 'ref-w3']);
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
  try {
    applicants[0]!.status = 'approved';
    FakeEventSource.instances[0]!.send(event({ refId: 'ref-w1', recordId: 'rec-w1', status: 'approved', since: hoursAgo(0), ...said }));
    await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_MS));
    await waitFor(() => expect(views().length).toBeGreaterThan(before));
    await waitFor(() => expect(rowIds(table)).toEqual(['ref-w2', 'ref-w3']));
  } finally {
    vi.useRealTimers();
  }
  return { table, container };
}

const rowIds = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).queryByText(/^ref-/)?.textContent);
const tabCount = (container: HTMLElement, tab: string) =>
  container.querySelector(`[data-tab="${tab}"] [data-count]`)?.getAttribute('data-count');
const overSla = (container: HTMLElement, tab: string) =>
  container.querySelector(`[data-tab="${tab}"] [data-over-sla]`)?.getAttribute('data-over-sla');

describe('live updates of the queue', { timeout: 20_000 }, () => {
  it('a webhook delivery moves its row on every open queue page, and the counts, without asking for the view again', async () => {
    const { waitingTab, approvedTab, waitingTable, approvedTable, views } = await twoQueuePages();
    expect(rowIds(waitingTable)).toEqual(['ref-w1', 'ref-w2', 'ref-w3']);
    expect(rowIds(approvedTable)).toEqual(['ref-a1', 'ref-a2']);
    expect(tabCount(waitingTab.container, 'waiting')).toBe('3');
    expect(overSla(waitingTab.container, 'waiting')).toBe('2');
    const before = views().length;
    // Fake timers that still run with the clock: the test steps past any coalescing window, waiting for nothing.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // What the server publishes once its re-check confirmed the approval: where its index had w1, and has it now.
      const approval = event({
        refId: 'ref-w1',
        recordId: 'rec-w1',
        status: 'approved',
        statusDate: hoursAgo(0),
        since: hoursAgo(0),
        previousStatus: 'waiting',
        previousSince: hoursAgo(50),
        at: new Date().toISOString(),
      });
      // The stream's listeners are the module's (one browser tab's): in this one document, one send reaches both pages.
      FakeEventSource.instances[0]!.send(approval);
      // The waiting page loses it (its count and its over-SLA count drop); the approved page has it first, newest first.
      await waitFor(() => expect(rowIds(waitingTable)).toEqual(['ref-w2', 'ref-w3']));
      await waitFor(() => expect(rowIds(approvedTable)).toEqual(['ref-w1', 'ref-a1', 'ref-a2']));
      for (const { container } of [waitingTab, approvedTab]) {
        expect(tabCount(container, 'waiting')).toBe('2');
        expect(tabCount(container, 'approved')).toBe('3');
        expect(tabCount(container, 'all')).toBe('5');
        expect(overSla(container, 'waiting')).toBe('1');
      }
      const moved = within(approvedTable).getByText('ref-w1').closest('tr')!;
      expect(moved).toHaveAttribute('data-changed', 'true');
      expect(within(moved).getByText('Approved')).toBeInTheDocument();
      // No view was asked again, then or after any coalescing window.
      await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_MS * 5));
      expect(views()).toHaveLength(before);
    } finally {
      vi.useRealTimers();
    }
    // The pages are stale: the next navigation reads them fresh.
    const cached = approvedTab.queryClient.getQueryCache().findAll({ queryKey: ['applicants', ''] });
    expect(cached.length).toBeGreaterThan(0);
    expect(cached.every((query) => query.isStale())).toBe(true);
  });

  it('a page read after the delivery was accepted, perhaps before the index learned it, is asked again rather than left without the change', async () => {
    // The page is read now; the delivery was accepted a second before, and the index learned it since.
    const read = new Date();
    const { table } = await approvalAfterTheFact(
      { index: { at: read.toISOString(), asOf: read.toISOString(), dated: 3, of: 3 } },
      { previousStatus: 'waiting', previousSince: hoursAgo(50), at: new Date(read.getTime() - 1000).toISOString() },
    );
    expect(rowIds(table)).toEqual(['ref-w2', 'ref-w3']);
  });

  it('an event whose row the page shows elsewhere than the index had it (the index learned the change first) is asked again, counts and all', async () => {
    // A lookup taught the index the approval before the delivery's check did: the event says approved → approved.
    const { table, container } = await approvalAfterTheFact(
      { slaHours: 24, overSla: 2 },
      { previousStatus: 'approved', previousSince: hoursAgo(0), at: new Date().toISOString() },
    );
    expect(rowIds(table)).toEqual(['ref-w2', 'ref-w3']);
    await waitFor(() => expect(tabCount(container, 'waiting')).toBe('2'));
    expect(tabCount(container, 'approved')).toBe('3');
  });

  it('says a change to screen readers as its row moves: the id and what happened', async () => {
    const { source } = await liveQueue();
    const said = screen.getByTestId('queue-live-said');
    expect(said).toHaveAttribute('aria-live', 'polite');
    expect(said).toBeEmptyDOMElement();
    source.send(event({ refId: 'ref-1', recordId: 'rec-1', event: 'user.readyToReview', status: 'waiting' }), '2');
    await waitFor(() => expect(said).toHaveTextContent(/^ref-1: Ready to review\.$/));
    // The same candidate again within the second: its latest change, not "2 candidates".
    source.send(event({ refId: 'ref-1', recordId: 'rec-1', event: 'user.blocked', status: 'blocked' }), '3');
    await waitFor(() => expect(said).toHaveTextContent(/^ref-1: Blocked\.$/));
  });

  it('an event the page cannot apply (no place: an older server) is one refetch of the view for a burst, not one per event', async () => {
    const { source, views, before } = await liveQueue();
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (let n = 0; n < 12; n++) source.send(event({ refId: `ref-${n % 3}`, recordId: `rec-${n % 3}` }), String(n + 2));
      await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_MS));
      await waitFor(() => expect(views()).toHaveLength(before + 1));
      // Every row of the burst stands out all the same.
      for (const id of ['ref-0', 'ref-1', 'ref-2']) expect(screen.getByText(id).closest('tr')).toHaveAttribute('data-changed', 'true');
      expect(screen.getByText('ref-0').closest('tr')).toHaveTextContent('(just updated)');
      // Said once for the burst (three candidates; the same event again is applied once), not once per event.
      expect(screen.getByTestId('queue-live-said')).toHaveTextContent(/^3 candidates changed in the queue\.$/);
      await act(() => vi.advanceTimersByTimeAsync(LIVE_REFETCH_MS * 5));
      expect(views().slice(before)).toEqual(['/api/applicants?skip=0&limit=50&counts=1']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the recent lookups', { timeout: 20_000 }, () => {
  it('follow a live update after the reviewer left the candidate page: the home page shows the new status', async () => {
    const { router, source } = await liveCandidate();
    await router.navigate('/');
    const recent = await screen.findByRole('region', { name: 'Recent lookups' });
    await waitFor(() => expect(within(recent).getByText(waiting.refId!).closest('li')).toHaveTextContent('Waiting'));
    source.send(event());
    await waitFor(() => expect(within(recent).getByText(waiting.refId!).closest('li')).toHaveTextContent('Approved'));
    // Another environment's candidate of that id is not this one.
    source.send(event({ environment: 'elsewhere', status: 'blocked', event: 'user.blocked' }), '2');
    expect(within(recent).getByText(waiting.refId!).closest('li')).toHaveTextContent('Approved');
  });
});

describe('the sample cards', { timeout: 20_000 }, () => {
  it("show a sample's status anew when a live update says it changed (a decision taken in another tab)", async () => {
    let status = 'waiting';
    const meta = (): ApiMeta => ({
      ...liveMeta(),
      samples: [{ kind: 'refId', id: 'crm-55102', status, summary: 'only name and e-mail so far' }],
    });
    stubApi({ session: COMPLIANCE, meta });
    renderWithProviders('/');
    const card = await screen.findByRole('link', { name: /crm-55102/ });
    expect(card).toHaveTextContent('Waiting');
    const source = await stream();
    status = 'approved';
    // Another candidate's event changes nothing here; the sample's reads the samples anew.
    source.send(event({ refId: 'someone-else', recordId: null }), '1');
    source.send(event({ refId: 'crm-55102', recordId: null }), '2');
    await waitFor(() => expect(screen.getByRole('link', { name: /crm-55102/ })).toHaveTextContent('Approved'));
  });
});

describe('the header', { timeout: 20_000 }, () => {
  it('says Live, Reconnecting… or Live updates off, in words', async () => {
    showCandidate();
    await screen.findByRole('heading', { level: 1 });
    const indicator = () => screen.getByTestId('live-indicator');
    const source = await stream();
    expect(screen.getByRole('status', { name: 'Live' })).toBe(indicator());
    source.fail(0);
    expect(screen.getByRole('status', { name: 'Reconnecting…' })).toBe(indicator());
    expect(indicator()).toHaveTextContent('Reconnecting…');
    source.open();
    expect(indicator()).toHaveTextContent(/^Live$/);
  });

  it('says Reconnecting…, not Live updates off, while a refused stream (the session store away) is opened anew, and re-checks the page once it opens', async () => {
    const page = showCandidate();
    await screen.findByRole('heading', { level: 1 });
    const indicator = () => screen.getByTestId('live-indicator');
    const source = await stream();
    const checks = page.statusChecks();
    // Redis is away: the server ends the stream and answers its reconnection 503, which the browser does not retry.
    source.fail(2);
    expect(indicator()).toHaveTextContent('Reconnecting…');
    expect(indicator()).not.toHaveTextContent('off');
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 5_000 });
    expect(indicator()).toHaveTextContent('Reconnecting…');
    FakeEventSource.instances[1]!.open();
    expect(indicator()).toHaveTextContent(/^Live$/);
    // The new stream has no Last-Event-ID to be replayed from: what happened meanwhile is read again.
    await waitFor(() => expect(page.statusChecks()).toBeGreaterThan(checks));
  });

  it('says Live updates off, not Reconnecting…, for a tab more than the five streams one user may hold (429), and opens once one is free', async () => {
    let full = true;
    const { requests } = stubApi({
      session: COMPLIANCE,
      meta: liveMeta(),
      candidates: {
        '/api/events': () =>
          full ? apiError(429, 'too_many_event_streams', 'You already have 5 live update streams open.') : json({ status: 'success' }),
      },
    });
    renderWithProviders('/');
    const indicator = () => screen.getByTestId('live-indicator');
    const source = await stream();
    // The browser is told no status: the page asks the server why, once, with a request of its own.
    source.fail(2);
    await waitFor(() => expect(indicator()).toHaveTextContent('Live updates off'));
    expect(requests.filter((url) => url === '/api/events')).toHaveLength(1);
    // Before: "Reconnecting…" for as long as the tab stayed open, though no restart was coming.
    expect(indicator()).not.toHaveTextContent('Reconnecting');
    full = false;
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 5_000 });
    FakeEventSource.instances[1]!.open();
    expect(indicator()).toHaveTextContent(/^Live$/);
  });

  it('says Live updates off when the environment has no live updates, its stream open all the same for presence', async () => {
    stubApi({ session: COMPLIANCE, meta: liveMeta(false) });
    renderWithProviders('/');
    await waitFor(() => expect(screen.getByTestId('live-indicator')).toHaveTextContent('Live updates off'));
    // Who else has a candidate open comes through the stream, webhooks or not.
    await stream();
    expect(screen.getByTestId('live-indicator')).toHaveTextContent('Live updates off');
  });

  it('closes the stream when the app goes (a sign-out unmounts what was signed in)', async () => {
    const { unmount, source } = await liveCandidate();
    unmount();
    expect(source.readyState).toBe(2);
  });

  it('closes the stream and forgets the notifications at sign-out', async () => {
    const user = userEvent.setup();
    let signedIn = true;
    stubApi({
      session: () =>
        new Response(JSON.stringify(signedIn ? { mode: 'users', user: 'ana', role: 'compliance' } : { mode: 'users' }), {
          headers: { 'content-type': 'application/json' },
        }),
      meta: liveMeta(),
    });
    renderWithProviders('/');
    const source = await stream();
    source.send(event({ refId: 'before-sign-out', recordId: null }));
    await waitFor(() => expect(screen.getByRole('button', { name: /Notifications/ })).toHaveTextContent('1'));
    signedIn = false;
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(source.readyState).toBe(2);
    expect(screen.queryByRole('button', { name: /Notifications/ })).not.toBeInTheDocument();
    // Nothing of the session that ended is left on the page.
    expect(document.body).not.toHaveTextContent('before-sign-out');
  });

  it(`keeps the last ${MAX_NOTIFICATIONS} events, newest first, in memory only, each a link to its candidate`, async () => {
    const user = userEvent.setup();
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const { router, source } = await liveCandidate();
    for (let n = 1; n <= MAX_NOTIFICATIONS + 5; n++) {
      source.send(event({ refId: `live-ref-${n}`, recordId: null, event: 'user.inReview', status: 'inreview' }), String(n));
    }
    await user.click(screen.getByRole('button', { name: /Notifications/ }));
    const list = screen.getByRole('region', { name: 'Notifications' });
    // The list is fetched the first time the menu opens.
    const items = await within(list).findAllByRole('listitem');
    expect(items).toHaveLength(MAX_NOTIFICATIONS);
    expect(items[0]).toHaveTextContent(`live-ref-${MAX_NOTIFICATIONS + 5}`);
    // The five oldest went.
    expect(list).not.toHaveTextContent(/live-ref-5\b/);
    expect(items.at(-1)).toHaveTextContent(/live-ref-6\b/);
    const stored = [
      ...setItem.mock.calls.map((call) => call.join(' ')),
      JSON.stringify({ ...sessionStorage }),
      JSON.stringify({ ...localStorage }),
    ];
    expect(stored.join(' ')).not.toMatch(/live-ref-/);
    await user.click(within(items[0]!).getByRole('link'));
    expect(router.state.location.pathname).toBe(`/candidates/refId/live-ref-${MAX_NOTIFICATIONS + 5}`);
  });

  it('names a candidate with both ids by its refId, the id people know, and opens it by its recordId', async () => {
    const user = userEvent.setup();
    const { router, source } = await liveCandidate();
    source.send(event({ refId: 'crm-77001', recordId: '65f1c2a9e4b0d3a1f0c9b999', event: 'review.approved', status: 'approved' }));
    await user.click(screen.getByRole('button', { name: /Notifications/ }));
    const item = await within(screen.getByRole('region', { name: 'Notifications' })).findByRole('listitem');
    expect(within(item).getByRole('link')).toHaveTextContent(/^Approved: crm-77001$/);
    expect(item).not.toHaveTextContent('65f1c2a9e4b0d3a1f0c9b999');
    await user.click(within(item).getByRole('link'));
    expect(router.state.location.pathname).toBe('/candidates/recordId/65f1c2a9e4b0d3a1f0c9b999');
  });

  it('closes the notifications panel on Escape, focus back on its button, and on a press outside it', async () => {
    const user = userEvent.setup();
    showCandidate();
    await screen.findByRole('heading', { level: 1 });
    const button = screen.getByRole('button', { name: /Notifications/ });
    await user.click(button);
    const panel = screen.getByRole('region', { name: 'Notifications' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(panel).not.toBeVisible();
    expect(button).toHaveFocus();
    await user.click(button);
    // A press inside the panel leaves it open.
    await user.click(panel);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // Focus moving out of it (Tab past its end, `/` to the search box) closes it too.
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    act(() => screen.getByRole('button', { name: 'Refresh' }).focus());
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('sets "ready to review" events apart for compliance users, and not for support users', async () => {
    for (const session of [COMPLIANCE, SUPPORT]) {
      const { unmount, source } = await liveCandidate(session);
      source.send(event({ event: 'user.readyToReview', status: 'waiting', refId: 'ready-1', recordId: null }));
      fireEvent.click(screen.getByRole('button', { name: /Notifications/ }));
      const item = await within(screen.getByRole('region', { name: 'Notifications' })).findByRole('listitem');
      if (session.role === 'compliance') expect(item).toHaveTextContent(/^Needs review: Ready to review/);
      else expect(item).not.toHaveTextContent('Needs review');
      unmount();
      FakeEventSource.instances = [];
    }
  });

  it('asks the browser for notifications only when the user turns them on, then shows each event', async () => {
    const shown: string[] = [];
    const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = requestPermission;
      constructor(title: string) {
        shown.push(title);
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    const user = userEvent.setup();
    const { source } = await liveCandidate();
    source.send(event({ refId: 'before-1', recordId: null }));
    expect(requestPermission).not.toHaveBeenCalled();
    expect(shown).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: /Notifications/ }));
    await user.click(await screen.findByRole('button', { name: 'Browser notifications' }));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    FakeNotification.permission = 'granted';
    await waitFor(() => expect(screen.getByRole('button', { name: 'Browser notifications' })).toHaveAttribute('aria-pressed', 'true'));
    source.send(event({ refId: 'after-1', recordId: null }), '2');
    expect(shown).toEqual(['Candidate Lookup: Approved']);
    await user.click(screen.getByRole('button', { name: 'Browser notifications' }));
  });

  it('has no serious axe violations with the indicator and the open notifications list', async () => {
    const user = userEvent.setup();
    const { source } = await liveCandidate();
    source.send(event({ event: 'user.readyToReview', status: 'waiting', refId: 'ready-2', recordId: null }));
    await user.click(screen.getByRole('button', { name: /Notifications/ }));
    await within(screen.getByRole('region', { name: 'Notifications' })).findByRole('listitem');
    const results = await axe.run(document.querySelector('header')!, { rules: { 'color-contrast': { enabled: false } } });
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    expect(serious).toEqual([]);
  });
});

describe('the simulate buttons', { timeout: 20_000 }, () => {
  function showIn(meta: ApiMeta) {
    const api = stubApi({
      session: COMPLIANCE,
      meta,
      candidates: {
        [`/api/candidates/refId/${encodeURIComponent(waiting.refId!)}`]: () => envelope(waiting),
        '/api/sandbox/simulate': () => new Response('{"status":"success"}', { headers: { 'content-type': 'application/json' } }),
      },
    });
    renderWithProviders(`/candidates/refId/${encodeURIComponent(waiting.refId!)}`);
    return api;
  }

  it('are offered in sandbox mode, and ask the sandbox to take the decision', async () => {
    const user = userEvent.setup();
    const { fetchMock } = showIn(testMeta({ upstream: 'sandbox' }));
    await screen.findByRole('heading', { level: 1 });
    const group = screen.getByRole('group', { name: 'Sandbox tool: simulate a decision' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Ready to review', 'Approve', 'Reject', 'Block']);
    await user.click(within(group).getByRole('button', { name: 'Approve' }));
    expect(await within(group).findByRole('status')).toHaveTextContent('The sandbox approved this candidate and sent its webhook.');
    await user.click(within(group).getByRole('button', { name: 'Ready to review' }));
    expect(await within(group).findByRole('status')).toHaveTextContent(
      'The sandbox marked this candidate ready to review and sent its webhook.',
    );
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/sandbox/simulate')!;
    expect(call[1]?.method).toBe('POST');
    expect(JSON.parse(String(call[1]?.body))).toEqual({ kind: 'refId', id: waiting.refId, action: 'approve' });
  });

  it('are absent with a real service', async () => {
    showIn(liveMeta());
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('group', { name: /Simulate/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });
});
