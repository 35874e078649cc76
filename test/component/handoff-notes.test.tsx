import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { mergeReplyTemplates } from '../../src/kyc/contract/replies.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { recordForScope } from '../../src/server/sandbox/sandbox.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

/**
 * What the hand-off bar and the reply editor say of a copy or print whose line was refused or marked
 * (UX review in Chromium): a copy refused because the page's lookup is too old offers Refresh beside its
 * message and the message goes with the new answer; the bar says one message, not one per button; a
 * print says how its line was recorded, or that it was not, after the paper printed.
 */
const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const blocked = samples.find((r) => r.refId === 'user-7781')!;
const waiting = samples.find((r) => r.refId === '8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33')!;
const SUPPORT: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };
const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const TOO_OLD = "This page's lookup is too old to record a copy: press Refresh, then copy again.";
const AUDIT_DOWN = 'The audit log is not answering, so lookups are refused for now.';

/** The candidate page, its exports answered in turn by `exports` (the last one again and again). */
function show(record: CandidateRecord, exports: Array<() => Response>, session: SessionInfo = COMPLIANCE) {
  const path = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
  let exported = 0;
  const api = stubApi({
    session,
    meta: testMeta({ replyTemplates: mergeReplyTemplates({ waiting: 'We have your documents for {refId}.' }) }),
    candidates: {
      [path]: () => envelope(session.role === 'support' ? recordForScope(record, 'status') : record),
      '/api/export': () => exports[Math.min(exported++, exports.length - 1)]!(),
    },
  });
  renderWithProviders(`/candidates/refId/${encodeURIComponent(record.refId!)}`);
  return {
    lookups: () => api.requests.filter((url) => url === path).length,
    exports: () => api.requests.filter((url) => url === '/api/export').length,
  };
}

const tooOld = () => apiError(409, 'not_looked_up', TOO_OLD);
const recorded = () => json({ status: 'success' });
const printed = () => {
  vi.stubGlobal(
    'print',
    vi.fn(() => window.dispatchEvent(new Event('beforeprint'))),
  );
  return userEvent.setup().click(screen.getByRole('button', { name: 'Print' }));
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a copy refused because the page lookup is too old', { timeout: 20_000 }, () => {
  it('offers Refresh beside its message; the new lookup takes the message away, the focus back to Copy summary, and the copy then goes', async () => {
    const user = userEvent.setup();
    const { lookups } = show(blocked, [tooOld, recorded]);
    await screen.findByRole('heading', { level: 1 });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    const note = await screen.findByTestId('hand-off-note');
    await waitFor(() => expect(note).toHaveTextContent(TOO_OLD));
    // Before, the message stood alone, beside Copy summary, and stayed after the page's Refresh.
    const refresh = within(note.parentElement!).getByRole('button', { name: 'Refresh' });
    await user.click(refresh);
    await waitFor(() => expect(lookups()).toBe(2));
    await waitFor(() => expect(note).toHaveTextContent(''));
    expect(within(note.parentElement!).queryByRole('button')).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy summary' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    expect(await screen.findByText('Summary copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledTimes(1);
  });

  it("goes when the page's own Refresh brings a new answer, too", async () => {
    const user = userEvent.setup();
    const { lookups } = show(blocked, [tooOld]);
    await screen.findByRole('heading', { level: 1 });
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    await waitFor(() => expect(screen.getByTestId('hand-off-note')).toHaveTextContent(TOO_OLD));
    await user.click(within(screen.getByTestId('fetched-at').parentElement!).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(lookups()).toBe(2));
    await waitFor(() => expect(screen.getByTestId('hand-off-note')).toHaveTextContent(''));
  });

  it("in the reply editor, offers Refresh beside it and keeps the agent's reply; the copy then goes with their edit", async () => {
    const user = userEvent.setup();
    const { lookups } = show(waiting, [tooOld, recorded], SUPPORT);
    await screen.findByRole('heading', { level: 1 });
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    await user.type(editor.getByRole('textbox', { name: 'Reply' }), ' MY EDIT');
    await user.click(editor.getByRole('button', { name: 'Copy' }));
    expect(await editor.findByRole('alert')).toHaveTextContent(TOO_OLD);
    await user.click(editor.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(lookups()).toBe(2));
    await waitFor(() => expect(editor.queryByRole('alert')).toBeNull());
    expect(editor.getByRole('button', { name: 'Copy' })).toHaveFocus();
    expect((editor.getByRole('textbox', { name: 'Reply' }) as HTMLTextAreaElement).value).toMatch(/ MY EDIT$/);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(editor.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(expect.stringMatching(/ MY EDIT$/)));
  });
});

describe("the hand-off bar's one message", { timeout: 20_000 }, () => {
  it('says a refusal once for the bar, the latest, where Print and Copy summary each said theirs (two lines at 390 px)', async () => {
    const user = userEvent.setup();
    show(blocked, [() => apiError(503, 'audit_unavailable', AUDIT_DOWN)]);
    await screen.findByRole('heading', { level: 1 });
    await printed();
    await waitFor(() =>
      expect(screen.getByTestId('hand-off-note')).toHaveTextContent(`This print was not recorded in the audit log: ${AUDIT_DOWN}`),
    );
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    await waitFor(() => expect(screen.getByTestId('hand-off-note')).toHaveTextContent(new RegExp(`^${AUDIT_DOWN}$`)));
    expect(screen.getAllByText(AUDIT_DOWN, { exact: false })).toHaveLength(1);
  });

  it('says of a print recorded as not looked up lately that it was, with Refresh, and of one whose check could not be made that it could not', async () => {
    show(blocked, [() => json({ status: 'success', notLookedUp: true }), () => json({ status: 'success', openedUnknown: true })]);
    await screen.findByRole('heading', { level: 1 });
    await printed();
    const note = screen.getByTestId('hand-off-note');
    await waitFor(() => expect(note).toHaveTextContent('This print was recorded as not looked up lately.'));
    expect(within(note.parentElement!).getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    await printed();
    await waitFor(() =>
      expect(note).toHaveTextContent('This print was recorded, but whether you looked this candidate up lately could not be checked.'),
    );
    expect(within(note.parentElement!).queryByRole('button')).toBeNull();
  });

  it('says nothing of a print recorded plainly', async () => {
    const { exports } = show(blocked, [recorded]);
    await screen.findByRole('heading', { level: 1 });
    await printed();
    await waitFor(() => expect(exports()).toBe(1));
    await act(async () => {});
    expect(screen.getByTestId('hand-off-note')).toHaveTextContent('');
  });
});
