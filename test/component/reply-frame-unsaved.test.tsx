import { waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { testMeta } from './render.tsx';
import { exportsOf, openFrameFields, showForReply } from './reply-fixture.ts';

/**
 * UX review: a greeting and sign-off typed but not saved were left out of the copied reply without a
 * word (the reply was framed with the saved ones only), and a greeting naming the customer was refused
 * only once Save was pressed. The reply now shows, and Copy copies, what is typed once the frame's rules
 * let it through; what they refuse is said as it is typed, and holds Copy.
 */

const samples = (await sampleCandidates({ now: new Date(), pictures: false })).map((c) => c.record);
const record = samples.find((r) => r.refId === 'a3b6c9d2-1e4f-4a7b-8c0d-9e2f5a8b1c4d')!;
const SAM: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };
const ZOE_REFUSED = /^Not saved: “Zoë” reads like a person's name\. The greeting and sign-off/;

async function openFrame() {
  const user = userEvent.setup();
  const api = showForReply(record, { session: SAM, meta: testMeta(), answer: statusLevelOf(record) });
  const opened = await openFrameFields(user);
  const writeText = vi.spyOn(navigator.clipboard, 'writeText');
  return { ...opened, user, api, writeText, signOff: opened.frame.getByRole('textbox', { name: 'Sign-off' }) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a greeting and sign-off typed but not saved', { timeout: 20_000 }, () => {
  it('go around the reply as it is shown and copied, and the fields say they are not saved for later replies', async () => {
    const { user, editor, text, frame, greeting, signOff, writeText } = await openFrame();
    const body = text().value;
    await user.type(greeting, 'Hello,');
    await user.type(signOff, 'Kind regards, the support team');
    // Before: the reply kept the saved (empty) frame, and Copy copied it without a word.
    expect(text()).toHaveValue(`Hello,\n\n${body}\n\nKind regards, the support team`);
    expect(frame.getByText('In this reply only: not saved for your later replies.')).toBeInTheDocument();
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`Hello,\n\n${body}\n\nKind regards, the support team`));
    expect(localStorage.length).toBe(0);
  });

  it('attack: a greeting naming the customer is refused as it is typed, with the words Save says, and never goes around the reply', async () => {
    const { user, text, greeting, frame } = await openFrame();
    const body = text().value;
    await user.type(greeting, 'Hello Zoë,');
    // Said once the agent pauses, politely, before any Save (before: only after Save).
    const said = await frame.findByText(ZOE_REFUSED);
    expect(said).toHaveAttribute('aria-live', 'polite');
    expect(greeting).toHaveAttribute('aria-invalid', 'true');
    expect(greeting).toHaveAccessibleDescription(ZOE_REFUSED);
    expect(text().value).not.toMatch(/Zoë/);
    expect(text().value.endsWith(body)).toBe(true);
    expect(frame.queryByText(/not saved for your later replies/)).not.toBeInTheDocument();
    expect(localStorage.length).toBe(0);
  });

  it('attack: Copy pressed at once on a refused greeting copies nothing, says why beside it, and the refusal at once', async () => {
    const { user, api, editor, text, greeting, frame, writeText } = await openFrame();
    const body = text().value;
    await user.type(greeting, 'Hello Zoë,');
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    // Before: the reply went to the clipboard without the greeting, and nothing was said.
    expect(within(editor).getByRole('alert')).toHaveTextContent(
      'Not copied: the greeting or sign-off you typed cannot go around this reply (why is said under it). Change it, or clear it to copy the reply without it.',
    );
    expect(frame.getByText(ZOE_REFUSED)).toBeInTheDocument();
    expect(writeText).not.toHaveBeenCalled();
    expect(exportsOf(api.fetchMock)).toEqual([]);

    // Cleared, the line goes and the reply is copied as it shows, without the greeting.
    await user.clear(greeting);
    expect(within(editor).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(editor).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(body));
  });

  it('a greeting made general after a refusal goes around the reply, and the refusal goes', async () => {
    const { user, text, greeting, frame } = await openFrame();
    const body = text().value;
    await user.type(greeting, 'Hello Zoë,');
    await frame.findByText(ZOE_REFUSED);
    await user.clear(greeting);
    await user.type(greeting, 'Hello,');
    expect(frame.queryByText(/^Not saved/)).not.toBeInTheDocument();
    expect(greeting).not.toHaveAttribute('aria-invalid');
    expect(text()).toHaveValue(`Hello,\n\n${body}`);
  });
});
