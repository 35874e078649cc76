import { describe, expect, it } from 'vitest';
import { detailsOf, frameProblem, placesOf } from '../../src/app/handoff/reply-frame.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/**
 * Frames the red team found refused on one candidate's page for that candidate's city or id, where the
 * frame named neither: a word in lower case read as the town, letters across words or an apostrophe read
 * as the id. Each refusal stops the agent saving their own frame there.
 */
const livingIn = (city: string, address = '1 Dorpsstraat') => {
  const identities = { address: { type: 'string', value: JSON.stringify({ address, city, country: 'NLD' }) } };
  const record = { status: 'approved', refId: 'r1', identities } as unknown as CandidateRecord;
  return { ids: ['r1'], details: detailsOf(record), places: placesOf(record) };
};
const withId = (id: string) => ({ ids: [id], details: [] });
const problem = (greeting: string, known: Parameters<typeof frameProblem>[1], signOff = '') =>
  frameProblem({ greeting, signOff }, known, 'sam');

describe("the candidate's city and id in a greeting or sign-off", () => {
  it("keeps a greeting from somewhere that holds the city's name as a word in lower case", () => {
    // "Hello from the best team," was refused as "“Best” is where this candidate lives".
    for (const [city, greeting] of [
      ['Best', 'Hello from the best team,'],
      ['Best', 'Greetings from all of us at the best support desk,'],
      ['Zoeken', 'hello from the zoeken team,'],
      ['Hong Kong', 'Hello from the hong kong desk,'],
    ] as const)
      expect(problem(greeting, livingIn(city)), `${city}: ${greeting}`).toBeUndefined();
  });

  it('attack: refuses a greeting from the city or street written as a name, in capitals or capitalised', () => {
    for (const greeting of ['Hello from Best,', 'Greetings from BEST', 'Hello from the Best team,', 'Hi from Best, NL'])
      expect(problem(greeting, livingIn('Best')), greeting).toMatch(/^Not saved: “Best” is where this candidate lives\./);
    expect(problem('Hello from 1 Dorpsstraat,', livingIn('Best'))).toMatch(/“1 Dorpsstraat” is where this candidate lives/);
    // Written in lower case on the record, the city is still found where the frame capitalises it.
    expect(problem('Greetings from Best,', livingIn('best'))).toMatch(/“best” is where this candidate lives/);
  });

  it('keeps an apostrophe inside a word out of the id: "Ada\'s team" does not hold "ada-s"', () => {
    // "We're here 9-5. Ada's team" was refused as "“ada-s” is this candidate's id": "'" joined "ada" and "s".
    for (const signOff of ["We're here 9-5. Ada's team", 'Ada’s team', "Thanks from Ada's desk", 'the amazing Canadas team'])
      expect(problem('Hello,', withId('ada-s'), signOff), signOff).toBeUndefined();
    // Letters across words were compared too: "the amazing" held "team", "Hi Steam" held "team".
    for (const signOff of ['Thanks from the amazing support crew', 'Steamboat Support'])
      expect(problem('Hello,', withId('team7'), signOff), signOff).toBeUndefined();
  });

  it('attack: still refuses the id written as whole words with any mark between its parts', () => {
    for (const signOff of ['Re: ada-s', 'Re: ADA S', 'ref: Ada/S', 'Re: adas', 'Re: ada–s'])
      expect(problem('Hello,', withId('ada-s'), signOff), signOff).toMatch(/^Not saved: “ada-s” is this candidate's id\./);
    for (const signOff of ['Re: team7', 'Re: Team 7', 'Re: TEAM-7'])
      expect(problem('Hello,', withId('team7'), signOff), signOff).toMatch(/“team7” is this candidate's id/);
    // An apostrophe in the id is read as the frame's is: "o'brien-42" is held by "O'Brien 42" and "O’Brien-42".
    for (const signOff of ["Re: O'Brien 42", 'Re: O’Brien-42'])
      expect(problem('Hello,', withId("o'brien-42"), signOff), signOff).toMatch(/this candidate's id/);
  });

  it('keeps the words that name no one in a frame where the id is made of them alone', () => {
    // "Thanks, Team Support" was refused on the page of the candidate "team": the word tells no one who that is.
    for (const [id, signOff] of [
      ['team', 'Thanks, Team Support'],
      ['support-team', 'The Support Team'],
      ['customer', 'Dear customer,'],
    ] as const)
      expect(problem('Hello,', withId(id), signOff), `${id}: ${signOff}`).toBeUndefined();
    // An id with any other word or a digit is still refused: "asilva", "team-7".
    expect(problem('Hello,', withId('asilva'), 'Re: asilva')).toMatch(/this candidate's id/);
    expect(problem('Hello,', withId('team-7'), 'Thanks, Team 7')).toMatch(/this candidate's id/);
  });
});
