import { setFlagsFromString } from 'node:v8';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { ROUNDED_WORDS } from '../../src/kyc/contract/other-forms.ts';
import { mergeReplyTemplates } from '../../src/kyc/contract/replies.ts';
import { renderWithProviders, stubApi, json, testMeta } from './render.tsx';
import { openEditor } from './reply-fixture.ts';

/**
 * A reply's `{field:…}` of a number says what the card "What the service recorded" says: the number as
 * the service wrote it (12345678901234567890, 0.10000000000000001, 1e21), never JavaScript's reading of
 * it (12345678901234567000, 0.1, 1e+21), which went to the customer as a wrong account number. Node 20
 * gives JSON.parse the source text behind a V8 flag, turned on here as Chromium has it (number-digits.test.tsx).
 */
const withSourceText = (on: boolean) => setFlagsFromString(on ? '--harmony-json-parse-with-source' : '--no-harmony-json-parse-with-source');
afterAll(() => withSourceText(false));
afterEach(() => {
  withSourceText(false);
  vi.restoreAllMocks();
});

const SAM: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };
const FIELDS = ['accountNumber', 'amount', 'limit'];
// The red team's configuration: the support fields and a rejected template that names them.
const replyTemplates = mergeReplyTemplates({
  rejected: 'Your account {field:accountNumber} was declined. Amount: {field:amount}. Limit: {field:limit}. Ref {refId}',
});

/** A support user's answer as the server sends it, its numbers as text: never a JavaScript number's. */
const answer =
  '{"status":"success","data":{"status":"rejected","refId":"acct-7","recordId":"r7",' +
  '"customFields":{"accountNumber":12345678901234567890,"amount":0.10000000000000001,"limit":1e21}}}';

function showSupportPage() {
  const api = stubApi({
    session: SAM,
    meta: testMeta({ supportFields: FIELDS, replyTemplates }),
    candidates: {
      '/api/candidates/refId/acct-7': () => new Response(answer, { headers: { 'content-type': 'application/json' } }),
      '/api/export': () => json({ status: 'success' }),
    },
  });
  renderWithProviders('/candidates/refId/acct-7');
  return api;
}

/** The card's value of a field, by its key. */
const recorded = async (name: string) => {
  const card = (await screen.findByRole('heading', { name: 'What the service recorded' })).closest('section')!;
  return card.querySelector(`[data-field="${name}"] dd`)!;
};

describe("a reply's number placeholders", { timeout: 20_000 }, () => {
  it('attack: an account number past 2^53 goes into the reply as the service sent it, as the card shows it', async () => {
    withSourceText(true);
    const user = userEvent.setup();
    showSupportPage();
    expect(await recorded('accountNumber')).toHaveTextContent(/^12345678901234567890$/);
    const { editor, text } = await openEditor(user);
    // Before: "Your account 12345678901234567000 was declined. Amount: 0.1. Limit: 1e+21. Ref acct-7".
    const sent = 'Your account 12345678901234567890 was declined. Amount: 0.10000000000000001. Limit: 1e21. Ref acct-7';
    expect(text()).toHaveValue(sent);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Reply copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(sent);
  });

  it('says, where the browser cannot keep the text, that the digits may differ, as the card says, never a silent rounding', async () => {
    const user = userEvent.setup();
    showSupportPage();
    expect(await recorded('accountNumber')).toHaveTextContent(`12345678901234567168 (${ROUNDED_WORDS})`);
    const { text } = await openEditor(user);
    // Before: "Your account 12345678901234567000 was declined." with nothing to tell the agent.
    expect(text().value).toContain(`Your account 12345678901234567168 (${ROUNDED_WORDS}) was declined.`);
    expect(text().value).toContain(`Limit: 1000000000000000000000 (${ROUNDED_WORDS}).`);
    expect(text().value).not.toContain('e+21');
  });
});
