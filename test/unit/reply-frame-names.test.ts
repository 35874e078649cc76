import { describe, expect, it } from 'vitest';
import { detailsOf, frameProblem } from '../../src/app/handoff/reply-frame.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/** A person's name in a greeting or sign-off to keep (issue 33): the candidate's where the page has it, any by its shape. */
describe('names in the greeting and sign-off', () => {
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
    // Signed by the user sam: one word after a closing is read as a name unless the user name holds it.
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
      expect(frameProblem({ greeting, signOff: 'Kind regards, Sam' }, none, 'sam'), greeting).toBeUndefined();
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
      expect(frameProblem({ greeting: 'hi, thanks for reaching out.', signOff }, none, 'sam'), signOff).toBeUndefined();
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
      expect(problem(greeting, 'Kind regards, Sam', 'sam'), greeting).toBeUndefined();
    for (const greeting of ['Greetings from San Francisco, Ana Silva', 'Hi, I am Sam. Dear Ana Silva,', 'Dear I. Smith,'])
      expect(problem(greeting, ''), greeting).toMatch(/a person's name/);
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

  it("keeps the particles and two-letter words of a candidate's name written in capitals, which were refused as their name", () => {
    const known = (given: string, family: string) => {
      const identities = { given_name: { type: 'string', value: given }, family_name: { type: 'string', value: family } };
      return { ids: ['r1'], details: detailsOf({ status: 'approved', refId: 'r1', identities } as unknown as CandidateRecord) };
    };
    // Each was refused as "“DE”", "“LOS”", "“DA”", "“AN”" is this candidate's name: only particles in lower case were skipped.
    expect(known('ANA', 'DE SOUSA').details).toEqual(['ANA', 'DE SOUSA', 'ANA DE SOUSA', 'SOUSA']);
    for (const [given, family, greeting, signOff] of [
      ['ANA', 'DE SOUSA', 'Saludos de parte del equipo,', ''],
      ['ANA', 'DE LOS SANTOS', 'Greetings from Los Angeles,', ''],
      ['ANA', 'DA SILVA', 'Hello,', 'Obrigado, equipe da Acme'],
      ['JAN', 'VAN AN', 'Hello,', 'Have an easy day, Sam'],
    ] as const)
      expect(frameProblem({ greeting, signOff }, known(given, family), 'sam'), `${family}: ${greeting} ${signOff}`).toBeUndefined();
    // The name itself, and each longer word of it, is still refused.
    for (const greeting of ['Hello Ms de Sousa,', 'Re: SOUSA', 'Olá ana'])
      expect(frameProblem({ greeting, signOff: '' }, known('ANA', 'DE SOUSA'), 'sam'), greeting).toMatch(/is this candidate's name/);
  });

  it('attack: refuses one name greeted after "there", "back" or "valued customer", or thanked after a closing, in any case, on a page with no name to compare with', () => {
    const none = { ids: [], details: [] };
    // Each was kept: only a name right after the greeting word was read, and one word after a closing never.
    for (const greeting of ['Hello there Gertrude,', 'Welcome back Gertrude,', 'Dear valued customer Gertrude,', 'hello there gertrude'])
      expect(frameProblem({ greeting, signOff: '' }, none, 'sam'), greeting).toMatch(
        /^Not saved: “gertrude” reads like a person's name\./i,
      );
    for (const signOff of [
      'Cheers gertrude',
      'Thank you, gertrude',
      'Thanks again xiuying,',
      'Thank you so much, Gertrude',
      'Kind regards, Ana',
    ])
      expect(frameProblem({ greeting: 'Hello,', signOff }, none, 'sam'), signOff).toMatch(
        /^Not saved: “\p{L}+” reads like a person's name\./u,
      );
    // What a closing says of itself or a team, the user's own name, and a name on the line under it are kept.
    for (const signOff of [
      'Thanks again for your patience',
      'Cheers, the Acme team',
      'Thank you, Sam',
      'Thanks, team',
      'Cheers everyone',
      'Thank you kindly',
      'Kind regards,\nSam',
      'Thank you so much!',
    ])
      expect(frameProblem({ greeting: 'Hello there,', signOff }, none, 'sam'), signOff).toBeUndefined();
    for (const greeting of ['Welcome back,', 'Dear valued customer,', 'Hello, welcome to Acme Support.'])
      expect(frameProblem({ greeting, signOff: '' }, none, 'sam'), greeting).toBeUndefined();
  });

  it("keeps the signed-in agent's own name in the part after a greeting, which was refused as a person's name", () => {
    const none = { ids: [], details: [] };
    // "Hello from Acme, Sam here." was refused for the user sam as "“Sam” reads like a person's name".
    for (const greeting of ['Hello from Acme, Sam here.', 'Hi, Sam here.'])
      expect(frameProblem({ greeting, signOff: '' }, none, 'sam'), greeting).toBeUndefined();
    // Another name there is still greeted, and so is the same name for another user.
    expect(frameProblem({ greeting: 'Hello from Acme, Gertrude,', signOff: '' }, none, 'sam')).toMatch(/“Gertrude” reads like/);
    expect(frameProblem({ greeting: 'Hello from Acme, Sam here.', signOff: '' }, none, 'ana')).toMatch(/“Sam” reads like/);
  });
});
