import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameKey } from '../../src/app/handoff/reply-frame.ts';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { candidatePersonName } from '../../src/kyc/contract/candidate-name.ts';
import { mergeReplyTemplates } from '../../src/kyc/contract/replies.ts';
import { type CandidateRecord, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';
import { exportsOf, openEditor, openFrameFields, showForReply } from './reply-fixture.ts';

/**
 * The support agent's loop (issue 33): replies that say what the record says, several templates per
 * status, the agent's own greeting and sign-off, an ended session that loses nothing, the tab's
 * title, the sign-in page's cursor and a masked print.
 */

const samples = (await sampleCandidates({ now: new Date(), pictures: false })).map((c) => c.record);
const byRef = (refId: string) => samples.find((r) => r.refId === refId)!;
const FIELDS = ['rejectionReason', 'reviewReason', 'resubmitHint'];
const SAM: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };
const HINT = 'Upload a proof of address from the last three months (a utility bill or bank statement) that shows the new address.';

/** A support user's answer, as the server gives it: the status level and the support fields. */
const forSupport = (record: CandidateRecord): CandidateRecord => ({
  ...statusLevelOf(record),
  customFields: Object.fromEntries(Object.entries(record.customFields ?? {}).filter(([name]) => FIELDS.includes(name))),
});

function show(record: CandidateRecord, options: { session?: SessionInfo; meta?: ReturnType<typeof testMeta> } = {}) {
  const session = options.session ?? SAM;
  const meta = options.meta ?? testMeta({ supportFields: FIELDS });
  return showForReply(record, { session, meta, answer: session.role === 'support' ? forSupport(record) : record });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('replies that say what the record says', { timeout: 20_000 }, () => {
  it('fills the review-requested reply with the recorded reason and hint, not only "we will let you know"', async () => {
    const user = userEvent.setup();
    show(byRef('support-ticket-4410'));
    const { text } = await openEditor(user);
    expect(text().value).toContain('The reason: Address changed\n');
    expect(text().value).toContain(`What to do: ${HINT}\n`);
  });

  it("offers a status's templates by name, each keeping its own edits, and audits the one copied", async () => {
    const user = userEvent.setup();
    const replyTemplates = mergeReplyTemplates({
      'review_requested:short': { name: 'Short', reply: 'Please look at your verification again. What to do: {field:resubmitHint}' },
    });
    const { fetchMock } = show(byRef('support-ticket-4410'), { meta: testMeta({ supportFields: FIELDS, replyTemplates }) });
    const { editor, text } = await openEditor(user);
    expect(within(editor).getByRole('radio', { name: 'Standard' })).toBeChecked();
    await user.type(text(), ' Edited.');
    await user.click(within(editor).getByRole('radio', { name: 'Short' }));
    expect(text()).toHaveValue(`Please look at your verification again. What to do: ${HINT}`);
    await user.click(within(editor).getByRole('radio', { name: 'Standard' }));
    expect(text().value.endsWith(' Edited.')).toBe(true);
    await user.click(within(editor).getByRole('radio', { name: 'Short' }));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`Please look at your verification again. What to do: ${HINT}`);
    expect(exportsOf(fetchMock).at(-1)).toEqual({
      what: 'reply',
      kind: 'refId',
      id: 'support-ticket-4410',
      template: 'review_requested:short',
    });
  });
});

