import { describe, expect, it } from 'vitest';
import { frameProblem } from '../../src/app/handoff/reply-frame.ts';

/**
 * The words the name rule reads as no one's: greeting and closing words in the languages it reads, a
 * title alone, a department and its hours under a sign-off (the review found each refused as a person's
 * name on support-ticket-4410's page), while a name beside them is still refused.
 */
const ticket = { ids: ['support-ticket-4410'], details: [] };
const problem = (greeting: string, signOff = '') => frameProblem({ greeting, signOff }, ticket, 'sam');

describe('the words of a greeting and sign-off', () => {
  it("keeps ordinary greetings and sign-offs that were refused as a person's name", () => {
    for (const greeting of [
      'Guten Tag,',
      'guten tag,',
      'Hallo zusammen,',
      'Buenos días,',
      'Bom dia,',
      'Buenas tardes,',
      'Bonjour à tous,',
      'Dear Account Holder,',
      'Dear Mr/Ms,',
      'Dear Mr./Mrs.,',
      'Dear Mr or Ms,',
    ])
      expect(problem(greeting), greeting).toBeUndefined();
    for (const signOff of [
      'Met vriendelijke groet,\nSam',
      'Have a Great Day!\nSam',
      'Kind regards,\nSam\nFinancial Crime Prevention',
      'Kind regards,\nSam\nFinancial Crime',
      'Kind regards,\nSam\nIdentity & Fraud Prevention',
      'Regards,\nSam\nAvailable Monday to Friday',
      'Regards,\nSam\nClosed Dec 2026',
    ])
      expect(problem('Hello,', signOff), signOff).toBeUndefined();
  });

  it('attack: refuses a name after a greeting with the time of day, a title or a greeting word of another language', () => {
    for (const greeting of [
      // Kept before: only a greeting word alone in its part greeted the next part.
      'Good morning, Ana',
      'good morning, ana silva',
      // Refused before as "Guten Tag" or "Mr" read as a name; still refused with the words read as no one.
      'Guten Tag, Ana',
      'guten tag, ana silva',
      'Guten Tag Ana,',
      'bom dia ana,',
      'Hallo zusammen, Ana Silva',
      'Dear Mr/Ms Zyxwvut,',
      'dear mr/ms zyxwvut,',
      'hello mrs zyxwvut,',
      'Dear Mrs. Zyxwvut',
      'hi, ms ana',
    ])
      expect(problem(greeting), greeting).toMatch(/a person's name/);
    for (const signOff of [
      'Financial Crime, Gertrude Zyxwvut',
      'Gertrude Zyxwvut Credit Union',
      'Available Monday to Friday\ngertrude zyxwvut',
    ])
      expect(problem('Hello,', signOff), signOff).toMatch(/a person's name/);
  });
});

describe('a name beside the common words that name no one in a set phrase (WEAK)', () => {
  it('attack: refuses a full name with a middle initial, or next to such a word, that those words let through', () => {
    // Each was kept once "a", "an", "holiday", "open" or "payments" ended a run of names or excused one
    // (the last review), and so saved in this browser and put around every later reply.
    for (const greeting of [
      'Re: Gertrude A Zyxwvut,',
      'Re: Gertrude A. Zyxwvut, passport on file',
      'Re: Billie Holiday,',
      'Re: An Nguyen,',
      'Re: Gertrude Open Zyxwvut,',
      'Re: Gertrude Zyxwvut Payments,',
      'Re: Gertrude Zyxwvut Security,',
      'Re: Gertrude Zyxwvut Prevention,',
    ])
      expect(problem(greeting), greeting).toMatch(/a person's name/);
    for (const signOff of ['Kind regards,\nGertrude A. Zyxwvut', 'gertrude a zyxwvut'])
      expect(problem('Hello,', signOff), signOff).toMatch(/a person's name/);
  });

  it('keeps the set phrases and departments those words are in', () => {
    for (const signOff of [
      'Have a nice day',
      'have a nice day',
      'Have A Great Day!',
      'A quick update',
      'Quick update below',
      'Account Security',
      'Acme Payments',
      'Kind regards,\nSam\nFinancial Crime Prevention',
    ])
      expect(problem('Hello,', signOff), signOff).toBeUndefined();
  });

  it('refuses, privacy first, an organisation whose name reads as a full name beside such words', () => {
    // "Acme Credit Union" cannot be told from "Gertrude Zyxwvut Union" by its shape: the message quotes it.
    expect(problem('Hello,', 'Kind regards,\nSam\nMember Services, Acme Credit Union')).toMatch(/“Acme Credit Union”/);
    expect(problem('Hello,', 'Kind regards,\nA. Zyxwvut')).toMatch(/a person's name/);
  });
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the refusal of a greeting or sign-off', () => {
  it('quotes the words it read as a name, a date, an id, an e-mail address or a number, so the agent knows what to change', () => {
    // Each was refused with the same long sentence, whatever tripped it.
    for (const [greeting, signOff, said] of [
      ['Hello Siobhán,', '', "“Siobhán” reads like a person's name"],
      ['Dear Mrs Zyxwvut,', '', "“Mrs Zyxwvut” reads like a person's name"],
      ['Guten Tag Frau Zyxwvut,', '', "“Frau Zyxwvut” reads like a person's name"],
      ['Hello,', 'Kind regards,\nana silva', "“ana silva” reads like a person's name"],
      ['Greetings from Gertrude Zyxwvut', '', "“Gertrude Zyxwvut” reads like a person's name"],
      ['Hello cust_000483,', '', '“cust_000483” reads like a document or reference number'],
      ['Hello,', 'Office closed 24 December 2026', '“24 december 2026” reads like a date'],
      ['Hello,', 'Sam\ngertrude (at) example.org', '“gertrude (at) example.org” reads like an e-mail address'],
      ['Hello,', 'call +46 70-123 45 67', '“+46 70-123 45 67” reads like a phone number'],
    ] as const)
      expect(problem(greeting, signOff), greeting + signOff).toMatch(
        new RegExp(`^Not saved: ${escaped(said)}\\. The greeting and sign-off .* must not hold `),
      );
    const known = { ids: ['cust_000482'], details: ['Ana', 'Silva', 'Ana Silva', 'ana.silva@example.pt'] };
    expect(frameProblem({ greeting: 'Hello,', signOff: 'ref CUST 000482' }, known)).toMatch(
      /^Not saved: “cust_000482” is this candidate's id\./,
    );
    expect(frameProblem({ greeting: 'dear ana silva', signOff: '' }, known)).toMatch(/^Not saved: “Ana Silva” is this candidate's name\./);
    expect(frameProblem({ greeting: 'Hi,', signOff: 'ANA.SILVA@EXAMPLE.PT' }, known)).toMatch(
      /^Not saved: “ana\.silva@example\.pt” is this candidate's e-mail address\./,
    );
    // A long one is cut, on one line.
    expect(problem('Hello,', `${'x'.repeat(80)}@example.org`)).toMatch(/^Not saved: “x{59}…” reads like an e-mail address\./);
  });
});
