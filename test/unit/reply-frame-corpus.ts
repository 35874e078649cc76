import fc from 'fast-check';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';

/** The generators and the ordinary frames the reply-frame property tests share (reply-frame-property*.test.ts). */

export const capitalised = fc.stringMatching(/^[A-Z][a-z]{2,8}$/);
/** A given name and a family name: real given names, made-up family names (no word ends so). */
export const fullName = fc.tuple(
  fc.constantFrom('Gertrude', 'Mehmet', 'Ana', 'Zoë', 'Øyvind', 'José', 'Nguyen', 'Ifeoma', 'Łukasz'),
  fc.tuple(capitalised, fc.constantFrom('sson', 'ova', 'escu', 'ini', 'oglu', 'ak')).map(([stem, end]) => stem + end),
);
export const GREETINGS = [
  'Hello,',
  'Hi there,',
  'Dear Sir or Madam,',
  'Dear customer,',
  'Hello Team,',
  'Good morning,',
  'Dear Valued Customer,',
  // Letters' own words in other languages (the day's review found these refused as names).
  'Sehr geehrte Damen und Herren,',
  'Madame, Monsieur,',
  'Estimado cliente,',
  // Greeting words of those languages, "Account Holder" and a title alone (the review found these refused as names).
  'Guten Tag,',
  'Hallo zusammen,',
  'Buenos días,',
  'Bom dia,',
  'Dear Account Holder,',
  'Dear Mr/Ms,',
  '',
];
export const SIGN_OFF_LINES = [
  'Kind regards,',
  'Best,',
  'The Support Team',
  'Sam from Support',
  'Mon-Fri 09.00-17.00',
  'Yours sincerely,',
  'Customer Care, Acme Bank',
  'Thank you for your patience.',
  'Support 2025-2026, desk 4410',
  // Who the agent works for, ended by an organisation's word (the day's review found these refused as names).
  'Mit freundlichen Grüßen',
  'Acme Corp Support',
  'Candidate Lookup Support',
  'Customer Support, Open Banking Ltd',
  'Client Onboarding Team, North America',
  // Set phrases and a team's field of work (the review found these refused as a name: "Have a nice day").
  'Have a nice day',
  'Have a great weekend',
  'Cheers,',
  'Warm regards,',
  'Best wishes,',
  'Quick update',
  'Quick update below',
  'Account Security',
  'Fraud Prevention',
  'Acme Payments',
  // Closings of other languages, a department and when it answers (the review found these refused as names).
  'Met vriendelijke groet,',
  'Have a Great Day!',
  'Financial Crime Prevention',
  'Identity & Fraud Prevention',
  'Available Monday to Friday',
  'Closed Dec 2026',
];
/** Sign-off lines as agents write them in lower case, where a name would stand (the review of lower-case names). */
export const LOWER_CASE_LINES = [
  'kind regards',
  'thanks',
  'best wishes',
  'the support team',
  'thanks so much',
  'thanks a lot',
  'talk soon',
  'hope this helps',
  'thanks for reaching out',
  'take care',
  'sam from support',
  'sam, senior analyst',
];
export const none = { ids: [], details: [] };
/** How a name is written: as it is, in lower case, in capitals, or with its case mixed. */
export const writtenIn = fc.constantFrom(
  (name: string) => name,
  (name: string) => name.toLowerCase(),
  (name: string) => name.toUpperCase(),
  (name: string) => name.replace(/\p{L}/gu, (letter, index: number) => (index % 2 ? letter.toLowerCase() : letter.toUpperCase())),
);
/** A record as a compliance user's page has it: the candidate's name in its identities. */
export const recordOf = (given: string, family: string) =>
  ({
    status: 'approved',
    refId: 'r1',
    identities: { given_name: { type: 'string', value: given }, family_name: { type: 'string', value: family } },
  }) as unknown as CandidateRecord;