describe('the greeting and sign-off', { timeout: 20_000 }, () => {
  it('is set once, kept in this browser for the user (no name, no candidate data), and framed around every reply', async () => {
    const user = userEvent.setup();
    show(byRef('support-ticket-4410'));
    const { editor, text, frame } = await openFrameFields(user);
    await user.type(frame.getByRole('textbox', { name: 'Greeting' }), 'Hello,');
    await user.type(frame.getByRole('textbox', { name: 'Sign-off' }), 'Kind regards,{Enter}Sam from Support');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText('Saved in this browser for your replies.')).toBeInTheDocument();
    expect(text().value.startsWith('Hello,\n\nYour identity verification is being reviewed again.')).toBe(true);
    expect(text().value.endsWith('Your reference: support-ticket-4410\n\nKind regards,\nSam from Support')).toBe(true);
    expect({ ...localStorage }).toEqual({
      [frameKey('sam')]: JSON.stringify({ greeting: 'Hello,', signOff: 'Kind regards,\nSam from Support' }),
    });
    expect(JSON.stringify({ ...localStorage })).not.toMatch(/support-ticket|Address changed|"sam"/);

    // The next reply starts framed.
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    const again = await openEditor(user);
    expect(again.text().value.startsWith('Hello,\n\n')).toBe(true);
  });

  it("refuses to keep a greeting that holds the candidate's id", async () => {
    const user = userEvent.setup();
    show(byRef('support-ticket-4410'));
    const { frame } = await openFrameFields(user);
    await user.type(frame.getByRole('textbox', { name: 'Greeting' }), 'About support-ticket-4410:');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText(/must not hold this candidate's id/)).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
  });
  it('attack: a greeting that names the customer is not saved to the browser', async () => {
    const user = userEvent.setup();
    show(byRef('support-ticket-4410'));
    const { frame, greeting } = await openFrameFields(user);
    await user.type(greeting, 'Hello Zoë Ångström, zoe.angstrom@example.se');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText(/must not hold an e-mail address.*"Hello," or "Dear customer,"/)).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
    // Nothing lost: the text stays for the agent to change.
    expect(greeting).toHaveValue('Hello Zoë Ångström, zoe.angstrom@example.se');

    // A phone number in the sign-off likewise; a general greeting is then kept.
    await user.clear(greeting);
    await user.type(greeting, 'Dear customer,');
    await user.type(frame.getByRole('textbox', { name: 'Sign-off' }), 'Call back on +46 70-123 45 67');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText(/must not hold a phone number/)).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
    await user.clear(frame.getByRole('textbox', { name: 'Sign-off' }));
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect({ ...localStorage }).toEqual({ [frameKey('sam')]: JSON.stringify({ greeting: 'Dear customer,', signOff: '' }) });
  });

  it("attack: a greeting naming the customer on a support user's page, which holds no name to compare with, is not saved", async () => {
    const user = userEvent.setup();
    // The record a support user gets: status level, no identities (the whole-diff review saved this one).
    show(byRef('support-ticket-4410'));
    const { frame, greeting } = await openFrameFields(user);
    await user.type(greeting, 'Hello Mehmet Yılmaz,');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText(/must not hold a person's name/)).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
    expect(greeting).toHaveValue('Hello Mehmet Yılmaz,');
    // Office hours and years in the sign-off are no phone number: kept.
    await user.clear(greeting);
    await user.type(greeting, 'Hello,');
    await user.type(frame.getByRole('textbox', { name: 'Sign-off' }), 'Sam, Support 2025-2026 (Mon-Fri 09.00-17.00)');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText('Saved in this browser for your replies.')).toBeInTheDocument();
  });

  it('attack: marks the field refused for an e-mail address, a phone number or a name, and checks it again as it is typed in', async () => {
    const user = userEvent.setup();
    show(byRef('support-ticket-4410'));
    const { frame, greeting } = await openFrameFields(user);
    const signOff = frame.getByRole('textbox', { name: 'Sign-off' });
    const save = frame.getByRole('button', { name: 'Save for my replies' });
    await user.type(greeting, 'Hello,');
    await user.type(signOff, 'Sam +46 70-123 45 67, sam@example.com');
    await user.click(save);
    const said = frame.getByText(/must not hold an e-mail address/);
    // The refused field is marked and described by why; the other is not (before: neither was).
    expect(signOff).toHaveAttribute('aria-invalid', 'true');
    expect(signOff).toHaveAccessibleDescription(said.textContent!);
    expect(greeting).not.toHaveAttribute('aria-invalid');
    expect(greeting).not.toHaveAccessibleDescription();

    // Still refused while typed in: the same words, the same node (no flicker); for another reason, that reason.
    await user.type(signOff, ' x');
    expect(frame.getByText(/must not hold an e-mail address/)).toBe(said);
    await user.type(signOff, '{Backspace>19/}');
    expect(signOff).toHaveValue('Sam +46 70-123 45 67');
    expect(said).toHaveTextContent(/must not hold a phone number/);
    expect(signOff).toHaveAttribute('aria-invalid', 'true');
    // Fixed: the refusal goes at once, and the mark with it (before: it stayed until the next save).
    await user.clear(signOff);
    await user.type(signOff, 'Sam');
    expect(frame.queryByText(/Not saved/)).not.toBeInTheDocument();
    expect(signOff).not.toHaveAttribute('aria-invalid');
    expect(signOff).not.toHaveAccessibleDescription();

    // A name in the greeting marks the greeting, and goes when it is made general.
    await user.clear(greeting);
    await user.type(greeting, 'Hello Mehmet Yılmaz,');
    await user.click(save);
    expect(greeting).toHaveAttribute('aria-invalid', 'true');
    expect(greeting).toHaveAccessibleDescription(/must not hold a person's name/);
    expect(signOff).not.toHaveAttribute('aria-invalid');
    await user.clear(greeting);
    await user.type(greeting, 'Hello,');
    expect(greeting).not.toHaveAttribute('aria-invalid');
    expect(frame.queryByText(/Not saved/)).not.toBeInTheDocument();
    await user.click(save);
    expect(frame.getByText('Saved in this browser for your replies.')).toBeInTheDocument();
  });

  it('lets go of a greeting kept before e-mail addresses were refused, and does not put it around the reply', async () => {
    const user = userEvent.setup();
    localStorage.setItem(frameKey('sam'), JSON.stringify({ greeting: 'Hello Zoë, zoe.angstrom@example.se', signOff: 'Sam' }));
    show(byRef('support-ticket-4410'));
    const { text } = await openEditor(user);
    expect(text().value.startsWith('Your identity verification is being reviewed again.')).toBe(true);
    expect(localStorage.length).toBe(0);
    // Said, not silent: the fields are open on why, so the agent saves a general one again.
    expect(
      screen.getByText(/Your saved greeting and sign-off were removed from this browser\. Not saved: .*an e-mail address/),
    ).toBeVisible();
  });

  it("refuses the candidate's name as a word of its own on a page whose record holds identities (a support user's never does)", async () => {
    const user = userEvent.setup();
    const record: CandidateRecord = {
      ...byRef('support-ticket-4410'),
      identities: {
        given_name: { type: 'string', value: 'Zoë' },
        family_name: { type: 'string', value: 'Ångström' },
      },
    };
    // A page whose record holds identities (a support user's never does: they stay on the server).
    showForReply(record, { session: SAM, meta: testMeta({ supportFields: FIELDS }) });
    const { frame, greeting } = await openFrameFields(user);
    // "ZOË" with a combining diaeresis is the same name.
    await user.type(greeting, 'Hi ZOE\u0308,');
    await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
    expect(frame.getByText(/must not hold this candidate's name or e-mail address/)).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
  });
});

describe('an ended session loses nothing', { timeout: 20_000 }, () => {
  it('keeps the draft in the reply editor, says so, signs the same user in again and then finishes the copy; the header changes at once', async () => {
    const user = userEvent.setup();
    const record = byRef('support-ticket-4410');
    let signedIn = true;
    const { fetchMock } = stubApi({
      session: () => json(signedIn ? SAM : { mode: 'users' }),
      meta: testMeta({ supportFields: FIELDS }),
      candidates: {
        [`/api/candidates/refId/${record.refId}`]: envelope(forSupport(record)),
        '/api/export': () => (signedIn ? json({ status: 'success' }) : apiError(401, 'unauthenticated', 'Sign in to look candidates up.')),
      },
    });
    const signIns: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/session' && init?.method === 'POST') {
        signIns.push(JSON.parse(String(init.body)));
        signedIn = true;
        return Promise.resolve(json(SAM));
      }
      return fetchMock(input, init);
    });
    renderWithProviders(`/candidates/refId/${record.refId}`);
    expect(await screen.findByTestId('session')).toHaveTextContent('sam');
    const { editor, text } = await openEditor(user);
    await user.type(text(), '\nP.S. drafted before the session ended.');
    const draft = text().value;

    // The session ends on the server (it idled out); the copy finds out.
    signedIn = false;
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    const notice = await within(editor).findByTestId('session-ended');
    expect(notice).toHaveTextContent('Your session has ended. Your reply is kept here, and is copied as soon as you have signed in again.');
    // The header no longer shows the user; the page and the draft are still there.
    await waitFor(() => expect(screen.getByTestId('session')).toHaveTextContent('Not signed in'));
    expect(screen.getByTestId('session')).not.toHaveTextContent('sam');
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(text()).toHaveValue(draft);

    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(notice).getByRole('button', { name: 'Sign in again' }));
    expect(within(notice).getByText(/Signing in as/)).toHaveTextContent('Signing in as sam');
    await user.type(within(notice).getByLabelText('Password'), 'pw{Enter}');
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(draft);
    expect(signIns).toEqual([{ username: 'sam', password: 'pw' }]);
    expect(screen.getByTestId('session')).toHaveTextContent('sam');
    expect(exportsOf(fetchMock).map((line) => line.template)).toEqual(['review_requested', 'review_requested']);
  });

  it('shows the sign-in page once nothing holds the page', async () => {
    const user = userEvent.setup();
    const record = byRef('support-ticket-4410');
    let signedIn = true;
    stubApi({
      session: () => json(signedIn ? SAM : { mode: 'users' }),
      meta: testMeta({ supportFields: FIELDS }),
      candidates: {
        [`/api/candidates/refId/${record.refId}`]: envelope(forSupport(record)),
        '/api/export': () => apiError(401, 'unauthenticated', 'Sign in to look candidates up.'),
      },
    });
    renderWithProviders(`/candidates/refId/${record.refId}`);
    const { editor } = await openEditor(user);
    signedIn = false;
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    await within(editor).findByTestId('session-ended');
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByText(HINT)).not.toBeInTheDocument();
    // Set by an effect once the candidate's page has gone: on a loaded machine a moment after the heading.
    await waitFor(() => expect(document.title).toBe('Candidate Lookup'));
  });
});

