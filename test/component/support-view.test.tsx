import { shortcutsFor } from '../../src/app/layout/keyboard-help.tsx';
import { searchShortcuts } from '../../src/app/lookup/use-search-shortcut.ts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { DEFAULT_REPLIES } from '../../src/kyc/contract/replies.ts';
import { type CandidateRecord, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';
import { inTimeZone } from './in-time-zone.ts';
import { envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';
import { exportsOf, openEditor, showForReply } from './reply-fixture.ts';

/**
 * The support view (issue 24): the "What the service recorded" card, the reply editor Copy reply
 * opens, and the keyboard help `?` opens.
 */

const SUPPORT: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };
const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const FIELDS = ['rejectionReason', 'resubmitHint'];
const REASON = 'The passport photo is blurred and its number cannot be read.';
const HINT = 'Take a new photo of the passport in daylight, without flash.';

/** A support user's answer: the status level, and the support fields the server kept (undefined: not fetched). */
function supportRecord(
  status: string,
  customFields?: CandidateRecord['customFields'],
  extra: Partial<CandidateRecord> = {},
): CandidateRecord {
  return {
    ...statusLevelOf({
      status,
      refId: 'cust-204',
      recordId: '65f1c2a9e4b0d3a1f0c9b899',
      isArchived: false,
      blockPassID: 'bp-1',
      waitingDate: '2026-02-27T09:00:00.000Z',
      // Late in the evening in UTC: already the next day in Singapore.
      [`${status.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase())}Date`]: '2026-03-01T20:00:00.000Z',
      ...extra,
    }),
    ...(customFields ? { customFields } : {}),
  };
}

function show(record: CandidateRecord, options: { session?: SessionInfo; meta?: ReturnType<typeof testMeta> } = {}) {
  return showForReply(record, { session: options.session ?? SUPPORT, meta: options.meta ?? testMeta({ supportFields: FIELDS }) });
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

/** A support user's page of `record`, the server's answer naming `unread`: its "What the service recorded" card. */
async function recordedCard(record: ReturnType<typeof supportRecord>, unread: Array<{ field: string; expected: string; found: string }>) {
  stubApi({
    session: SUPPORT,
    meta: testMeta({ supportFields: FIELDS }),
    candidates: { [`/api/candidates/refId/${record.refId}`]: json({ status: 'success', data: record, unread }) },
  });
  const { unmount } = renderWithProviders(`/candidates/refId/${record.refId}`);
  return { card: await screen.findByRole('region', { name: 'What the service recorded' }), unmount };
}

describe('What the service recorded', { timeout: 20_000 }, () => {
  it("shows a support user the support fields near the status, each field's absence said", async () => {
    show(supportRecord('rejected', { rejectionReason: REASON }));
    const card = await screen.findByRole('region', { name: 'What the service recorded' });
    expect(within(card).getByText('Rejection reason').closest('[data-field]')).toHaveTextContent(REASON);
    // The fields not recorded, named in one line after those that are: not a row each of "Not recorded".
    expect(within(card).getByTestId('support-fields-not-recorded')).toHaveTextContent(/^Not recorded: .*Resubmit hint.*\.$/);
    expect(within(card).getByTestId('support-fields-not-recorded')).not.toHaveTextContent('Rejection reason');
    expect(card.querySelector('[data-field="resubmitHint"]')).toBeNull();
    // Not a second time as custom fields or in the decision summary.
    expect(screen.queryByRole('heading', { name: 'Custom fields' })).not.toBeInTheDocument();
    // A support user's status and its date are said in the header: no decision summary (it would repeat the status).
    expect(screen.queryByLabelText('Decision summary')).not.toBeInTheDocument();
    const header = screen.getByRole('heading', { level: 1 }).closest('header')!;
    expect(within(header).getByTestId('summary-status')).toHaveTextContent(/^since /);
    expect(header).not.toHaveTextContent(REASON);
    expect(screen.getByRole('note')).toHaveTextContent(/^Support users see status only, and the service's notes above/);
  });

  it('says the fields were recorded but could not be read when the service sent its custom fields as text or a list, never "Nothing recorded"', async () => {
    for (const found of ['text', 'a list']) {
      // The server's answer: customFields present (fetched) and empty, the form it came in named in `unread`.
      const { card, unmount } = await recordedCard(supportRecord('rejected', {}), [
        { field: 'customFields', expected: 'an object', found },
      ]);
      expect(card).not.toHaveTextContent(/Nothing recorded|Not recorded/);
      expect(within(card).getByTestId('support-fields-unread')).toHaveTextContent(
        `Recorded, but could not be read here: the service sent its custom fields as ${found}, not as separate fields, so Rejection reason, Resubmit hint could not be read.`,
      );
      unmount();
    }
  });

  it('says a support field sent as an object or a list was recorded but could not be read here, never "Not recorded"', async () => {
    for (const found of ['an object', 'a list']) {
      // The server's answer: the field left out of customFields, its form named in `unread` (status-level.ts).
      const { card, unmount } = await recordedCard(supportRecord('rejected', { resubmitHint: HINT }), [
        { field: 'customFields.rejectionReason', expected: 'text, a number, true or false, or empty', found },
      ]);
      expect(card).not.toHaveTextContent(/Nothing recorded|Not recorded/);
      expect(within(card).getByText('Resubmit hint').closest('[data-field]')).toHaveTextContent(HINT);
      expect(within(card).getByTestId('support-fields-unread-each')).toHaveTextContent(
        `Recorded, but could not be read here: Rejection reason (sent as ${found}, not as text). Do not tell the customer nothing was recorded.`,
      );
      unmount();
    }
  });

  it('names in one line only the fields of the status a candidate has none of, so that a waiting one does not read as rejected', async () => {
    show(supportRecord('waiting', {}));
    const card = await screen.findByRole('region', { name: 'What the service recorded' });
    // Before: "Nothing recorded: Rejection reason, Resubmit hint.", as if a waiting candidate lacked a rejection reason.
    expect(card).toHaveTextContent(/^What the service recordedNothing recorded\.$/);
  });

  it('names only the fields that belong to the status, as its reply templates use them (UX review)', async () => {
    const meta = testMeta({ supportFields: ['rejectionReason', 'reviewReason', 'resubmitHint', 'ticketNote'] });
    show(supportRecord('rejected', { rejectionReason: REASON }), { meta });
    const card = await screen.findByRole('region', { name: 'What the service recorded' });
    // Before: "Not recorded: Review reason, Resubmit hint, Ticket note.": a review reason is not a rejected candidate's.
    expect(within(card).getByTestId('support-fields-not-recorded')).toHaveTextContent(/^Not recorded: Resubmit hint, Ticket note\.$/);
  });

  it.each([
    ['blocked', { reviewReason: 'Sanctions list match' }],
    ['review_requested', {}],
  ] as const)('says of a %s candidate only what applies to its status, and still shows what was recorded', async (status, recorded) => {
    const meta = testMeta({ supportFields: ['rejectionReason', 'reviewReason', 'resubmitHint'] });
    show(supportRecord(status, recorded), { meta });
    const card = await screen.findByRole('region', { name: 'What the service recorded' });
    if (status === 'blocked') {
      // Before: "Not recorded: Rejection reason, Resubmit hint." beside a blocked candidate's recorded field.
      expect(within(card).getByText('Review reason').closest('[data-field]')).toHaveTextContent('Sanctions list match');
      expect(within(card).queryByTestId('support-fields-not-recorded')).not.toBeInTheDocument();
    } else {
      expect(card).toHaveTextContent(/^What the service recordedNothing recorded: Review reason, Resubmit hint\.$/);
    }
  });

  it('says why they are missing when the key archives after extract, and is not there for compliance users', async () => {
    const meta = testMeta({ supportFields: FIELDS, archivingKey: { detectedAt: '2026-03-01T00:00:00.000Z', accepted: false } });
    show(supportRecord('rejected'), { meta });
    expect(await screen.findByTestId('support-fields-missing')).toHaveTextContent(/^Not fetched: .*"archive after extract"/);
  });

  it('is not shown to compliance users, who see every custom field', async () => {
    show({ ...supportRecord('rejected', { rejectionReason: REASON, riskLevel: 'high' }) }, { session: COMPLIANCE });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: 'What the service recorded' })).not.toBeInTheDocument();
  });
});

