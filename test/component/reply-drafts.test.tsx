import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { mergeReplyTemplates } from '../../src/kyc/contract/replies.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { recordForScope } from '../../src/server/sandbox/sandbox.ts';
import { HandOffBar } from '../../src/app/handoff/hand-off-bar.tsx';
import { sessionQueries } from '../../src/app/session/session-query.ts';
import { envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';
import { exportsOf, openEditor } from './reply-fixture.ts';

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const waiting = recordForScope(samples.find((r) => r.refId === '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33')!, 'status');
// Another candidate with the same status, so the same template: only whose draft it is tells them apart.
const neighbour: CandidateRecord = { ...waiting, refId: 'neighbour-0042', recordId: '0123456789abcdef01234567', blockPassID: 'bp-n' };
const SUPPORT: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };
const replyTemplates = mergeReplyTemplates({
  waiting: 'We have your documents for {refId}.',
  approved: 'You are approved, {refId}.',
  // The general reply: what a status without its own (one this tool does not know) is given.
  '*': 'Your verification is {status}: we will write to you about {refId}.',
});
const EDIT = ' We will write within two days.';
const pathOf = (record: CandidateRecord) => `/candidates/refId/${encodeURIComponent(record.refId!)}`;

/** A support agent on `waiting`'s page; `status` is what the service says of it at each lookup (`waiting` unless the test says another). */
function showWaiting(options: { signedIn?: () => boolean; status?: string; templates?: typeof replyTemplates } = {}) {
  const state = { status: options.status ?? 'waiting' };
  const signedIn = options.signedIn ?? (() => true);
  const api = stubApi({
    session: () => json(signedIn() ? SUPPORT : { mode: 'users' }),
    meta: testMeta({ replyTemplates: options.templates ?? replyTemplates }),
    candidates: {
      [`/api${pathOf(waiting)}`]: () => envelope({ ...waiting, status: state.status }),
      [`/api${pathOf(neighbour)}`]: () => envelope(neighbour),
      '/api/export': () => json({ status: 'success' }),
    },
  });
  return { ...api, ...renderWithProviders(pathOf(waiting)), state };
}