describe('an ended session during a batch', { timeout: 20_000 }, () => {
  it('keeps the list on the page, offers to sign in again, then goes on with the ids left', async () => {
    const user = userEvent.setup();
    let signedIn = true;
    const batches: unknown[] = [];
    const row = (index: number, refId: string) => ({ type: 'row', index, ok: true, status: 'approved', refId, recordId: null });
    const { fetchMock } = stubApi({
      session: () => json(signedIn ? SAM : { mode: 'users' }),
      candidates: {
        '/api/batch': () => {
          if (!signedIn) return apiError(401, 'unauthenticated', 'Sign in to look candidates up.');
          const lines = [row(0, 'a'), row(1, 'b'), { type: 'done', found: 2, failed: 0 }];
          return new Response(lines.map((line) => `${JSON.stringify(line)}\n`).join(''), {
            headers: { 'content-type': 'application/x-ndjson' },
          });
        },
      },
    });
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/session' && init?.method === 'POST') {
        signedIn = true;
        return Promise.resolve(json(SAM));
      }
      if (String(input) === '/api/batch') batches.push(JSON.parse(String(init?.body)));
      return fetchMock(input, init);
    });
    renderWithProviders('/batch');
    const box = await screen.findByRole('textbox', { name: 'refIds to look up' }, { timeout: 10_000 });
    await user.click(box);
    await user.paste('a\nb');
    signedIn = false;
    await user.click(screen.getByRole('button', { name: 'Look up all' }));
    const notice = await screen.findByTestId('session-ended');
    expect(notice).toHaveTextContent('The list and the rows already found stay here');
    expect(box).toHaveValue('a\nb');
    await user.click(within(notice).getByRole('button', { name: 'Sign in again' }));
    await user.type(within(notice).getByLabelText('Password'), 'pw{Enter}');
    expect(await screen.findByText('Done: 2 found, 0 not found, 0 failed.')).toBeInTheDocument();
    expect(batches).toEqual([
      { kind: 'refId', ids: ['a', 'b'] },
      { kind: 'refId', ids: ['a', 'b'] },
    ]);
  });
});

