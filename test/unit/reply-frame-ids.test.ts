import { describe, expect, it } from 'vitest';
import { detailsOf, frameProblem } from '../../src/app/handoff/reply-frame.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/** What a greeting or sign-off to keep must not hold (issue 33): the candidate's id, any id, e-mail address, phone number or date. */
describe('ids and numbers in the greeting and sign-off', () => {
  it("refuses to keep a frame that holds the candidate's id, or one too long", () => {
    const known = (ids: Array<string | null>) => ({ ids, details: [] });
    expect(frameProblem({ greeting: 'Hello,', signOff: 'Sam' }, known(['cust_000482', null]))).toBeUndefined();
    expect(frameProblem({ greeting: 'Hello cust_000482,', signOff: '' }, known(['cust_000482']))).toMatch(
      /must not hold this candidate's id/,
    );
    expect(frameProblem({ greeting: 'x'.repeat(301), signOff: '' }, known([]))).toMatch(/at most 300/);
  });

  it('attack: refuses another candidate\'s id joined by "_" or ".", and this candidate\'s written with a space, a "." or a "-"', () => {
    // On support-ticket-4410's page, "Hello cust_000482," was kept: "cust" and "000482" were read apart,
    // while "Re: crm-55102" was refused. "ref CUST 000482" was kept on cust_000482's own page.
    const ticket = { ids: ['support-ticket-4410', '65f1c2a9e4b0d3a1f0c9b810'], details: [] };
    for (const greeting of ['Hello cust_000482,', 'Re: CUST_000482', 'ref cust.000482', 'Re: crm-55102'])
      expect(frameProblem({ greeting, signOff: '' }, ticket), greeting).toMatch(/must not hold a document or reference number/);
    const own = { ids: ['cust_000482', '65f1c2a9e4b0d3a1f0c9b810'], details: [] };
    for (const signOff of [
      'ref CUST 000482',
      'ref cust.000482',
      'Re: cust - 000482',
      'Re: Cust 000 482',
      'record 65F1 C2A9 E4B0 D3A1 F0C9 B810',
    ])
      expect(frameProblem({ greeting: 'Hello,', signOff }, own), signOff).toMatch(/must not hold this candidate's id/);
    // A year, hours and a desk number stay kept beside them.
    expect(frameProblem({ greeting: 'Hello,', signOff: 'Support 2025-2026, desk 4410\nMon-Fri 09.00-17.00' }, own)).toBeUndefined();
  });

  it("attack: refuses an id written with a space or another mark between its parts, this candidate's or after a word that says an id follows", () => {
    // On cust_000482's page "Hello user 7781," was kept where "Hello user_7781," was refused; on its own
    // page "ref cust/000482" and "Re: cust#000482" were kept, as only spaces, "_", "." and "-" were ignored.
    const ticket = { ids: ['cust_000482'], details: [] };
    for (const greeting of [
      'Hello user 7781,',
      'Re: USER 7781',
      'user: 7781',
      'Hi, re user no. 7781',
      'Re: user – 7781',
      'Re: user#7781',
      'Re: user–7781',
      'case 12 34 56',
    ])
      expect(frameProblem({ greeting, signOff: '' }, ticket), greeting).toMatch(/must not hold a document or reference number/);
    for (const signOff of ['ref cust/000482', 'Re: cust#000482', 'cust – 000482', 'cust: 000482', 'Re: cust·000·482'])
      expect(frameProblem({ greeting: 'Hello,', signOff }, ticket), signOff).toMatch(/must not hold this candidate's id/);
    // The agent's desk, hours, years and a customer spoken of stay kept: no word there says an id follows.
    for (const signOff of ['Support 2026, desk 4410', 'Room 1204, Mon–Fri 09:00–17:00', 'Customer Care since 2019', 'Open 24/7'])
      expect(frameProblem({ greeting: 'Hello,', signOff }, ticket), signOff).toBeUndefined();
  });

  it("refuses any e-mail address or phone number, and the candidate's name and e-mail as words of their own", () => {
    const record = {
      status: 'approved',
      refId: 'r1',
      identities: {
        given_name: { type: 'string', value: 'Ana' },
        family_name: { type: 'string', value: 'Silva' },
        email: { type: 'string', value: 'ana.silva@example.pt' },
      },
    } as unknown as CandidateRecord;
    const known = { ids: ['r1'], details: detailsOf(record) };
    expect(known.details).toEqual(['Ana', 'Silva', 'Ana Silva', 'ana.silva@example.pt']);
    const problem = (greeting: string, signOff = '') => frameProblem({ greeting, signOff }, known, 'sam');
    for (const greeting of ['Dear Ana,', 'Hello MS SILVA', 'Olá ana']) expect(problem(greeting), greeting).toMatch(/this candidate's name/);
    // Their name inside another word is not theirs: the agent Anastasia can sign her replies.
    expect(problem('Hello,', 'Kind regards, Anastasia from Support')).toBeUndefined();
    for (const email of ['write to sam@support.example', 'zoe.angstrom＠example.se'])
      expect(problem('Hi,', email), email).toMatch(/an e-mail address/);
    for (const phone of ['+46 70-123 45 67', '(020) 7946 0958', '０７０１２３４５６７'])
      expect(problem('Hi,', phone), phone).toMatch(/a phone number/);
    // Fewer than 8 digits is a reference or a year, not a phone number; nor are years, dates or hours
    // joined by "-" and "." (the whole-diff review: these were refused).
    expect(problem('Hello,', 'Support team 2026, desk 4410')).toBeUndefined();
    for (const signOff of ['Sam, Support 2025-2026', 'Kind regards, Sam (Support, Mon-Fri 09.00-17.00)'])
      expect(problem('Hello,', signOff), signOff).toBeUndefined();
    // A whole date is refused since a date of birth was kept in a sign-off (red-team findings): whose it is cannot be told.
    for (const signOff of ['Since 2024-11-30', 'Office closed 24 December 2026', 'Back on January 5, 2027']) {
      // Said why, as the agent's own date is refused too (the message said only "a date (such as a date of birth)").
      expect(problem('Hello,', signOff), signOff).toMatch(
        /must not hold a whole date, not even one of yours: a date of birth cannot be told from any other/,
      );
    }
    for (const signOff of ['Support 2026', 'Office closed in December 2026']) expect(problem('Hello,', signOff), signOff).toBeUndefined();
    for (const phone of ['0701234567', '06 12 34 56 78']) expect(problem('Hi,', phone), phone).toMatch(/a phone number/);
  });

  it('keeps a year alone after a word that says an id follows, which was refused as a reference number', () => {
    const none = { ids: [], details: [] };
    // Each was refused as "“case 2026” reads like a document or reference number", though "Support 2026" was kept.
    for (const signOff of [
      'Kind regards, Sam, case 2026',
      'Best, Sam (ref 2024)',
      'Sam – Account 2026 team',
      'Sam, ID 2026',
      'Sam, Record 1999',
    ])
      expect(frameProblem({ greeting: 'Hello,', signOff }, none, 'sam'), signOff).toBeUndefined();
    // A number that is more than a year there is still an id.
    for (const signOff of ['Sam, case 2026-4410', 'Sam, ref 2026/44', 'Sam, user 20261', 'Sam, case 1234', 'Sam, record 2100'])
      expect(frameProblem({ greeting: 'Hello,', signOff }, none, 'sam'), signOff).toMatch(/reads like a document or reference number/);
  });
});