const heading = (record: CandidateRecord) => screen.findByRole('heading', { level: 1, name: record.refId! });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a support agent's reply draft, kept while the tab is open (UX review)", { timeout: 30_000 }, () => {
  it('is there after Back and forward again, with the editor left open, and after another candidate and back', async () => {
    const user = userEvent.setup();
    const { router } = showWaiting();
    await heading(waiting);
    const template = `We have your documents for ${waiting.refId}.`;
    await user.type((await openEditor(user)).text(), EDIT);
    // Left with the editor open: the browser's Back closes it without Cancel.
    await router.navigate('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    await router.navigate(-1);
    await heading(waiting);
    let editor = await openEditor(user);
    expect(editor.text()).toHaveValue(`${template}${EDIT}`);
    expect(within(editor.editor).getByTestId('reply-kept-edits')).toHaveTextContent(
      // Before: "while this tab is open", where a reload in the same tab loses them (in memory only).
      'Your edits are kept until you reload or close this tab, copy the reply or sign out.',
    );
    await user.click(within(editor.editor).getByRole('button', { name: 'Cancel' }));

    // Another candidate, with the same template: theirs starts from it.
    await router.navigate(pathOf(neighbour));
    await heading(neighbour);
    editor = await openEditor(user);
    expect(editor.text()).toHaveValue(`We have your documents for ${neighbour.refId}.`);
    expect(within(editor.editor).queryByTestId('reply-kept-edits')).not.toBeInTheDocument();
    await user.click(within(editor.editor).getByRole('button', { name: 'Cancel' }));
    await router.navigate(-1);
    await heading(waiting);
    expect((await openEditor(user)).text()).toHaveValue(`${template}${EDIT}`);
  });

  it('lives in memory only: nothing of it reaches localStorage, sessionStorage, the address or the history entry', async () => {
    const user = userEvent.setup();
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const { router } = showWaiting();
    await heading(waiting);
    await user.type((await openEditor(user)).text(), EDIT);
    await user.keyboard('{Escape}');
    await router.navigate('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    await router.navigate(-1);
    await heading(waiting);
    expect((await openEditor(user)).text()).toHaveValue(`We have your documents for ${waiting.refId}.${EDIT}`);
    const written = setItem.mock.calls.map(([key, value]) => `${key}=${value}`);
    expect(written.filter((entry) => entry.includes('within two days'))).toEqual([]);
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) expect(storage.getItem(storage.key(i)!)).not.toContain('within two days');
    }
    expect(window.location.href).not.toContain('within');
    expect(JSON.stringify(window.history.state ?? null)).not.toContain('within two days');
  });

  it('made for one status, comes back after the status changed while the agent was away: the editor says so and offers the new reply', async () => {
    const user = userEvent.setup();
    const { router, state } = showWaiting();
    await heading(waiting);
    await user.type((await openEditor(user)).text(), EDIT);
    await user.keyboard('{Escape}');
    await router.navigate('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    state.status = 'approved';
    await router.navigate(-1);
    await heading(waiting);
    const editor = await openEditor(user);
    expect(editor.text()).toHaveValue(`We have your documents for ${waiting.refId}.${EDIT}`);
    expect(
      within(editor.editor).getByText(
        /The candidate's status changed since this reply was filled in\. The text below is still the reply for Waiting/,
      ),
    ).toBeVisible();
    await user.click(within(editor.editor).getByRole('button', { name: 'Use the reply for Approved' }));
    expect(editor.text()).toHaveValue(`You are approved, ${waiting.refId}.`);
  });

  it('written with the general reply for one status, says so once the candidate is in another, and starts again from the general reply for it', async () => {
    const user = userEvent.setup();
    // Two statuses this tool does not know: both are given the general reply, the same template.
    const { router, state } = showWaiting({ status: 'on_hold' });
    await heading(waiting);
    let editor = await openEditor(user);
    const written = `Your verification is on_hold: we will write to you about ${waiting.refId}.${EDIT}`;
    await user.type(editor.text(), EDIT);
    expect(editor.text()).toHaveValue(written);
    await user.keyboard('{Escape}');
    await router.navigate('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    state.status = 'escalated';
    await router.navigate(-1);
    await heading(waiting);
    // Before: the text written for on_hold, under escalated, without a word.
    editor = await openEditor(user);
    expect(editor.text()).toHaveValue(written);
    expect(
      within(editor.editor).getByText(
        /The candidate's status changed since this reply was filled in\. The text below is still the general reply for on_hold, as you left it\./,
      ),
    ).toBeVisible();
    await user.click(within(editor.editor).getByRole('button', { name: 'Use the general reply for escalated' }));
    expect(editor.text()).toHaveValue(`Your verification is escalated: we will write to you about ${waiting.refId}.`);
    expect(within(editor.editor).queryByTestId('reply-kept-edits')).not.toBeInTheDocument();
    // The text written for on_hold is not carried into escalated's reply when the editor is opened again either.
    await user.keyboard('{Escape}');
    editor = await openEditor(user);
    expect(editor.text()).toHaveValue(`Your verification is escalated: we will write to you about ${waiting.refId}.`);
    expect(within(editor.editor).queryByRole('button', { name: /^Use the/ })).not.toBeInTheDocument();
  });

  it('is forgotten once the reply is copied, and at sign-out', async () => {
    const user = userEvent.setup();
    let signedIn = true;
    const { router } = showWaiting({ signedIn: () => signedIn });
    await heading(waiting);
    const template = `We have your documents for ${waiting.refId}.`;
    vi.spyOn(navigator.clipboard, 'writeText');
    let editor = await openEditor(user);
    await user.type(editor.text(), EDIT);
    await user.click(within(editor.editor).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    await router.navigate('/');
    await router.navigate(-1);
    await heading(waiting);
    editor = await openEditor(user);
    expect(editor.text()).toHaveValue(template);

    await user.type(editor.text(), EDIT);
    await user.keyboard('{Escape}');
    // The app started again in the same tab (its memory kept): the draft is there…
    cleanup();
    showWaiting({ signedIn: () => signedIn });
    await heading(waiting);
    expect((await openEditor(user)).text()).toHaveValue(`${template}${EDIT}`);
    await user.keyboard('{Escape}');
    // …until the agent signs out.
    signedIn = false;
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    signedIn = true;
    cleanup();
    showWaiting({ signedIn: () => signedIn });
    await heading(waiting);
    editor = await openEditor(user);
    await waitFor(() => expect(editor.text()).toHaveValue(template));
    expect(within(editor.editor).queryByTestId('reply-kept-edits')).not.toBeInTheDocument();
  });
});

describe('whose reply draft it is', { timeout: 30_000 }, () => {
  it('attack: another user signed in on the same tab sees no draft of the previous one', async () => {
    const user = userEvent.setup();
    const SAM: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };
    const ANA: SessionInfo = { mode: 'proxy', user: 'ana', role: 'support' };
    // Who the sign-in gateway says is there: sam, then ana (the proxy's user header changed).
    let signedIn = SAM;
    stubApi({ session: () => json(signedIn), candidates: { '/api/export': () => json({ status: 'success' }) } });
    // The candidate page's hand-off bar, told who is signed in as the page is. The page in the app is
    // shown anew today when the user changes (the shell empties the cache, and the record is fetched
    // again), but whose drafts they are must not hang on that: the bar is the one that holds them.
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const bar = (session: SessionInfo) => {
      const page = {
        record: waiting,
        kind: 'refId',
        id: waiting.refId!,
        info: testMeta().environment,
        role: 'support',
        replyTemplates,
      } as const;
      return (
        <QueryClientProvider client={queryClient}>
          <HandOffBar {...page} environment={undefined} user={session.user} decisionFields={[]} />
        </QueryClientProvider>
      );
    };
    const { rerender } = render(bar(SAM));
    const template = `We have your documents for ${waiting.refId}.`;
    let editor = await openEditor(user);
    await user.type(editor.text(), EDIT);
    await user.keyboard('{Escape}');
    expect((await openEditor(user)).text()).toHaveValue(`${template}${EDIT}`);
    await user.keyboard('{Escape}');

    // The session asked again (a call refused, the live stream dropped): ana now.
    signedIn = ANA;
    await act(() => queryClient.refetchQueries({ queryKey: sessionQueries.all() }));
    rerender(bar(ANA));
    // Before: sam's draft in ana's editor, with "Your edits are kept".
    editor = await openEditor(user);
    expect(editor.text()).toHaveValue(template);
    expect(within(editor.editor).queryByTestId('reply-kept-edits')).not.toBeInTheDocument();
    // Nor does ana's editing bring it back, or keep it under her name.
    await user.type(editor.text(), ' Ana here.');
    await user.keyboard('{Escape}');
    expect((await openEditor(user)).text()).toHaveValue(`${template} Ana here.`);
    expect(document.body).not.toHaveTextContent('within two days');
  });
});