describe("the tab's title", { timeout: 20_000 }, () => {
  it.each([
    ['a compliance user', 'compliance'],
    ['a lead, whose page heading names them too', 'lead'],
  ] as const)('names the candidate and the status for %s', async (_who, role) => {
    const record = byRef('cust_000482');
    show(record, { session: { mode: 'proxy', user: 'ana', role } });
    const name = candidatePersonName(record)!.full;
    await screen.findByRole('heading', { level: 1, name: new RegExp(name) });
    await waitFor(() => expect(document.title).toBe(`${name} — In review — Candidate Lookup`));
  });

  it("names a support user's candidate by what they see, the refId, never a name", async () => {
    const record = byRef('support-ticket-4410');
    show(record);
    await screen.findByRole('heading', { level: 1, name: 'support-ticket-4410' });
    await waitFor(() => expect(document.title).toBe('support-ticket-4410 — Review requested — Candidate Lookup'));
    expect(document.title).not.toContain(candidatePersonName(record)!.full);
    expect(document.title).not.toContain('Siob');
  });

  it('leaves out characters that would turn the title around', async () => {
    const record = { ...byRef('cust_000482'), recordId: '65f1c2a9e4b0d3a1f0c9b801', refId: 'evil\u202eexe.txt\u0007' };
    stubApi({
      session: SAM,
      meta: testMeta({ supportFields: FIELDS }),
      candidates: { '/api/candidates/recordId/65f1c2a9e4b0d3a1f0c9b801': envelope(forSupport(record)) },
    });
    renderWithProviders('/candidates/recordId/65f1c2a9e4b0d3a1f0c9b801');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(document.title).toBe('evilexe.txt — In review — Candidate Lookup'));
  });
});

describe('the sign-in page', () => {
  it('puts the cursor in Username', async () => {
    stubApi({ session: { mode: 'users' } });
    renderWithProviders('/');
    const username = await screen.findByRole('textbox', { name: 'Username' });
    await waitFor(() => expect(username).toHaveFocus());
  });
});

describe('a masked print', { timeout: 20_000 }, () => {
  it('says on paper that it was masked, and so does its audit line', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(byRef('user-7781'), { session: { mode: 'proxy', user: 'ana', role: 'compliance' } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByTestId('print-masked')).not.toBeInTheDocument();
    fireEvent(window, new Event('beforeprint'));
    await waitFor(() => expect(exportsOf(fetchMock)).toEqual([{ what: 'print', kind: 'refId', id: 'user-7781' }]));

    await user.click(screen.getByRole('button', { name: 'Privacy mask' }));
    expect(screen.getByTestId('print-header')).toHaveTextContent('Printed with the privacy mask on');
    fireEvent(window, new Event('beforeprint'));
    await waitFor(() => expect(exportsOf(fetchMock).at(-1)).toEqual({ what: 'print', kind: 'refId', id: 'user-7781', masked: true }));
  });
});
