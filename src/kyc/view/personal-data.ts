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
/** The same without the year (`21 May`, `May 21st`): a date only beside a name. */
const DAY_MONTH = new RegExp(`^${DAY} (?:de )?${MONTH}$`, 'iu');
const MONTH_DAY = new RegExp(`^${MONTH} ${DAY}$`, 'iu');
/** A day and a month in digits, the year of two digits or none (`21.05`, `21/05/68`): a date only beside a name. */
const SHORT_DATE = /^(\d\d?)([-/.])(\d\d?)(?:\2\d\d)?\.?$/;

/**
 * What the text reads like when it is someone's name, e-mail address, phone number or date (of birth),
 * or undefined. The KYC service finds candidates by refId or recordId only, so such a lookup almost never
 * finds anyone, and its text stays in the service's logs, the browser's history and the audit file for
 * good: the search box and the batch ask first. A refId may be anything, so the rule stays narrow: a run of
 * letters, digits, `-` and `_` is never a phone number (customer numbers are digits), nor a name, and is a
 * date only as a whole date with a year of four digits (`1988-07-14`, `14.07.1988`); a date in words or a
 * name needs spaces, which no such run holds. Read as written, then without a sentence's marks around it
 * and a remark in brackets after it (withoutSentence).
 */
export function readsLikePersonalData(text: string): PersonalData | undefined {
  const asWritten = readsLikeAsIs(text);
  if (asWritten) return asWritten;
  const bare = withoutSentence(text);
  return bare !== text && bare !== '' ? readsLikeAsIs(bare) : undefined;
}

/**
 * A sentence's marks before or after the text (`Maria Souza,`, `John Smith!`, `(john smith?)`, `“…”`)
 * and a remark in brackets after it (`Maria Souza (customer)`, `[sic]`): what a name, an e-mail address,
 * a date or a phone number copied from a sentence carries. Before, only a full stop after a name (which a
 * name's own words may hold) was read past: `Maria Souza,` went to the service unasked, `Maria Souza.` was
 * asked about. A mark inside the text stays, and a plain id without its marks is still a plain id.
 */