describe('the reply editor', { timeout: 30_000 }, () => {
  it.each(KNOWN_STATUSES.filter((status) => status !== 'blocked'))(
    'opens for %s with the reply filled in: ids, date, support fields, no placeholder left',
    async (status) => {
      const user = userEvent.setup();
      show(supportRecord(status, { rejectionReason: REASON, resubmitHint: HINT }));
      const { editor, text } = await openEditor(user);
      expect(text().value).toContain('Your reference: cust-204');
      expect(text().value).toMatch(/(March 1|March 2), 2026/);
      expect(text().value).not.toMatch(/[{}]|undefined/);
      if (status === 'rejected') expect(text().value).toContain(`The reason: ${REASON}\nWhat to do: ${HINT}`);
      else expect(text().value).not.toContain(REASON);
      // The status's own template, its first sentence as written.
      expect(text().value.startsWith(DEFAULT_REPLIES[status]!.reply!.split('. ')[0]!)).toBe(true);
      expect(editor).toHaveTextContent('Filled in from the reply for');
    },
  );

  it('leaves out what has no value: no date, no reference, no reason', async () => {
    const user = userEvent.setup();
    const record: CandidateRecord = { status: 'rejected', recordId: 'r-1', isArchived: false, blockPassID: 'bp', customFields: {} };
    stubApi({
      session: SUPPORT,
      meta: testMeta({ supportFields: FIELDS }),
      candidates: { '/api/candidates/recordId/r-1': envelope(record) },
    });
    renderWithProviders('/candidates/recordId/r-1');
    const { text } = await openEditor(user);
    expect(text().value).toBe(
      // No "once that is done": what it would refer to (the hint's line) is left out.
      'We could not complete your identity verification with the information provided, so it needs to be submitted again.\nPlease submit your verification again.',
    );
  });

  it.each([
    ['Ctrl+Enter', '{Control>}{Enter}{/Control}'],
    ['⌘Enter', '{Meta>}{Enter}{/Meta}'],
  ])('copies the reply with %s in its text, as Copy does: the same audit line, no line added', async (_name, keys) => {
    const user = userEvent.setup();
    const { fetchMock } = show(supportRecord('rejected', { rejectionReason: REASON }));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const { text } = await openEditor(user);
    await user.clear(text());
    await user.type(text(), 'Hello, please send a sharper photo.');
    await user.keyboard(keys);
    // Before: the key put a line break in the text, and nothing was copied.
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('Hello, please send a sharper photo.');
    expect(exportsOf(fetchMock)).toEqual([{ what: 'reply', kind: 'refId', id: 'cust-204', template: 'rejected' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('copies nothing with Ctrl+Enter when the text is empty, as Copy is then not pressed', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(supportRecord('rejected', { rejectionReason: REASON }));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const { text } = await openEditor(user);
    await user.clear(text());
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(screen.getByRole('dialog', { name: 'Reply to the customer' })).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
    expect(exportsOf(fetchMock)).toEqual([]);
  });

  it('copies the text as edited, and the audit line names the template, not the text', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(supportRecord('rejected', { rejectionReason: REASON }));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const { editor, text } = await openEditor(user);
    await user.clear(text());
    await user.type(text(), 'Hello, please send a sharper photo.');
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith('Hello, please send a sharper photo.');
    expect(exportsOf(fetchMock)).toEqual([{ what: 'reply', kind: 'refId', id: 'cust-204', template: 'rejected' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('copies nothing and records nothing when cancelled, by its button or Escape', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(supportRecord('waiting'));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const { editor } = await openEditor(user);
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await openEditor(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(writeText).not.toHaveBeenCalled();
    expect(exportsOf(fetchMock)).toEqual([]);
    expect(screen.queryByText('Reply copied')).not.toBeInTheDocument();
  });

  describe('its date', () => {
    inTimeZone('Asia/Singapore');

    it('is the page\'s "since", in the page\'s zone, and in UTC once the UTC switch is on', async () => {
      const user = userEvent.setup();
      show(supportRecord('inreview'));
      let { text } = await openEditor(user);
      expect(text().value).toContain('The review started on March 2, 2026.');
      expect(within(screen.getByTestId('summary-status')).getByRole('time')).toHaveTextContent(/Mar 2, 2026/);
      await user.keyboard('{Escape}');
      await user.click(screen.getByRole('button', { name: 'UTC times' }));
      ({ text } = await openEditor(user));
      expect(text().value).toContain('The review started on March 1, 2026.');
      expect(within(screen.getByTestId('summary-status')).getByRole('time')).toHaveTextContent(/Mar 1, 2026/);
    });
  });
});

describe('keyboard help', { timeout: 20_000 }, () => {
  it('opens with ? on the candidate page, listing its shortcuts, and closes with Escape', async () => {
    const user = userEvent.setup();
    show(supportRecord('waiting'));
    await screen.findByRole('heading', { level: 1 });
    await user.keyboard('?');
    // Fetched the first time it is asked for (not part of the first load).
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const key of ['?', '/', 'Ctrl+K', 'Alt+Shift+M', 'Alt+Shift+U', 'Ctrl+Enter', 'Esc']) {
      expect(within(help).getAllByText(key, { selector: 'kbd' }).length, key).toBeGreaterThan(0);
    }
    // Not Apple's ⌘ on a platform that has no such key (jsdom's is neither).
    expect(within(help).queryByText('⌘K', { selector: 'kbd' })).not.toBeInTheDocument();
    // A support user sees no pictures: the viewer's keys are not theirs (UX review), the reply editor's are.
    expect(within(help).queryByRole('heading', { name: 'In the picture viewer' })).not.toBeInTheDocument();
    for (const key of ['+', '0', '1', 'R']) expect(within(help).queryByText(key, { selector: 'kbd' }), key).not.toBeInTheDocument();
    expect(within(help).getByRole('heading', { name: 'In the reply editor' })).toBeInTheDocument();
    // Looked up, not opened from the queue: j, k and u do nothing here, and are not listed.
    expect(within(help).queryByRole('heading', { name: 'A candidate opened from the queue' })).not.toBeInTheDocument();
    expect(within(help).queryByText('u', { selector: 'kbd' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("lists the picture viewer's keys to a compliance user, who sees pictures, and not the reply editor's", async () => {
    const user = userEvent.setup();
    show(supportRecord('waiting'), { session: COMPLIANCE });
    await screen.findByRole('heading', { level: 1 });
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('heading', { name: 'In the picture viewer' })).toBeInTheDocument();
    for (const key of ['+', '0', '1', 'R']) expect(within(help).getAllByText(key, { selector: 'kbd' }).length, key).toBeGreaterThan(0);
    expect(within(help).queryByRole('heading', { name: 'In the reply editor' })).not.toBeInTheDocument();
  });

  it('lists the queue\'s tab keys on the applicants page, not the viewer\'s, and is not opened by typing "?" in the search box', async () => {
    const user = userEvent.setup();
    stubApi({ session: SUPPORT, applicants: [] });
    renderWithProviders('/applicants');
    const box = await screen.findByLabelText('refId to look up');
    await user.type(box, '?');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    box.blur();
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByRole('heading', { name: 'In the applicants queue' })).toBeInTheDocument();
    expect(within(help).queryByRole('heading', { name: 'In the picture viewer' })).not.toBeInTheDocument();
    await user.click(within(help).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('lists the search box key with the modifier of the platform: ⌘ on Apple devices, Ctrl elsewhere', () => {
    expect(searchShortcuts('MacIntel')).toEqual(['/', '⌘K']);
    expect(searchShortcuts('macOS')).toEqual(['/', '⌘K']);
    expect(searchShortcuts('iPad')).toEqual(['/', '⌘K']);
    expect(searchShortcuts('Linux x86_64')).toEqual(['/', 'Ctrl+K']);
    expect(searchShortcuts('Win32')).toEqual(['/', 'Ctrl+K']);
    expect(searchShortcuts('')).toEqual(['/', 'Ctrl+K']);
  });

  it("lists the viewer's and the queue's keys in another environment too (/e/<name>/…)", () => {
    const titles = (path: string) => shortcutsFor(path, true).map((group) => group.title);
    expect(titles('/e/staging/candidates/refId/cust_000482')).toContain('In the picture viewer');
    expect(titles('/e/staging/applicants')).toContain('In the applicants queue');
    expect(titles('/e/applicants/batch')).toEqual(['On every page']);
    expect(titles('/candidates/refId/x')).toContain('In the picture viewer');
    expect(titles('/candidates/refId/x')).not.toContain('A candidate opened from the queue');
    expect(shortcutsFor('/e/staging/candidates/refId/x', true, 'queue').map((group) => group.title)).toContain(
      'A candidate opened from the queue',
    );
  });

  it('switches every time to UTC with Alt+Shift+U, as the header switch does', async () => {
    const user = userEvent.setup();
    show(supportRecord('waiting'));
    await screen.findByRole('heading', { level: 1 });
    const toggle = screen.getByRole('button', { name: 'UTC times' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.keyboard('{Alt>}{Shift>}U{/Shift}{/Alt}');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });
});
