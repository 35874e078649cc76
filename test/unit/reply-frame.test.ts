import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detailsOf, framed, frameKey, frameProblem, placesOf, reframed } from '../../src/app/handoff/reply-frame.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/** The agent's greeting and sign-off around a reply (issue 33): composed, changed under edits, and what may be kept. */
describe('the greeting and sign-off', () => {
  it('puts them around the reply as paragraphs, leaving out the empty ones', () => {
    expect(framed('Body.', { greeting: 'Hello,', signOff: 'Kind regards,\nSam' })).toBe('Hello,\n\nBody.\n\nKind regards,\nSam');
    expect(framed('Body.', { greeting: ' ', signOff: 'Sam' })).toBe('Body.\n\nSam');
    expect(framed('Body.', { greeting: '', signOff: '' })).toBe('Body.');
  });

  it('swaps an old frame for a new one wherever it still stands, and keeps the edits between', () => {
    const old = { greeting: 'Hello,', signOff: 'Sam' };
    const next = { greeting: 'Hi,', signOff: 'Sam from Support' };
    expect(reframed('Hello,\n\nBody, edited.\n\nSam', old, next)).toBe('Hi,\n\nBody, edited.\n\nSam from Support');
    // A greeting the agent rewrote by hand stays theirs; the sign-off still changes.
    expect(reframed('Dear customer,\n\nBody.\n\nSam', old, next)).toBe('Dear customer,\n\nBody.\n\nSam from Support');
    // None before: the new ones are added.
    expect(reframed('Body.', { greeting: '', signOff: '' }, next)).toBe('Hi,\n\nBody.\n\nSam from Support');
  });

  it('gives framed(body, b) from framed(body, a) for any body and frames', () => {
    const text = fc.string({ maxLength: 30 }).map((t) => t.trim());
    const frame = fc.record({ greeting: text, signOff: text });
    const body = fc.string({ minLength: 1, maxLength: 60 }).filter((b) => b.trim() === b && b !== '');
    fc.assert(
      fc.property(body, frame, frame, (b, from, to) => {
        expect(reframed(framed(b, from), from, to)).toBe(framed(b, to));
      }),
      { numRuns: 1000 },
    );
  });

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
    const problem = (greeting: string, signOff = '') => frameProblem({ greeting, signOff }, known);
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

  it("attack: refuses one word of the candidate's name in lower case inside a sentence, and the particles of it alone are kept", () => {
    const record = {
      status: 'approved',
      refId: 'r1',
      identities: {
        given_name: { type: 'string', value: 'Ada Augusta' },
        family_name: { type: 'string', value: 'de Lovelace-King' },
      },
    } as unknown as CandidateRecord;
    const known = { ids: ['r1'], details: detailsOf(record) };
    // Each was kept: only "Ada Augusta", "de Lovelace-King" and the whole name were compared.
    for (const signOff of ['Thanks again ada, for your patience', 'Sam, for AUGUSTA', 're: king', 'Lovelace file'])
      expect(frameProblem({ greeting: 'Hello,', signOff }, known), signOff).toMatch(/^Not saved: “\S+” is this candidate's name\./);
    // Their particle and words that only hold their name are not their name.
    for (const signOff of ['Kind regards, Sam de Support', 'Thanks for your patience, Adam', 'Sam\nAdamant Payments'])
      expect(frameProblem({ greeting: 'Hello,', signOff }, known), signOff).toBeUndefined();
  });

  it("refuses a greeting that names someone, which a support user's page has no name to compare with", () => {
    const none = { ids: [], details: [] };
    // One given name after the greeting word is one customer's, put before every later customer's reply.
    for (const greeting of [
      'Hello Mehmet Yılmaz,',
      'Dear Ana Silva',
      'Maria de Souza,',
      'Hi Zoë Ångström!',
      'Hello Siobhán,',
      'Dear Ana,',
      'Good morning Ana,',
      'Hi, Ana',
      'Hello ana,',
    ])
      expect(frameProblem({ greeting, signOff: '' }, none), greeting).toMatch(/a person's name/);
    for (const greeting of [
      'Hello,',
      'Dear customer,',
      'Hello Team,',
      'Hi there,',
      'Dear Sir or Madam,',
      'Hi Everyone,',
      'Good Morning,',
      'Dear Applicant,',
      'Hello again,',
      'Hello, welcome to Acme Support.',
      'Hi, thanks for waiting.',
    ])
      expect(frameProblem({ greeting, signOff: 'Kind regards, Sam' }, none), greeting).toBeUndefined();
    // A full name in the sign-off is read too, the agent's own with it: whose it is cannot be told.
    expect(frameProblem({ greeting: 'Hello,', signOff: 'Kind regards, Sam Smith' }, none)).toMatch(/a person's name/);
  });

  it('attack: refuses a name in lower case where a frame puts a name, on a page with no name to compare with', () => {
    const none = { ids: [], details: [] };
    // Each was saved: only capitalised words were read as a name outside the words right after "Hello".
    for (const signOff of [
      'Thanks ana silva',
      'thank you ana silva',
      'Kind regards,\nana silva',
      'kind regards, ana silva',
      're: gertrude zyxwvut, born in lisbon',
      'best wishes from gertrude zyxwvut',
      'gertrude zyxwvut and team',
    ])
      expect(frameProblem({ greeting: 'Hello,', signOff }, none), signOff).toMatch(/a person's name/);
    for (const greeting of ['dear ana,', 'hi, ana', 'hello, ana silva']) {
      expect(frameProblem({ greeting, signOff: '' }, none), greeting).toMatch(/a person's name/);
    }
    // Ordinary words in lower case are kept, where a name would stand too.
    for (const signOff of [
      'kind regards,\nthe support team',
      'thanks',
      'best wishes, sam',
      'thanks so much',
      'thanks a lot\ntalk soon',
      'hope this helps\nsam from support',
      'many thanks in advance',
      'sam, senior analyst',
      'candidate lookup support\nopen banking ltd',
      'take care and stay safe',
    ])
      expect(frameProblem({ greeting: 'hi, thanks for reaching out.', signOff }, none), signOff).toBeUndefined();
    for (const greeting of ['hi, hope you are well', 'Hello, hope you’re well', "hi, we're on it"])
      expect(frameProblem({ greeting, signOff: 'thanks for your patience while we review' }, none), greeting).toBeUndefined();
  });

  it('keeps the signed-in agent\'s own full name, a greeting from a place and "I am", which were refused as a person\'s name', () => {
    const none = { ids: [], details: [] };
    const problem = (greeting: string, signOff: string, user?: string) => frameProblem({ greeting, signOff }, none, user);
    // What the session says of the user is all the page knows of their name.
    for (const user of ['sam.smith', 'Sam.Smith@example.org', 'sam_smith', 'Sam Smith'])
      expect(problem('Hello,', 'Kind regards, Sam Smith', user), user).toBeUndefined();
    expect(problem('Hello,', 'kind regards,\nsam smith', 'sam.smith')).toBeUndefined();
    expect(problem('Hello,', 'Thanks, Ana Smith-Jones', 'ana.smith-jones@example.org')).toBeUndefined();
    // Another's name still goes nowhere: a user name of one word tells no family name, and the candidate's is refused whoever signs.
    expect(problem('Hello,', 'Kind regards, Sam Smith', 'sam')).toMatch(/a person's name/);
    expect(problem('Hello,', 'Kind regards, Sam Jones', 'sam.smith')).toMatch(/a person's name/);
    expect(problem('Hello,', 'Kind regards, Sam Smith and Ana Silva', 'sam.smith')).toMatch(/a person's name/);
    expect(problem('Hello,', 'Kind regards, Sam Smith', undefined)).toMatch(/a person's name/);
    const candidate = { ids: ['r1'], details: ['Sam', 'Smith', 'Sam Smith'] };
    expect(frameProblem({ greeting: 'Hello,', signOff: 'Sam Smith' }, candidate, 'sam.smith')).toMatch(/this candidate's name/);
    for (const greeting of [
      'Greetings from San Francisco,',
      'greetings from san francisco,',
      'Hello from the Acme team,',
      'Hi, I am Sam.',
      "Hi, I'm Sam.",
    ])
      expect(problem(greeting, 'Kind regards, Sam'), greeting).toBeUndefined();
    for (const greeting of ['Greetings from San Francisco, Ana Silva', 'Hi, I am Sam. Dear Ana Silva,', 'Dear I. Smith,'])
      expect(problem(greeting, ''), greeting).toMatch(/a person's name/);
  });

  it('attack: refuses a name after a greeting\'s "from" or greeted after its "to", which was kept as where the greeting comes from', () => {
    const none = { ids: [], details: [] };
    const problem = (greeting: string, user = 'sam') => frameProblem({ greeting, signOff: '' }, none, user);
    // Each was kept: every word after a greeting's "from" was left unread, as a place's name.
    for (const greeting of [
      'Hello from the Acme team to Gertrude Zyxwvut,',
      'hello from the acme team to gertrude zyxwvut,',
      'Hello from Acme to Gertrude,',
      'Greetings from Gertrude Zyxwvut',
      'greetings from gertrude zyxwvut',
      'Greetings from San Francisco Gertrude Zyxwvut',
      // The user sam's name tells no family name, as for "Kind regards, Sam Smith".
      'Hello from Sam Smith',
    ])
      expect(problem(greeting), greeting).toMatch(/a person's name/);
    expect(problem('Kind regards, Sam Smith')).toMatch(/a person's name/);
    // Two names there cannot be told from a place by their shape: the message says so and what is kept.
    expect(problem('Greetings from Gertrude Zyxwvut')).toMatch(/after a greeting's "from".*"Greetings from the support team," is kept/);
    for (const greeting of [
      'Greetings from San Francisco,',
      'Greetings from Los Angeles',
      'Hello from St. Gallen,',
      'Greetings from Santa Monica,',
      'greetings from salt lake city',
      'Hello from London,',
      'Hello from the Acme team,',
      'Greetings from the support team,',
    ])
      expect(problem(greeting), greeting).toBeUndefined();
    expect(problem('Hello from Sam Smith', 'sam.smith')).toBeUndefined();
  });

  it("keeps a greeting from a country or territory, which was refused as a person's name", () => {
    const none = { ids: [], details: [] };
    // Each was refused: two capitalised words after "from" with no "San" or "Lake" in them read as a name.
    for (const greeting of [
      'Greetings from Hong Kong',
      'greetings from hong kong,',
      'Hello from Sri Lanka,',
      'Hello from the United Kingdom,',
      'Hallo from Vereinigtes Königreich,',
    ])
      expect(frameProblem({ greeting, signOff: '' }, none, 'sam'), greeting).toBeUndefined();
    // Beside a name, or a name that no country has, it is refused as before.
    for (const greeting of [
      'Greetings from Hong Kong Gertrude Zyxwvut',
      'Greetings from Gertrude Zyxwvut',
      'Hello from Sri Lanka to Ana Silva,',
    ])
      expect(frameProblem({ greeting, signOff: '' }, none, 'sam'), greeting).toMatch(/a person's name/);
  });

  it("attack: refuses a greeting from the candidate's city or street, where the page has their address", () => {
    // A greeting from Hong Kong would be kept now; from where the candidate lives it tells every later customer where that is.
    const record = {
      status: 'approved',
      refId: 'r1',
      identities: {
        address: { type: 'string', value: JSON.stringify({ address: '88 Queensway', city: 'Hong Kong', country: 'HKG' }) },
      },
    } as unknown as CandidateRecord;
    const known = { ids: ['r1'], details: detailsOf(record), places: placesOf(record) };
    expect(known.places).toEqual(['88 Queensway', 'Hong Kong']);
    for (const greeting of ['Greetings from Hong Kong,', 'greetings from HONG KONG', 'Hello from 88 Queensway,'])
      expect(frameProblem({ greeting, signOff: '' }, known, 'sam'), greeting).toMatch(
        /^Not saved: “(Hong Kong|88 Queensway)” is where this candidate lives\./,
      );
    // Another country is no one's, and the city elsewhere than where a greeting comes from is read as any words are.
    expect(frameProblem({ greeting: 'Hello from Sri Lanka,', signOff: '' }, known, 'sam')).toBeUndefined();
    expect(frameProblem({ greeting: 'Hello,', signOff: 'Kind regards,\nSam, Hong Kong desk' }, known, 'sam')).toBeUndefined();
  });

  it('attack: refuses a name greeted in the part after a greeting from somewhere, as after "Hi,"', () => {
    const none = { ids: [], details: [] };
    const problem = (greeting: string) => frameProblem({ greeting, signOff: '' }, none, 'sam');
    // Each was kept: who a greeting from somewhere greets was read after its "to" only.
    for (const greeting of [
      'Hello from Acme, Gertrude,',
      'hello from acme, gertrude',
      'Greetings from San Francisco, Mrs Zyxwvut',
      'Hello from Acme, gertrude zyxwvut',
      'Hi from the support team; Gertrude Zyxwvut,',
    ])
      expect(problem(greeting), greeting).toMatch(
        /“[^”]*gertrude[^”]*” reads like a person's name|“Mrs Zyxwvut” reads like a person's name/i,
      );
    // A sentence there greets no one, as after "Hi,".
    for (const greeting of [
      'Hello from Acme, welcome to Acme Support.',
      'Greetings from San Francisco, I am Sam.',
      'Hello from London, hope you are well',
      'Hello from the Acme team, thanks for waiting.',
    ])
      expect(problem(greeting), greeting).toBeUndefined();
  });

  it("keeps ordinary sign-offs and greetings that were refused as a person's name", () => {
    const none = { ids: [], details: [] };
    // Each was refused: two words of letters at the start of a line read as a name in any case.
    for (const [greeting, signOff] of [
      ['Hello,', 'Have a nice day'],
      ['Hello,', 'Have a great weekend'],
      ['Hello,', 'have a nice day'],
      ['Hello,', 'A quick update'],
      ['Hello,', 'Quick update'],
      ['hi there,', 'quick update below'],
      ['Hello,', 'warm regards,\nfraud prevention'],
      ['Hello,', 'Cheers,\nAccount Security'],
      ['Hello,', 'cheers,\naccount security'],
      ['Hello,', 'best wishes,\nacme payments'],
      ['Hello,', 'Best wishes,\nOpen Banking Payments'],
    ] as const)
      expect(frameProblem({ greeting, signOff }, none, 'sam'), signOff).toBeUndefined();
    // Such a word ends a name, it never excuses one.
    for (const signOff of ['Have a nice day, Gertrude Zyxwvut', 'Gertrude Zyxwvut, account security', 'fraud prevention\ngertrude zyxwvut'])
      expect(frameProblem({ greeting: 'Hello,', signOff }, none, 'sam'), signOff).toMatch(/a person's name/);
  });

  it('keys the storage by a hash of the user, never the name itself', () => {
    expect(frameKey('sam@example.org')).toMatch(/^candidate-lookup:reply-frame:[0-9a-f]{8}$/);
    expect(frameKey('sam@example.org')).not.toContain('sam');
    expect(frameKey('sam@example.org')).not.toBe(frameKey('ana@example.org'));
  });
});
