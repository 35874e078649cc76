import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { frameKey } from '../../src/app/handoff/reply-frame.ts';
import type { SessionInfo } from '../../src/kyc/contract/api.ts';
import { statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { testMeta } from './render.tsx';
import { openEditor, openFrameFields, showForReply } from './reply-fixture.ts';

/**
 * Red-team findings on the reply editor's greeting and sign-off, each reproduced as saved to localStorage
 * on a support user's page (status level: no name to compare with). None is saved now; each field keeps
 * what was typed, and an ordinary frame is still saved.
 */

const samples = (await sampleCandidates({ now: new Date(), pictures: false })).map((c) => c.record);
const record = samples.find((r) => r.refId === 'cust_000482')!;
const SAM: SessionInfo = { mode: 'users', user: 'sam', role: 'support' };

async function saveFrame(greetingText: string, signOffText: string, session = SAM) {
  const user = userEvent.setup();
  showForReply(record, { session, meta: testMeta(), answer: statusLevelOf(record) });
  const { frame, greeting } = await openFrameFields(user);
  const signOff = frame.getByRole('textbox', { name: 'Sign-off' });
  // Pasted, as a text copied from a ticket is: typed, "[at]" would be read as a key's name.
  for (const [field, text] of [
    [greeting, greetingText],
    [signOff, signOffText],
  ] as const) {
    if (text === '') continue;
    await user.click(field);
    await user.paste(text);
  }
  await user.click(frame.getByRole('button', { name: 'Save for my replies' }));
  return { frame, greeting, signOff };
}

describe('the greeting and sign-off on a support user page', { timeout: 20_000 }, () => {
  it.each([
    ['a name, a date of birth and a passport number in the sign-off', 'Hello,', 'Re: Gertrude Zyxwvut, born 15.06.1987, passport X1234567'],
    ['a name beside "team" in the greeting', 'Dear Gertrude Zyxwvut and team,', ''],
    ['a name in lower case in the greeting', 'hello gertrude zyxwvut,', ''],
    ['a name in lower case after "Thanks" in the sign-off', 'Hello,', 'Thanks ana silva'],
    ['a name in lower case on its own line of the sign-off', 'Hello,', 'Kind regards,\nana silva'],
    ['one name in lower case greeted after a comma', 'hi, ana', ''],
    ['a name after a greeting\'s "from"', 'Greetings from Gertrude Zyxwvut', ''],
    ['a name greeted after "Hello from the Acme team to"', 'Hello from the Acme team to Gertrude Zyxwvut,', ''],
    ['a full name after "from" that the user name sam does not hold', 'Hello from Sam Smith', ''],
    ['one name greeted after a greeting\'s "from" clause', 'Hello from Acme, Gertrude,', ''],
    ['one name greeted after "there"', 'Hello there Gertrude,', ''],
    ['one name in lower case thanked after a closing', 'Hello,', 'Thanks again xiuying,'],
    ["the candidate's id in another case in the sign-off", 'Hello,', 'Re: CUST_000482'],
    ["the candidate's id with a zero-width space inside", 'Hello,', 'Re: cust_\u200b000482'],
    ['another candidate\'s id joined by "_" in the greeting', 'Hello user_7781,', ''],
    ["another candidate's id written with a space in the greeting", 'Hello user 7781,', ''],
    ['the candidate\'s id written with a "/" in the sign-off', 'Hello,', 'ref cust/000482'],
    ["the candidate's id written with a space in the sign-off", 'Hello,', 'ref CUST 000482'],
    ['an e-mail address written with "(at)"', 'Hello,', 'gertrude (at) example.org'],
    ['an e-mail address written with "[at]" and "[dot]"', 'Hello,', 'gertrude [at] example [dot] org'],
  ])('attack: %s is not saved to the browser', async (_, greetingText, signOffText) => {
    const { frame, greeting, signOff } = await saveFrame(greetingText, signOffText);
    expect(frame.getByText(/^Not saved: .* must not hold /)).toBeInTheDocument();
    expect(localStorage.length).toBe(0);
    expect(greeting).toHaveValue(greetingText);
    expect(signOff).toHaveValue(signOffText);
  });

  it('says which words it read as a name, on the field it marks, so the agent knows what to change', async () => {
    // The message was the same long sentence whatever tripped it.
    const { frame, greeting, signOff } = await saveFrame('Hello Siobhán,', 'Kind regards,\nSam\nFinancial Crime Prevention');
    expect(frame.getByText(/^Not saved: “Siobhán” reads like a person's name\. The greeting and sign-off/)).toBeInTheDocument();
    expect(greeting).toHaveAttribute('aria-invalid', 'true');
    expect(greeting).toHaveAccessibleDescription(/^Not saved: “Siobhán” reads like a person's name\./);
    expect(signOff).not.toHaveAttribute('aria-invalid');
    expect(localStorage.length).toBe(0);
  });

  it('saves the ordinary frames as before', async () => {
    const { frame } = await saveFrame('Dear Sir or Madam,', 'Kind regards,\nThe Support Team\nMon-Fri 09.00-17.00');
    expect(frame.getByText('Saved in this browser for your replies.')).toBeInTheDocument();
    expect({ ...localStorage }).toEqual({
      [frameKey('sam')]: JSON.stringify({
        greeting: 'Dear Sir or Madam,',
        signOff: 'Kind regards,\nThe Support Team\nMon-Fri 09.00-17.00',
      }),
    });
  });

  it("saves a greeting from a country or territory, which was refused as a person's name", async () => {
    const { frame, greeting } = await saveFrame('Greetings from Hong Kong,', 'Kind regards,\nSam');
    expect(frame.getByText('Saved in this browser for your replies.')).toBeInTheDocument();
    expect(greeting).not.toHaveAttribute('aria-invalid');
    expect({ ...localStorage }).toEqual({
      [frameKey('sam')]: JSON.stringify({ greeting: 'Greetings from Hong Kong,', signOff: 'Kind regards,\nSam' }),
    });
  });

  it('saves the agent\'s own full name, as the session names them, a greeting from a place and "I am"', async () => {
    // Each was refused as a person's name, and the agent could keep no frame that signs with their name.
    const session: SessionInfo = { mode: 'users', user: 'sam.smith', role: 'support' };
    const { frame, greeting, signOff } = await saveFrame('Greetings from San Francisco, I am Sam.', 'Kind regards,\nSam Smith', session);
    expect(frame.getByText('Saved in this browser for your replies.')).toBeInTheDocument();
    expect(greeting).not.toHaveAttribute('aria-invalid');
    expect(signOff).not.toHaveAttribute('aria-invalid');
    expect({ ...localStorage }).toEqual({
      [frameKey('sam.smith')]: JSON.stringify({ greeting: 'Greetings from San Francisco, I am Sam.', signOff: 'Kind regards,\nSam Smith' }),
    });
  });

  it("keeps the agent's own full name kept before, and puts it around the reply", async () => {
    const kept = JSON.stringify({ greeting: 'Hello,', signOff: 'Kind regards,\nSam Smith' });
    localStorage.setItem(frameKey('sam.smith'), kept);
    const session: SessionInfo = { mode: 'users', user: 'sam.smith', role: 'support' };
    showForReply(record, { session, meta: testMeta(), answer: statusLevelOf(record) });
    const { text } = await openEditor(userEvent.setup());
    expect(text().value.endsWith('\n\nKind regards,\nSam Smith')).toBe(true);
    expect({ ...localStorage }).toEqual({ [frameKey('sam.smith')]: kept });
  });
});
