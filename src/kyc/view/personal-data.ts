import { NAME_LINE } from './id-input.ts';

/** What a text reads like when it is a person's data rather than an id, as the search box's question says it. */
export type PersonalData = "a person's name" | 'an e-mail address' | 'a phone number' | 'a date';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** 8 to 15 digits as people write a number (`+33 6 12 34 56 78`, `(555) 123-4567`). */
const PHONE = /^\+?[\s(]*(?:\d[\s().-]*){8,15}$/;
/** A year of this century or the last, first (year, month, day) or last (day and month either way round). */
const DATE = /^(?:(?:19|20)\d\d([-/.])(\d\d?)\1(\d\d?)|(\d\d?)([-/.])(\d\d?)\5(?:19|20)\d\d)$/;

/**
 * What the text reads like when it is someone's name, e-mail address, phone number or date (of birth),
 * or undefined. The KYC service finds candidates by refId or recordId only, so such a lookup almost never
 * finds anyone, and its text stays in the service's logs, the browser's history and the audit file for
 * good: the search box and the batch ask first. A refId may be anything, so the rule stays narrow: a run of
 * letters, digits, `-` and `_` is never a phone number (customer numbers are digits), and is a date only
 * as a whole date with a year of four digits (`1988-07-14`, `14.07.1988`).
 */
export function readsLikePersonalData(text: string): PersonalData | undefined {
  if (NAME_LINE.test(text)) return "a person's name";
  if (EMAIL.test(text)) return 'an e-mail address';
  if (isDate(text)) return 'a date';
  // A `+` first, or a space, dot or bracket between the digits: without, it is a run of digits, as many refIds are.
  if (PHONE.test(text) && /^\+|[\s().]/.test(text)) return 'a phone number';
  return undefined;
}

/** A whole date whose month and day (or day and month) are ones. */
function isDate(text: string): boolean {
  const parts = DATE.exec(text);
  const [low, high] = [parts?.[2] ?? parts?.[4], parts?.[3] ?? parts?.[6]].map(Number).sort((a, b) => a - b);
  return low! >= 1 && low! <= 12 && high! <= 31;
}
