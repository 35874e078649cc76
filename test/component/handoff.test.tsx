import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { mergeReplyTemplates } from '../../src/kyc/contract/replies.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { recordForScope } from '../../src/server/sandbox/sandbox.ts';
import { inTimeZone } from './in-time-zone.ts';
import { apiError, envelope, json, renderWithProviders, stubApi, testMeta } from './render.tsx';

const samples = (await sampleCandidates({ now: new Date() })).map((c) => c.record);
const byRef = (refId: string) => samples.find((r) => r.refId === refId)!;
const blocked = byRef('user-7781');
const waiting = byRef('8f14e45f-ceea-467f-a0e6-1c9e5a2b7d33');
const SUPPORT: SessionInfo = { mode: 'proxy', user: 'sam', role: 'support' };
const COMPLIANCE: SessionInfo = { mode: 'proxy', user: 'ana', role: 'compliance' };
const NOT_LOOKED_UP = "This page's lookup is too old to record a copy: press Refresh, then copy again.";

function show(
  record: CandidateRecord,
  options: { session?: SessionInfo; meta?: ReturnType<typeof testMeta>; exportReply?: () => Response | Promise<Response> } = {},
) {
  const path = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
  const api = stubApi({
    session: options.session ?? COMPLIANCE,
    meta: options.meta,
    candidates: {
      [path]: envelope(options.session?.role === 'support' ? recordForScope(record, 'status') : record),
      '/api/export': options.exportReply ?? (() => json({ status: 'success' })),
    },
  });
  const utils = renderWithProviders(`/candidates/refId/${encodeURIComponent(record.refId!)}`);
  return { ...api, ...utils };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const exportsOf = (fetchMock: ReturnType<typeof stubApi>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([input]) => String(input).endsWith('/export'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));

/** Presses "Copy summary" and answers the text that went to the clipboard. */
async function copySummary(user: ReturnType<typeof userEvent.setup>): Promise<string> {
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  writeText.mockClear();
  await user.click(screen.getByRole('button', { name: 'Copy summary' }));
  await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
  return writeText.mock.calls[0]![0];
}

describe('hand-off', { timeout: 20_000 }, () => {
  it('copies a summary after recording it, with certificate outcomes for compliance users and no personal details', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(blocked);
    await screen.findByRole('heading', { level: 1 });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    expect(await screen.findByText('Summary copied')).toBeInTheDocument();
    expect(exportsOf(fetchMock)).toEqual([{ what: 'summary', kind: 'refId', id: 'user-7781' }]);
    const text = writeText.mock.calls[0]![0];
    expect(text).toContain('Candidate (Production · acme_kyc)');
    expect(text).toContain('refId: user-7781');
    expect(text).toMatch(/Status: Blocked since .+ UTC/);
    expect(text).toMatch(/Certificates:\n/);
    for (const name of ['dob', 'address', 'phone', 'email']) {
      const value = blocked.identities?.[name]?.value;
      if (value) expect(text).not.toContain(value);
    }
  });

  it("copies the decision summary's custom fields for compliance users, the ones summaryFields names, in its order", async () => {
    const user = userEvent.setup();
    show(blocked);
    await screen.findByRole('heading', { level: 1 });
    expect(await copySummary(user)).toContain('Decision fields:\n  riskLevel: high\n  screeningCase: CA-2026-00917\n');
    cleanup();

    // Another list from the server: only what the strip shows is copied.
    show(blocked, { meta: testMeta({ summaryFields: ['screening case'] }) });
    await screen.findByRole('heading', { level: 1 });
    expect(within(screen.getByRole('region', { name: 'Decision summary' })).queryByText('high')).not.toBeInTheDocument();
    const text = await copySummary(user);
    expect(text).toContain('Decision fields:\n  screeningCase: CA-2026-00917\n');
    expect(text).not.toContain('riskLevel');
  });

  it('copies a decision field that came as an object or a list as its JSON, marked "not text", after the text ones', async () => {
    const user = userEvent.setup();
    const risk = { score: 82, '=cmd': '|calc' };
    // As the service may send it: the contract's type has text values only.
    show({
      ...blocked,
      customFields: { ...blocked.customFields, riskLevel: risk, otherNotes: ['not', 'a decision field'] },
    } as unknown as CandidateRecord);
    await screen.findByRole('heading', { level: 1 });
    const text = await copySummary(user);
    expect(text).toContain(
      'Decision fields:\n  screeningCase: CA-2026-00917\n  riskLevel: {"score":82,"=cmd":"|calc"} (not text: an object, as JSON)\n',
    );
    // Only the fields summaryFields names are copied, in any form.
    expect(text).not.toContain('otherNotes');
  });

  it('shows a decision field that came as an object or a list in the decision strip too, bounded, in the order Copy summary writes it', async () => {
    const user = userEvent.setup();
    const long = { reasons: Array.from({ length: 40 }, (_, index) => `reason ${index}`) };
    show({
      ...blocked,
      customFields: { ...blocked.customFields, riskLevel: { score: 82, '=cmd': '|calc' }, riskScore: long, otherNotes: ['x'] },
    } as unknown as CandidateRecord);
    const strip = await screen.findByRole('region', { name: 'Decision summary' });
    const fields = strip.querySelector('dl[aria-label="Decision fields"]')!;
    // Where the strip left them out, and only the card and the copy showed them.
    expect([...fields.querySelectorAll('[data-field]')].map((entry) => entry.getAttribute('data-field'))).toEqual([
      'screeningCase',
      'riskLevel',
      'riskScore',
    ]);
    const value = (name: string) => fields.querySelector(`[data-field="${name}"] dd`)!;
    expect(value('riskLevel')).toHaveTextContent(/^\{"score":82,"=cmd":"\|calc"\} \(not text: an object, as JSON\)$/);
    // A long one: its first 60 characters, the whole JSON in the Custom fields card.
    const preview = JSON.stringify(long).slice(0, 60);
    expect(value('riskScore').textContent).toBe(`${preview}… (not text: an object, as JSON; in full under Custom fields)`);
    const card = screen.getByRole('heading', { name: 'Custom fields' }).closest('section')!;
    expect(card.querySelector('th[data-field="riskScore"]')!.nextElementSibling).toHaveTextContent(JSON.stringify(long).slice(0, 200));
    // Copy summary writes the same fields, in the same order, marked the same way.
    const copied = (await copySummary(user)).split('\n').filter((line) => /^ {2}(screeningCase|riskLevel|riskScore):/.test(line));
    expect(copied.map((line) => line.split(':')[0]!.trim())).toEqual(['screeningCase', 'riskLevel', 'riskScore']);
    expect(copied[2]).toContain('(not text: an object, as JSON)');
  });

  it('attack: a 1 MB decision field object is copied as its first 10,000 characters, cut with …', async () => {
    const user = userEvent.setup();
    show({ ...blocked, customFields: { riskLevel: { notes: 'x'.repeat(1_000_000) } } } as unknown as CandidateRecord);
    await screen.findByRole('heading', { level: 1 });
    const line = (await copySummary(user)).split('\n').find((each) => each.startsWith('  riskLevel: '))!;
    expect(line).toBe(`  riskLevel: {"notes":"${'x'.repeat(10_000 - 10)}… (not text: an object, as JSON)`);
  });

  it('never copies decision fields for a support user, even from a record that holds them', async () => {
    const user = userEvent.setup();
    stubApi({
      session: SUPPORT,
      candidates: { '/api/candidates/refId/user-7781': envelope(blocked), '/api/export': () => json({ status: 'success' }) },
    });
    renderWithProviders('/candidates/refId/user-7781');
    await screen.findByRole('heading', { level: 1 });
    const text = await copySummary(user);
    expect(text).toContain('refId: user-7781');
    expect(text).not.toContain('Decision fields');
    expect(text).not.toContain('CA-2026-00917');
  });

  it('copies for a support user what the page\'s "What the service recorded" shows them: the reason and the hint', async () => {
    const user = userEvent.setup();
    const rejected = byRef('a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d');
    const fields = { rejectionReason: 'The passport photo is blurred.', resubmitHint: 'Take a new photo in daylight.' };
    stubApi({
      session: SUPPORT,
      meta: testMeta({ supportFields: ['rejectionReason', 'resubmitHint'] }),
      candidates: {
        [`/api/candidates/refId/${rejected.refId}`]: envelope({ ...recordForScope(rejected, 'status'), customFields: fields }),
        '/api/export': () => json({ status: 'success' }),
      },
    });
    renderWithProviders(`/candidates/refId/${rejected.refId}`);
    await screen.findByRole('heading', { name: 'What the service recorded' });
    // Before: ids, status and submissions only, while the page (and Print) showed the reason and the hint.
    expect(await copySummary(user)).toContain(
      'What the service recorded:\n  Rejection reason: The passport photo is blurred.\n  Resubmit hint: Take a new photo in daylight.\n',
    );
  });

  it('copies nothing when the export cannot be recorded', async () => {
    const user = userEvent.setup();
    show(blocked, { exportReply: () => apiError(503, 'audit_unavailable', 'This export could not be recorded in the audit log.') });
    await screen.findByRole('heading', { level: 1 });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    expect(await screen.findByText('This export could not be recorded in the audit log.')).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
  });

  it("records a certificate's copy as a hand-off, naming its slug, before the JSON goes to the clipboard", async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(blocked);
    const onfido = await screen.findByRole('article', { name: 'Onfido' });
    await user.click(within(onfido).getByText('Raw JSON'));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(onfido).getByRole('button', { name: 'Copy Onfido certificate' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(JSON.parse(writeText.mock.calls[0]![0])).toEqual(JSON.parse(blocked.certs!['onfido-service-cert']!));
    expect(exportsOf(fetchMock)).toEqual([{ what: 'certificate', kind: 'refId', id: 'user-7781', slug: 'onfido-service-cert' }]);
    // The line first: the copy waits for it.
    const exportCall = fetchMock.mock.calls.findIndex(([input]) => String(input).endsWith('/export'));
    expect(fetchMock.mock.invocationCallOrder[exportCall]!).toBeLessThan(writeText.mock.invocationCallOrder[0]!);
  });

  it('copies no certificate when its export cannot be recorded, and says why beside the button', async () => {
    const user = userEvent.setup();
    show(blocked, { exportReply: () => apiError(503, 'audit_unavailable', 'This export could not be recorded in the audit log.') });
    const onfido = await screen.findByRole('article', { name: 'Onfido' });
    await user.click(within(onfido).getByText('Raw JSON'));
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(onfido).getByRole('button', { name: 'Copy Onfido certificate' }));
    expect(await within(onfido).findByText('This export could not be recorded in the audit log.')).toBeInTheDocument();
    expect(within(onfido).getByRole('button', { name: 'Copy Onfido certificate' })).toHaveTextContent('Copy failed');
    expect(writeText).not.toHaveBeenCalled();
  });

  /**
   * A copy button pressed twice while its audit line is being written (the export's answer held back): held
   * busy, the focus kept on it, as Copy reply's is; then one line written and one copy made.
   */
  async function pressTwiceWhileRecorded(find: () => Promise<HTMLElement>) {
    const user = userEvent.setup();
    let answer: (response: Response) => void = () => {};
    const { fetchMock } = show(blocked, { exportReply: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const copy = await find();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(copy);
    await user.click(copy);
    expect(copy).toHaveAttribute('aria-disabled', 'true');
    expect(copy).toHaveFocus();
    answer(json({ status: 'success' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(exportsOf(fetchMock)).toHaveLength(1);
    await waitFor(() => expect(copy).not.toHaveAttribute('aria-disabled'));
  }

  it("a certificate's Copy pressed twice while its line is being written writes one line, and copies once (UX review: a double-click wrote two)", async () => {
    await pressTwiceWhileRecorded(async () => {
      const onfido = await screen.findByRole('article', { name: 'Onfido' });
      await userEvent.setup().click(within(onfido).getByText('Raw JSON'));
      return within(onfido).getByRole('button', { name: 'Copy Onfido certificate' });
    });
  });

  it('Copy summary pressed twice while its line is being written writes one line, and copies once (it had no guard)', async () => {
    await pressTwiceWhileRecorded(async () => {
      await screen.findByRole('heading', { level: 1 });
      return screen.getByRole('button', { name: 'Copy summary' });
    });
  });

  it('attack: a certificate slug the export would refuse is left out of its line, and the copy is still recorded and made', async () => {
    const user = userEvent.setup();
    const slug = '<img src=x onerror=alert(1)> '.repeat(3);
    const { fetchMock } = show({ ...blocked, certs: { [slug]: 'not JSON: result clear' } });
    const panel = await screen.findByRole('article');
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(panel).getByRole('button', { name: /^Copy .* certificate$/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('not JSON: result clear'));
    expect(exportsOf(fetchMock)).toEqual([{ what: 'certificate', kind: 'refId', id: 'user-7781' }]);
  });

  it('gives support users a customer reply for the status, from the templates the server sends', async () => {
    const user = userEvent.setup();
    const replyTemplates = mergeReplyTemplates({ waiting: 'We have your documents for {refId}.' });
    const { fetchMock } = show(waiting, { session: SUPPORT, meta: testMeta({ replyTemplates }) });
    await screen.findByRole('heading', { level: 1 });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    await user.click(within(screen.getByTestId('reply-editor')).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`We have your documents for ${waiting.refId}.`);
    expect(exportsOf(fetchMock)).toEqual([{ what: 'reply', kind: 'refId', id: waiting.refId, template: 'waiting' }]);
  });

  it("keeps the agent's edits when the reply editor is closed by Escape or Cancel, until a reply is copied", async () => {
    const user = userEvent.setup();
    const replyTemplates = mergeReplyTemplates({ waiting: 'We have your documents for {refId}.' });
    show(waiting, { session: SUPPORT, meta: testMeta({ replyTemplates }) });
    await screen.findByRole('heading', { level: 1 });
    const template = `We have your documents for ${waiting.refId}.`;
    const editor = () => within(screen.getByTestId('reply-editor'));
    const open = async () => {
      await user.click(screen.getByRole('button', { name: 'Copy reply' }));
      return editor().getByRole('textbox', { name: 'Reply' });
    };
    await user.type(await open(), ' We will write within two days.');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('reply-editor')).not.toBeInTheDocument();
    // Reopened: the edits are there, and it says so.
    expect(await open()).toHaveValue(`${template} We will write within two days.`);
    expect(editor().getByTestId('reply-kept-edits')).toHaveTextContent('Your edits are kept');
    await user.click(editor().getByRole('button', { name: 'Cancel' }));
    expect(await open()).toHaveValue(`${template} We will write within two days.`);
    // Back to the template on request, once the agent has said the edits may go (before: gone in one press).
    await user.click(editor().getByRole('button', { name: 'Start again from the template' }));
    expect(editor().getByRole('textbox', { name: 'Reply' })).toHaveValue(`${template} We will write within two days.`);
    expect(editor().getByRole('group', { name: 'Replace your edits with the template? They cannot be brought back.' })).toBeVisible();
    await user.click(editor().getByRole('button', { name: 'Replace my edits' }));
    expect(editor().getByRole('textbox', { name: 'Reply' })).toHaveValue(template);
    expect(editor().queryByTestId('reply-kept-edits')).not.toBeInTheDocument();
    // Once copied, the next reply starts from the template.
    vi.spyOn(navigator.clipboard, 'writeText');
    await user.type(editor().getByRole('textbox', { name: 'Reply' }), ' Thanks.');
    await user.click(editor().getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(await open()).toHaveValue(template);
  });

  it('gives a blocked candidate only the neutral reply, with the internal note, and audits it as blocked:neutral', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(blocked, { session: SUPPORT });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByTestId('reply-note')).toHaveTextContent('Internal note: Do not disclose the reason; escalate to compliance.');
    expect(screen.getByTestId('reply-note')).not.toHaveTextContent('No customer reply');
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    const editor = within(screen.getByTestId('reply-editor'));
    // The status's own template has no reply: the neutral one is the only choice, and says nothing of the reason.
    expect(editor.queryByRole('radio')).not.toBeInTheDocument();
    expect(editor.getByRole('textbox', { name: 'Reply' })).toHaveValue(
      `Thank you for getting in touch. We have your identity verification, and we are not able to share more about it at the moment. Our team will contact you if anything more is needed.\n\nYour reference: ${blocked.refId}`,
    );
    expect(editor.getByText(/Internal note \(not copied\)/)).toHaveTextContent('Do not disclose the reason; escalate to compliance.');
    await user.click(editor.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(exportsOf(fetchMock)).toEqual([{ what: 'reply', kind: 'refId', id: blocked.refId, template: 'blocked:neutral' }]);
  });

  it("gives no reply at all when the file takes the blocked status's templates away", async () => {
    const replyTemplates = mergeReplyTemplates({ blocked: { reply: null, note: 'Call compliance.' } });
    show(blocked, { session: SUPPORT, meta: testMeta({ replyTemplates }) });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: 'Copy reply' })).not.toBeInTheDocument();
    expect(screen.getByTestId('reply-note')).toHaveTextContent('No customer reply for this status. Internal note: Call compliance.');
  });

  it('offers no reply to compliance users', async () => {
    show(waiting);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('button', { name: 'Copy summary' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy reply' })).not.toBeInTheDocument();
  });

  it('prints with one button, with a first line for paper, and records the print', async () => {
    const user = userEvent.setup();
    const { fetchMock } = show(blocked);
    await screen.findByRole('heading', { level: 1 });
    const print = vi.fn(() => window.dispatchEvent(new Event('beforeprint')));
    vi.stubGlobal('print', print);
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
    await waitFor(() => expect(exportsOf(fetchMock)).toEqual([{ what: 'print', kind: 'refId', id: 'user-7781' }]));
    // Sent so that it survives the page going away while the dialog is open.
    const printLine = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/export'))!;
    expect((printLine[1] as RequestInit).keepalive).toBe(true);
    expect(screen.getByTestId('print-header')).toHaveTextContent(
      /^Printed by ana on .+ UTC.* · Production environment · client id acme_kyc$/,
    );
    expect(screen.getByTestId('print-header')).toHaveClass('hidden', 'print:block');
  });

  it("says under the buttons why a print's line, or a copy of a candidate not looked up lately, was refused", async () => {
    const user = userEvent.setup();
    show(blocked, { exportReply: () => apiError(409, 'not_looked_up', NOT_LOOKED_UP) });
    await screen.findByRole('heading', { level: 1 });
    vi.stubGlobal(
      'print',
      vi.fn(() => window.dispatchEvent(new Event('beforeprint'))),
    );
    await user.click(screen.getByRole('button', { name: 'Print' }));
    // The dialog could not wait for the line: that it was not written is said once it is known, after the paper.
    expect(await screen.findByText(`This print was not recorded in the audit log: ${NOT_LOOKED_UP}`)).toBeInTheDocument();
    cleanup();

    show(blocked, { exportReply: () => apiError(409, 'not_looked_up', NOT_LOOKED_UP) });
    await screen.findByRole('heading', { level: 1 });
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(screen.getByRole('button', { name: 'Copy summary' }));
    expect(await screen.findByText(NOT_LOOKED_UP)).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
  });

  it("links to the service's dashboard when configured", async () => {
    const meta = testMeta();
    show(blocked, {
      meta: { ...meta, environment: { ...meta.environment, dashboardUrl: 'https://console.example.org/kyc/{recordId}?x={refId}' } },
    });
    await screen.findByRole('heading', { level: 1 });
    const link = screen.getByRole('link', { name: "Open in the KYC service's dashboard (opens in a new tab)" });
    expect(link).toHaveAttribute('href', `https://console.example.org/kyc/${blocked.recordId}?x=user-7781`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noreferrer');
  });

  it('puts the dashboard link beside Print for a candidate opened by a link, with no bar of its own above the page', async () => {
    const meta = testMeta();
    show(blocked, { meta: { ...meta, environment: { ...meta.environment, dashboardUrl: 'https://console.example.org/kyc/{recordId}' } } });
    await screen.findByRole('heading', { level: 1 });
    const link = screen.getByRole('link', { name: "Open in the KYC service's dashboard (opens in a new tab)" });
    // The row of Copy summary and Print holds it: the bar (no queue's place, nobody else here) draws no box.
    expect(link.parentElement).toContainElement(screen.getByRole('button', { name: 'Print' }));
    const bar = screen.getByTestId('review-bar');
    expect(bar).not.toContainElement(link);
    expect(bar).toHaveClass('contents');
  });

  it('offers no dashboard for a recordId the service said it does not have, and does for one it could not answer for', async () => {
    const meta = testMeta();
    const hex = '65f1c2a9e4b0d3a1f0c9b8ff';
    stubApi({
      meta: { ...meta, environment: { ...meta.environment, dashboardUrl: 'https://console.example.org/kyc/{recordId}' } },
      candidates: {
        [`/api/candidates/recordId/${hex}`]: () => apiError(404, 'not_found', `No candidate with recordId "${hex}".`),
        [`/api/candidates/recordId/${hex.replace('ff', 'ee')}`]: () =>
          apiError(502, 'upstream_unreachable', 'The KYC service could not be reached (connection refused).'),
      },
    });
    const { router } = renderWithProviders(`/candidates/recordId/${hex}`);
    await screen.findByRole('heading', { name: `No candidate with recordId "${hex}"` });
    expect(screen.queryByRole('link', { name: /dashboard/ })).not.toBeInTheDocument();
    // The service away: its dashboard is the way on, as before.
    await router.navigate(`/candidates/recordId/${hex.replace('ff', 'ee')}`);
    expect(await screen.findByRole('link', { name: /dashboard/ })).toHaveAttribute(
      'href',
      `https://console.example.org/kyc/${hex.replace('ff', 'ee')}`,
    );
  });
});

describe('Copy reply with the keyboard alone', { timeout: 20_000 }, () => {
  const replyTemplates = mergeReplyTemplates({ waiting: 'We have your documents for {refId}.' });
  const editor = () => within(screen.getByTestId('reply-editor'));

  it('keeps the focus on Copy while the audit line is written and after it is refused, and a second Enter sends nothing', async () => {
    const user = userEvent.setup();
    let answer!: (response: Response) => void;
    const { fetchMock } = show(waiting, {
      session: SUPPORT,
      meta: testMeta({ replyTemplates }),
      exportReply: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await screen.findByRole('heading', { level: 1 });
    screen.getByRole('button', { name: 'Copy reply' }).focus();
    await user.keyboard('{Enter}');
    const copy = editor().getByRole('button', { name: 'Copy' });
    copy.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(exportsOf(fetchMock)).toHaveLength(1));
    // Before: disabled while the line was written, which drops the keyboard's focus to the page's <body>.
    expect(copy).not.toBeDisabled();
    expect(copy).toHaveAttribute('aria-disabled', 'true');
    expect(copy).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(exportsOf(fetchMock)).toHaveLength(1);
    answer(apiError(503, 'audit_unavailable', 'This export could not be recorded in the audit log.'));
    expect(await editor().findByRole('alert')).toHaveTextContent('This export could not be recorded in the audit log.');
    expect(copy).toHaveFocus();
    expect(copy).not.toHaveAttribute('aria-disabled');
  });

  it('takes the focus to the text when the agent starts again from the template, not to the page behind', async () => {
    const user = userEvent.setup();
    show(waiting, { session: SUPPORT, meta: testMeta({ replyTemplates }) });
    await screen.findByRole('heading', { level: 1 });
    screen.getByRole('button', { name: 'Copy reply' }).focus();
    await user.keyboard('{Enter}');
    await user.keyboard(' Thanks.');
    await user.tab();
    expect(editor().getByRole('button', { name: 'Start again from the template' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const text = editor().getByRole('textbox', { name: 'Reply' }) as HTMLTextAreaElement;
    const edited = text.value;
    expect(edited).toContain('Thanks.');
    // Asked first, the focus on the choice that keeps the edits: a second Enter does not erase them.
    expect(editor().getByRole('button', { name: 'Keep my edits' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(text).toHaveValue(edited);
    expect(text).toHaveFocus();
    await user.tab();
    await user.keyboard('{Enter}');
    await user.tab();
    expect(editor().getByRole('button', { name: 'Replace my edits' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(text).toHaveValue(`We have your documents for ${waiting.refId}.`);
    // Before: the button went with the edits, and the focus fell to <body>.
    expect(text).toHaveFocus();
  });
});

describe('times that leave the page', { timeout: 20_000 }, () => {
  // A zone whose offset en-US writes "GMT+8", where the page writes "UTC+8" (or SGT).
  inTimeZone('Asia/Singapore');
  afterEach(() => localStorage.clear());

  it("copies and prints times as the page shows them, in the zone the header's toggle chose", async () => {
    const user = userEvent.setup();
    show(blocked);
    await screen.findByRole('heading', { level: 1 });
    const since = () => within(screen.getByTestId('summary-status')).getByRole('time').textContent ?? '';
    // How long ago, as the strip says it: the summary says the same.
    const ago = () => /\(([^()]+)\)$/.exec(screen.getByTestId('summary-status').textContent ?? '')?.[1];
    expect(since()).toMatch(/ (SGT|UTC\+8)$/);
    const local = await copySummary(user);
    expect(ago()).toBe('29 days ago');
    expect(local).toContain(`Status: Blocked since ${since()} (${ago()})\n`);
    expect(local).toMatch(/\nLooked up: .+ (SGT|UTC\+8)\n$/);
    expect(local).not.toContain('GMT');
    expect(screen.getByTestId('print-header')).toHaveTextContent(/^Printed by ana on .+ (SGT|UTC\+8) · /);

    await user.click(screen.getByRole('button', { name: 'UTC times' }));
    expect(since()).toMatch(/ UTC$/);
    const utc = await copySummary(user);
    expect(utc).toContain(`Status: Blocked since ${since()} (${ago()})\n`);
    expect(utc).toMatch(/\nLooked up: .+ UTC\n$/);
    expect(screen.getByTestId('print-header')).toHaveTextContent(/^Printed by ana on .+ \d\d:\d\d(\s[AP]M)? UTC · /);
  });
});

describe('where and when', { timeout: 20_000 }, () => {
  it('says when the record was fetched, as a time with its zone and the other zone, and Refresh looks it up again', async () => {
    const user = userEvent.setup();
    const { requests } = show(waiting);
    await screen.findByRole('heading', { level: 1 });
    const fetched = screen.getByTestId('fetched-at');
    expect(fetched).toHaveTextContent(/^Fetched .+\((just now|\d+ seconds? ago)\)$/);
    const time = within(fetched).getByRole('time');
    expect(time).toHaveTextContent(/\d\d:\d\d\s[AP]M UTC$/);
    expect(time).not.toHaveAttribute('tabindex');
    expect(time).toHaveAccessibleDescription(/^In UTC: .+ UTC$/);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(requests.filter((u) => u.startsWith('/api/candidates/'))).toHaveLength(2));
  });

  it('checks the status when the tab comes back after more than a minute, and offers to reload when it changed', async () => {
    const user = userEvent.setup();
    const statusPath = `/api/status/refId/${encodeURIComponent(waiting.refId!)}`;
    let current = 'waiting';
    const { requests } = stubApi({
      session: COMPLIANCE,
      candidates: {
        [`/api/candidates/refId/${encodeURIComponent(waiting.refId!)}`]: () => envelope({ ...waiting, status: current }),
        [statusPath]: () => envelope({ ...recordForScope(waiting, 'status'), status: current }),
      },
    });
    renderWithProviders(`/candidates/refId/${encodeURIComponent(waiting.refId!)}`);
    await screen.findByRole('heading', { level: 1 });
    const away = (ms: number) => {
      const now = Date.now();
      vi.spyOn(Date, 'now').mockReturnValue(now);
      act(() => void window.dispatchEvent(new Event('blur')));
      vi.spyOn(Date, 'now').mockReturnValue(now + ms);
      act(() => void window.dispatchEvent(new Event('focus')));
      vi.restoreAllMocks();
    };
    // Away 30 s: no check. Then away over a minute: one check, which finds the change. Had the first
    // focus checked too, there would be two (a focus asks at once, before the banner can show).
    away(30_000);
    current = 'approved';
    away(61_000);
    const banner = await screen.findByRole('alert');
    expect(requests.filter((path) => path === statusPath)).toHaveLength(1);
    expect(banner).toHaveTextContent('The status changed from Waiting to Approved since this page was loaded.');
    await user.click(within(banner).getByRole('button', { name: 'Refresh now' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(screen.getAllByText('Approved')[0]).toBeInTheDocument();
  });

  it("names the environment in the header, and switching from a candidate page opens the other one's home with the id in the box", async () => {
    const meta = testMeta();
    const staging = { name: 'staging', label: 'Staging', clientId: 'acme_test', upstream: 'remote' as const };
    const { router } = show(waiting, { meta: { ...meta, environments: [meta.environment, staging] } });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByTestId('environment-badge')).toHaveTextContent('Production · acme_kyc');
    fireEvent.change(screen.getByRole('combobox', { name: 'Environment' }), { target: { value: 'staging' } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/e/staging/'));
    expect(await screen.findByLabelText('refId to look up')).toHaveValue(waiting.refId);
  });

  it('lists recent lookups under the home page form, without names, and forgets them at sign-out', async () => {
    const user = userEvent.setup();
    const session: SessionInfo = { mode: 'users', user: 'ana', role: 'compliance' };
    let signedIn = true;
    stubApi({
      session: () => json(signedIn ? session : { mode: 'users' }),
      candidates: { [`/api/candidates/refId/${encodeURIComponent(waiting.refId!)}`]: envelope(waiting) },
    });
    const { router } = renderWithProviders(`/candidates/refId/${encodeURIComponent(waiting.refId!)}`);
    await screen.findByRole('heading', { level: 1 });
    await router.navigate('/');
    const recent = await screen.findByRole('region', { name: 'Recent lookups' });
    expect(within(recent).getByRole('link')).toHaveTextContent(waiting.refId!);
    expect(recent).not.toHaveTextContent(waiting.identities!.given_name!.value);
    expect(JSON.parse(sessionStorage.getItem('candidate-lookup:recent')!)).toEqual([
      { kind: 'refId', id: waiting.refId, status: 'waiting', environment: 'default', at: expect.any(String) },
    ]);
    signedIn = false;
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(sessionStorage.getItem('candidate-lookup:recent')).toBeNull();
  });

  it('links a recent lookup of the default environment by its plain address, however it was visited, and another under /e/<name>', async () => {
    const production = testMeta();
    const staging = { name: 'staging', label: 'Staging', clientId: 'acme_test', upstream: 'remote' as const };
    const environments = [production.environment, staging];
    const waitingPath = `/candidates/refId/${encodeURIComponent(waiting.refId!)}`;
    const blockedPath = `/candidates/refId/${encodeURIComponent(blocked.refId!)}`;
    stubApi({
      session: COMPLIANCE,
      meta: (url) =>
        url.startsWith('/api/e/staging/') ? testMeta({ environment: staging, environments }) : { ...production, environments },
      candidates: { [`/api/e/default${waitingPath}`]: envelope(waiting), [`/api/e/staging${blockedPath}`]: envelope(blocked) },
    });
    // The default environment reached the way a link of its name spells it, then another environment.
    const { router } = renderWithProviders(`/e/default${waitingPath}`);
    await screen.findByRole('heading', { level: 1, name: new RegExp(waiting.identities!.given_name!.value) });
    await router.navigate(`/e/staging${blockedPath}`);
    await screen.findByRole('heading', { level: 1, name: new RegExp(blocked.identities!.given_name!.value) });
    await router.navigate('/');
    const recent = await screen.findByRole('region', { name: 'Recent lookups' });
    // The address every other link of the app gives the candidate (the audit page, the notifications).
    await waitFor(() =>
      expect(within(recent).getByRole('link', { name: new RegExp(waiting.refId!) })).toHaveAttribute('href', waitingPath),
    );
    expect(within(recent).getByRole('link', { name: new RegExp(blocked.refId!) })).toHaveAttribute('href', `/e/staging${blockedPath}`);
  });

  it('forgets recent lookups as soon as sign-out is asked, even when the server never answers it', async () => {
    const user = userEvent.setup();
    const { rememberLookup } = await import('../../src/app/recent/recent-lookups.ts');
    rememberLookup({ kind: 'refId', id: 'cust_000482', status: 'inreview', environment: 'default', at: new Date().toISOString() });
    const { fetchMock } = stubApi({ session: { mode: 'users', user: 'ana', role: 'compliance' } });
    // The sign-out request hangs: no answer, success or failure, ever comes.
    const signOuts: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method !== 'DELETE') return fetchMock(input, init);
      signOuts.push(String(input));
      return new Promise<Response>(() => {});
    });
    renderWithProviders('/');
    const recent = await screen.findByRole('region', { name: 'Recent lookups' });
    expect(recent).toHaveTextContent('cust_000482');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(signOuts).toEqual(['/api/session']);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Recent lookups' })).not.toBeInTheDocument());
    expect(sessionStorage.getItem('candidate-lookup:recent')).toBeNull();
  });

  it('keeps the last 20 lookups, newest first, an id looked up again listed once', async () => {
    const { rememberLookup } = await import('../../src/app/recent/recent-lookups.ts');
    const at = new Date().toISOString();
    for (let i = 1; i <= 25; i++) rememberLookup({ kind: 'refId', id: `id-${i}`, status: 'waiting', environment: 'default', at });
    rememberLookup({ kind: 'refId', id: 'id-10', status: 'approved', environment: 'default', at });
    stubApi({});
    renderWithProviders('/');
    const recent = await screen.findByRole('region', { name: 'Recent lookups' });
    const expected = ['id-10', ...Array.from({ length: 25 }, (_, i) => `id-${25 - i}`).filter((id) => id !== 'id-10')].slice(0, 20);
    expect(
      within(recent)
        .getAllByRole('link')
        .map((link) => within(link).getByText(/^id-\d+$/).textContent),
    ).toEqual(expected);
    const stored = JSON.parse(sessionStorage.getItem('candidate-lookup:recent')!) as Array<{ id: string; status: string }>;
    expect(stored.map((entry) => entry.id)).toEqual(expected);
    expect(stored[0]!.status).toBe('approved');
  });

  it('starts an empty list when someone else is signed in than the one who made it', async () => {
    sessionStorage.setItem('candidate-lookup:recent-owner', 'ana');
    sessionStorage.setItem(
      'candidate-lookup:recent',
      JSON.stringify([{ kind: 'refId', id: 'cust_000482', status: 'inreview', environment: 'default', at: new Date().toISOString() }]),
    );
    const { rememberLookup } = await import('../../src/app/recent/recent-lookups.ts');
    rememberLookup({ kind: 'refId', id: 'cust_000482', status: 'inreview', environment: 'default', at: new Date().toISOString() });
    // The list is loaded apart from the first load: in already, so that its absence below is its own doing.
    await import('../../src/app/recent/recent-list.tsx');
    stubApi({ session: { mode: 'users', user: 'sam', role: 'support' } });
    renderWithProviders('/');
    await screen.findByRole('heading', { level: 1, name: 'Look up a candidate' });
    await waitFor(() => expect(sessionStorage.getItem('candidate-lookup:recent-owner')).toBe('sam'));
    expect(screen.queryByRole('region', { name: 'Recent lookups' })).not.toBeInTheDocument();
    expect(sessionStorage.getItem('candidate-lookup:recent')).toBeNull();
  });
});