describe('a reply draft for a status before one with no reply', { timeout: 30_000 }, () => {
  // The file takes blocked's replies away (its neutral one too): the status has an internal note and no reply.
  const noBlockedReply = mergeReplyTemplates({
    waiting: 'We have your documents for {refId}.',
    blocked: { reply: null, note: 'Call compliance.' },
  });
  const written = `We have your documents for ${waiting.refId}.${EDIT}`;
  // The button that opens the editor on the draft, where the status has no reply of its own.
  const DRAFT = 'Open your Waiting draft';
  // Either name the button goes by: once the draft is copied or let go, it is gone under both.
  const OFFERED = /^(Copy reply|Open your)/;

  /** The agent edits waiting's reply and leaves; the candidate is blocked when they come back. */
  async function draftThenBlocked(user: ReturnType<typeof userEvent.setup>) {
    const page = showWaiting({ templates: noBlockedReply });
    await heading(waiting);
    await user.type((await openEditor(user)).text(), EDIT);
    await user.keyboard('{Escape}');
    await page.router.navigate('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    page.state.status = 'blocked';
    await page.router.navigate(-1);
    await heading(waiting);
    return page;
  }

  it('is still shown, says it was written for the status before, and is copied only once the agent says so', async () => {
    const user = userEvent.setup();
    const page = await draftThenBlocked(user);
    expect(screen.getByTestId('reply-note')).toHaveTextContent('No customer reply for this status. Internal note: Call compliance.');
    // Named for what it opens: "Copy reply" beside "No customer reply for this status." read as a contradiction.
    expect(screen.getByRole('button', { name: 'Open your Waiting draft' })).toHaveAccessibleDescription(
      'Kept from before the status changed to Blocked.',
    );
    const editor = await openEditor(user, DRAFT);
    expect(editor.text()).toHaveValue(written);
    expect(
      within(editor.editor).getByText(
        /The candidate's status changed since this reply was filled in\. The text below is still the reply for Waiting/,
      ),
    ).toBeVisible();
    expect(within(editor.editor).getByText('Blocked has no customer reply.')).toBeVisible();
    expect(within(editor.editor).getByTestId('reply-current-note')).toHaveTextContent(
      'Internal note for Blocked (not copied): Call compliance.',
    );
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(editor.editor).getByRole('button', { name: 'Copy' }));
    const question = within(editor.editor).getByRole('group', {
      name: /The candidate is Blocked now, and this text is still the reply for Waiting/,
    });
    expect(writeText).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(within(question).getByRole('button', { name: 'Keep editing' }));
    await user.click(within(question).getByRole('button', { name: 'Copy the Waiting text anyway' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(written));
    expect(exportsOf(page.fetchMock)).toEqual([{ what: 'reply', kind: 'refId', id: waiting.refId, template: 'waiting' }]);
    // Copied, the draft is gone, and with it the button: the focus goes to the status's note, not to the page's <body>.
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: OFFERED })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('reply-note')).toHaveFocus());
  });

  it('opens with the focus in the draft, described by the notice: a second Enter does not discard it', async () => {
    const user = userEvent.setup();
    await draftThenBlocked(user);
    screen.getByRole('button', { name: DRAFT }).focus();
    await user.keyboard('{Enter}');
    const editor = screen.getByRole('dialog', { name: 'Reply to the customer' });
    const text = within(editor).getByRole('textbox', { name: 'Reply' });
    // Before: the focus on the dialog's first button, "Discard the Waiting text".
    expect(text).toHaveFocus();
    expect(text).toHaveAccessibleDescription(
      /still the reply for Waiting, as you left it\. Blocked has no customer reply\. Internal note for Blocked \(not copied\): Call compliance\.$/,
    );
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog', { name: 'Reply to the customer' })).toBeInTheDocument();
    expect((text as HTMLTextAreaElement).value).toContain(written);
    expect(screen.queryByText('Draft discarded')).not.toBeInTheDocument();
  });

  it('can be discarded: nothing copied, nothing audited, and the page as it is without a draft', async () => {
    const user = userEvent.setup();
    const page = await draftThenBlocked(user);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const editor = await openEditor(user, DRAFT);
    await user.click(within(editor.editor).getByRole('button', { name: 'Discard the Waiting text' }));
    expect(screen.queryByTestId('reply-editor')).not.toBeInTheDocument();
    expect(await screen.findByText('Draft discarded')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: OFFERED })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('reply-note')).toHaveFocus());
    expect(writeText).not.toHaveBeenCalled();
    expect(exportsOf(page.fetchMock)).toEqual([]);
    // Gone for good: back again, still no Copy reply.
    await page.router.navigate('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    await page.router.navigate(-1);
    await heading(waiting);
    expect(screen.getByTestId('reply-note')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: OFFERED })).not.toBeInTheDocument();
  });

  it("names the template it restores as the status before's, asks before the edits go, and says so after (UX review)", async () => {
    const user = userEvent.setup();
    await draftThenBlocked(user);
    const editor = await openEditor(user, DRAFT);
    const inEditor = within(editor.editor);
    // Before: "Start again from the template", which read as Blocked's, refilled Waiting's.
    expect(inEditor.queryByRole('button', { name: 'Start again from the template' })).not.toBeInTheDocument();
    await user.click(inEditor.getByRole('button', { name: 'Restore the Waiting template' }));
    // Before: the edits gone in that one press.
    expect(editor.text()).toHaveValue(written);
    const question = inEditor.getByRole('group', { name: 'Replace your edits with the Waiting template? They cannot be brought back.' });
    expect(within(question).getByRole('button', { name: 'Keep my edits' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(editor.text()).toHaveValue(written);
    expect(editor.text()).toHaveFocus();

    await user.click(inEditor.getByRole('button', { name: 'Restore the Waiting template' }));
    await user.click(inEditor.getByRole('button', { name: 'Replace my edits' }));
    expect(editor.text()).toHaveValue(`We have your documents for ${waiting.refId}.`);
    expect(editor.text()).toHaveFocus();
    // Before: "…still the reply for Waiting, as you left it", of the template's text.
    expect(inEditor.getByText(/The text below is still the reply for Waiting, from its template\.$/)).toBeVisible();
    expect(inEditor.queryByText(/as you left it/)).not.toBeInTheDocument();
  });
});