const SENTENCE_MARKS = new Set([...',;:!?.…"\'()[]{}<>#¿¡\u2013\u2014\u201c\u201d\u201e\u2018\u2019\u00ab\u00bb\u2039\u203a']);
/** A remark in brackets at the end (the sentence's marks after it): read past only after something else. */
const REMARK = /[([][^()[\]]*[)\]][\s,;:!?.…"')\]\u201d\u2019\u00bb]*$/u;
/** The most remarks read past (`Maria Souza (customer) [VIP]`): a bound on the work for any text. */
const REMARKS = 3;

/** The text without the remarks in brackets after it and its sentence's marks around it. */
function withoutSentence(text: string): string {
  let rest = text;
  for (let remark = 0; remark < REMARKS; remark += 1) {
    const found = REMARK.exec(rest);
    // Only after something else: `(Maria Souza)` is the name in brackets, not a remark after nothing.
    const before = found ? withoutMarks(rest.slice(0, found.index)) : '';
    if (before === '') break;
    rest = before;
  }
  return withoutMarks(rest);
}

/** The text without the marks and spaces at its ends, read character by character (a pattern anchored at the end takes time as the square of a long run of them). */
function withoutMarks(text: string): string {
  const isMark = (char: string | undefined) => char !== undefined && (SENTENCE_MARKS.has(char) || /\s/u.test(char));
  let start = 0;
  let end = text.length;
  while (start < end && isMark(text[start])) start += 1;
  while (end > start && isMark(text[end - 1])) end -= 1;
  return text.slice(start, end);
}

/** readsLikePersonalData of the text as it is written. */
function readsLikeAsIs(text: string): PersonalData | undefined {
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
  return isDayAndMonth(parts?.[2] ?? parts?.[4], parts?.[3] ?? parts?.[6]);
}

/** Two numbers of which one is a month (1 to 12) and the other a day (1 to 31). */
function isDayAndMonth(one: string | undefined, other: string | undefined): boolean {
  const [low, high] = [one, other].map(Number).sort((a, b) => a - b);
  return low! >= 1 && low! <= 12 && high! <= 31;
}

/** A whole date with its month in words (MONTHS), a day of 1 to 31 and a year of four digits. */
function isDateInWords(text: string, dayFirstForm = DAY_FIRST, monthFirstForm = MONTH_FIRST): boolean {
  const dayFirst = dayFirstForm.exec(text);
  const monthFirst = dayFirst ? undefined : monthFirstForm.exec(text);
  const [day, month] = dayFirst ? [dayFirst[1], dayFirst[2]] : [monthFirst?.[2], monthFirst?.[1]];
  if (day === undefined || month === undefined) return false;
  const named = month.toLowerCase();
  return Number(day) >= 1 && Number(day) <= 31 && MONTHS.some((pattern) => pattern.test(named));
}

/** What a text holds of a person's data, and whether that is all of it. */
export interface PersonalDataFound {
  /** Each kind found, once: the one the whole text reads like, or what the text holds among its other words. */
  kinds: PersonalData[];
  /** The whole text reads like it (readsLikePersonalData), rather than holding it among other words. */
  whole: boolean;
}

/**
 * What the search box asks about before a lookup, and the batch before it sends a line: text that reads
 * like personal data (readsLikePersonalData), or that holds an e-mail address, a whole date (with a year
 * of four digits), or a name beside a date. Before, only text that was one of those as a whole was asked
 * about: `DOB 15.06.1987`, `Mehmet Yılmaz 1968-05-21` or `ana.silva@example.com cust_000482` went to the
 * service unasked, and stayed in the address, the history and the audit file. A plain id (a run of
 * letters, digits, `-` and `_`) holds no space, no `@` and no date standing apart from it, so it is
 * never asked about (`legacy-1988-07-14` is an id): a date counts only where a space or a mark other than
 * those (and a date's own `.` and `/`) sets it apart.
 */
export function findPersonalData(text: string): PersonalDataFound | undefined {
  const whole = readsLikePersonalData(text);
  if (whole) return { kinds: [whole], whole: true };
  const named = isNameBesideDate(text);
  const found: (PersonalData | false)[] = [
    named && "a person's name",
    holdsEmail(text) && 'an e-mail address',
    (named || holdsDate(text)) && 'a date',
  ];
  const kinds = found.filter((kind) => kind !== false);
  return kinds.length > 0 ? { kinds, whole: false } : undefined;
}

/** "reads like an e-mail address", "holds a person's name and a date": what the questions and the not-found screen say. */
export function saysFound({ kinds, whole }: PersonalDataFound): string {
  if (whole) return `reads like ${kinds[0]}`;
  return `holds ${kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`}`;
}

/**
 * An e-mail address anywhere (EMAIL's shape: something, `@`, something with a dot inside it), read run by
 * run at its `@`s: in time as the text's length, where an unanchored pattern took its square.
 */
function holdsEmail(text: string): boolean {
  return text.split(/\s+/).some((run) => {
    const parts = run.split('@');
    return parts.some((part, at) => at > 0 && parts[at - 1] !== '' && part.slice(1, -1).includes('.'));
  });
}

/** The most runs a date in words is written in (`12 de marzo de 1990`). */
const DATE_RUNS = 5;
/** Marks around a date in a sentence (`(15.06.1987)`, `1990,`): neither a letter nor a digit. */
const OUTER_MARKS = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * A whole date apart from the rest of the text: in digits between spaces or marks other than those a plain
 * id or a date holds (a sentence's full stop after it dropped), or in words over a few runs.
 */
function holdsDate(text: string): boolean {
  const apart = text.split(/[^\p{L}\p{N}\p{M}_./-]+/u).map((run) => run.replace(/^\.+|\.+$/g, ''));
  if (apart.some(isDate)) return true;
  const runs = text.split(/\s+/).filter(Boolean);
  for (let start = 0; start < runs.length; start += 1) {
    for (let end = start + 2; end <= Math.min(runs.length, start + DATE_RUNS); end += 1) {
      if (isDateInWords(runs.slice(start, end).join(' ').replace(OUTER_MARKS, ''))) return true;
    }
  }
  return false;
}

/** The most runs a name and a date beside it are read in: more is a sentence. */
const NAME_AND_DATE_RUNS = 10;

/**
 * A name (NAME_LINE, or words of letters) and a date side by side, either first, a comma between or not:
 * `Mehmet Yılmaz, 21.05.1968`, `Mehmet Yılmaz 21 May`. Beside a name a date needs no year.
 */
function isNameBesideDate(text: string): boolean {
  const runs = text.trim().split(/\s+/);
  if (runs.length < 3 || runs.length > NAME_AND_DATE_RUNS) return false;
  const isName = (part: string) => NAME_LINE.test(part) || isNameInWords(part);
  for (let at = 1; at < runs.length; at += 1) {
    const [left, right] = [runs.slice(0, at).join(' '), runs.slice(at).join(' ')].map((part) => part.replace(/^,|,$/g, ''));
    if ((isName(left!) && isAnyDate(right!)) || (isAnyDate(left!) && isName(right!))) return true;
  }
  return false;
}

/** A whole date, or a day and a month without the year (SHORT_DATE, DAY_MONTH, MONTH_DAY). */
function isAnyDate(text: string): boolean {
  const short = SHORT_DATE.exec(text);
  if (short && isDayAndMonth(short[1], short[3])) return true;
  return isDate(text) || isDateInWords(text) || isDateInWords(text, DAY_MONTH, MONTH_DAY);
}
