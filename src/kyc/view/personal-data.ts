/** What a text reads like when it is a person's data rather than an id, as the search box's question says it. */
export type PersonalData = "a person's name" | 'an e-mail address' | 'a phone number' | 'a date';

/**
 * A name on a line of its own (`Maria de Souza`, `Ludwig van Beethoven`): two to four words, capitalised
 * (or of a script without case), short particles between. A refId may be one: in a column of two or more
 * ids it is an id, not a sentence whose words are left out with it (as they were, unsaid). Above one id,
 * or beside plain words (`Thanks`), it is a ticket's subject, as before (paste.ts). Not found, a batch row
 * says it reads like a name (batch-table.tsx).
 */
export const NAME_LINE = /^[\p{Lu}\p{Lo}][\p{L}'’.-]*(?: (?:[\p{Lu}\p{Lo}][\p{L}'’.-]*|\p{Ll}{1,3})){0,2} [\p{Lu}\p{Lo}][\p{L}'’.-]*$/u;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** 8 to 15 digits as people write a number (`+33 6 12 34 56 78`, `(555) 123-4567`). */
const PHONE = /^\+?[\s(]*(?:\d[\s().-]*){8,15}$/;
/** A year of this century or the last, first (year, month, day) or last (day and month either way round). */
const DATE = /^(?:(?:19|20)\d\d([-/.])(\d\d?)\1(\d\d?)|(\d\d?)([-/.])(\d\d?)\5(?:19|20)\d\d)$/;

/**
 * Two to five words of letters with single spaces between (`john smith`, `maría garcía lópez`), in any
 * case: a name typed in lower case reads as one too. No digit, no other mark but those names hold (`'`,
 * `.`, `-`). A refId is the integrator's own user id ("a uuid is the intended form", upstream-api-facts):
 * none of the samples, no uuid, no recordId and no customer number holds a space, so a space between
 * words of letters is what no id of those shapes has. Longer runs of words are a sentence, not a name.
 */
const WORDS_OF_LETTERS = /^\p{L}[\p{L}\p{M}'’.-]*(?: \p{L}[\p{L}\p{M}'’.-]*){1,4}$/u;
/** A word that names an id column (`Customer ref`, `record id`): such words head a column, they name no one. */
export const ID_WORD = /^(?:ref|refid|reference|record|recordid|id|ids|customer|candidate|client)$/i;

/** A month by its name in English, French, German or Spanish, in full or cut short (`Mar`, `Sept.`), as index 0 to 11. */
const MONTHS: readonly RegExp[] = [
  /^(?:jan(?:uary)?|janvier|januar|enero)$/,
  /^(?:feb(?:ruary)?|février|fevrier|februar|febrero)$/,
  /^(?:mar(?:ch)?|mars|märz|marz|marzo)$/,
  /^(?:apr(?:il)?|avril|abril)$/,
  /^(?:may|mai|mayo)$/,
  /^(?:june?|juin|juni|junio)$/,
  /^(?:july?|juillet|juli|julio)$/,
  /^(?:aug(?:ust)?|août|aout|agosto)$/,
  /^(?:sept?(?:ember)?|septembre|septiembre)$/,
  /^(?:oct(?:ober)?|octobre|oktober|octubre)$/,
  /^(?:nov(?:ember)?|novembre|noviembre)$/,
  /^(?:dec(?:ember)?|décembre|decembre|dezember|diciembre)$/,
];
const DAY = String.raw`(\d\d?)(?:st|nd|rd|th|er|\.)?`;
const MONTH = String.raw`(\p{L}+)\.?`;
const YEAR = String.raw`(?:19|20)\d\d`;
/** `12 March 1990`, `12. März 1990`, `12 de marzo de 1990`, `1er mai 1990`; the day after the month: `March 12, 1990`. */
const DAY_FIRST = new RegExp(`^${DAY} (?:de )?${MONTH},? (?:de )?${YEAR}$`, 'iu');
const MONTH_FIRST = new RegExp(`^${MONTH} ${DAY},? ${YEAR}$`, 'iu');

/**
 * What the text reads like when it is someone's name, e-mail address, phone number or date (of birth),
 * or undefined. The KYC service finds candidates by refId or recordId only, so such a lookup almost never
 * finds anyone, and its text stays in the service's logs, the browser's history and the audit file for
 * good: the search box and the batch ask first. A refId may be anything, so the rule stays narrow: a run of
 * letters, digits, `-` and `_` is never a phone number (customer numbers are digits), nor a name, and is a
 * date only as a whole date with a year of four digits (`1988-07-14`, `14.07.1988`); a date in words or a
 * name needs spaces, which no such run holds.
 */
export function readsLikePersonalData(text: string): PersonalData | undefined {
  if (NAME_LINE.test(text) || isNameInWords(text)) return "a person's name";
  if (EMAIL.test(text)) return 'an e-mail address';
  if (isDate(text) || isDateInWords(text)) return 'a date';
  // A `+` first, or a space, dot or bracket between the digits: without, it is a run of digits, as many refIds are.
  if (PHONE.test(text) && /^\+|[\s().]/.test(text)) return 'a phone number';
  return undefined;
}

/** Words of letters (WORDS_OF_LETTERS), none of them a word of an id column's heading. */
function isNameInWords(text: string): boolean {
  return WORDS_OF_LETTERS.test(text) && !text.split(' ').some((word) => ID_WORD.test(word));
}

/** A whole date whose month and day (or day and month) are ones. */
function isDate(text: string): boolean {
  const parts = DATE.exec(text);
  const [low, high] = [parts?.[2] ?? parts?.[4], parts?.[3] ?? parts?.[6]].map(Number).sort((a, b) => a - b);
  return low! >= 1 && low! <= 12 && high! <= 31;
}

/** A whole date with its month in words (MONTHS), a day of 1 to 31 and a year of four digits. */
function isDateInWords(text: string): boolean {
  const dayFirst = DAY_FIRST.exec(text);
  const monthFirst = dayFirst ? undefined : MONTH_FIRST.exec(text);
  const [day, month] = dayFirst ? [dayFirst[1], dayFirst[2]] : [monthFirst?.[2], monthFirst?.[1]];
  if (day === undefined || month === undefined) return false;
  const named = month.toLowerCase();
  return Number(day) >= 1 && Number(day) <= 31 && MONTHS.some((pattern) => pattern.test(named));
}
