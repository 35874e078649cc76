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
});
