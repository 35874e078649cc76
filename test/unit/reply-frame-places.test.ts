import { describe, expect, it } from 'vitest';
import { detailsOf, frameProblem, placesOf } from '../../src/app/handoff/reply-frame.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/** Where a greeting comes from (issue 33): a place is kept, a name after its "from" or "to" and the candidate's city are not. */
describe('a greeting from somewhere', () => {
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

  it("keeps a greeting from a city whose name starts with a place's word, which was refused as a person's name", () => {
    const none = { ids: [], details: [] };
    // Each was refused: "“Kuala Lumpur” reads like a person's name", "“Rio Janeiro”" (its "de" left out of the quote).
    for (const greeting of [
      'Greetings from Kuala Lumpur,',
      'Greetings from Tel Aviv,',
      'Greetings from Abu Dhabi,',
      'Greetings from Rio de Janeiro,',
      'greetings from rio de janeiro.',
      'Hello from Buenos Aires',
      'Hello from New York, hope you are well',
      'Greetings from Cape Town,',
    ])
      expect(frameProblem({ greeting, signOff: '' }, none, 'sam'), greeting).toBeUndefined();
  });

  it('attack: refuses a name after a city in a greeting from it, quoted as typed', () => {
    const none = { ids: [], details: [] };
    const problem = (greeting: string) => frameProblem({ greeting, signOff: '' }, none, 'sam');
    // "Cape Town Gertrude" was quoted as "“Town Gertrude”", and "Mexico City Gertrude" was kept.
    expect(problem('Greetings from Cape Town Gertrude,')).toMatch(/^Not saved: “Gertrude” reads like a person's name\./);
    expect(problem('Greetings from Mexico City Gertrude,')).toMatch(/^Not saved: “Gertrude” reads like a person's name\./);
    expect(problem('Greetings from Tel Aviv Gertrude Zyxwvut')).toMatch(/^Not saved: “Gertrude Zyxwvut” reads like/);
    // A name with a particle is quoted with it, as typed ("Gertrude Zyxwvut" was quoted for "Gertrude de Zyxwvut").
    expect(problem('Greetings from Gertrude de Zyxwvut,')).toMatch(/^Not saved: “Gertrude de Zyxwvut” reads like/);
    // Two names that no place's word starts are still read as a person's, privacy first.
    expect(problem('Greetings from Gertrude Zyxwvut,')).toMatch(/^Not saved: “Gertrude Zyxwvut” reads like/);
  });
});
