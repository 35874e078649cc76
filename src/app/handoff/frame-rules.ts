import { readsLikePersonalData } from '../../kyc/view/personal-data.ts';
import { NO_ONE } from './frame-words.ts';

/*
 * What a greeting or sign-off to keep must not hold, read line by line in both fields. It stays in
 * localStorage long after the page has gone, so it must be the agent's own words and no candidate's data.
 * These rules guard against slips, they are no guarantee: a support user's page knows no name to compare
 * with, so a name, a date or a number is found by its shape (red-team findings: "Re: Gertrude Zyxwvut,
 * born 15.06.1987, passport X1234567" in a sign-off, "Dear Gertrude Zyxwvut and team," were kept).
 */

/**
 * Why a frame was not kept, and what to save instead; the fields keep what was typed, so nothing is lost.
 * `found`, the words read as `what`, is quoted first ("“Guten Tag” reads like a person's name"): before,
 * the message was the same whatever tripped it, and the agent could not tell what to change.
 */
export function refused(what: string, found?: string, reads = `reads like ${what}`): string {
  const why = `greeting and sign-off are kept in this browser for every reply, so they must not hold ${what}.`;
  return (
    `Not saved: ${found === undefined ? `the ${why}` : `${quoted(found)} ${reads}. The ${why}`} ` +
    'Save a general one, such as "Hello," or "Dear customer,", and write the customer\'s details in the reply itself. What you typed is still here.'
  );
}

/** At most this many characters of what was found are quoted: enough to find it in the field. */
const MAX_QUOTED = 60;
/** The words as typed, on one line, without control or format characters, cut at MAX_QUOTED. */
function quoted(found: string): string {
  const line = found
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return `“${[...line].length > MAX_QUOTED ? `${[...line].slice(0, MAX_QUOTED - 1).join('')}…` : line}”`;
}

/**
 * The text as it is compared: one form of each character ("e" + "¨" is "ë", full-width is plain), any
 * case, and no invisible format characters (a zero-width space inside an id hid it from the id rule).
 */
export const folded = (text: string) => plain(text).toLowerCase();
const plain = (text: string) => text.normalize('NFKC').replace(/\p{Cf}/gu, '');
/** A word as the word lists have it (frame-words.ts): folded, "’" as "'", without a last ".". */
export const bare = (word: string) => folded(word).replace(/’/gu, "'").replace(/\.$/u, '');

/** "x@y.z", after NFKC has made a full-width "＠" an "@". */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@.]{2,}/u;
/**
 * An address written so as not to look like one: "sam (at) example.org", "sam [at] example [dot] org",
 * "sam @ example.org". A bare " at " counts only with a " dot " after it ("sam at example dot org"), so
 * "Sam at example.com" and "Sam at Acme. Have a nice day" read as words.
 */
const HIDDEN_EMAIL =
  /[\p{L}\p{N}._%+-]+(?:\s*[([{<]\s*at\s*[)\]}>]\s*|\s*@\s*)[\p{L}\p{N}-]+(?:(?:\s*[([{<]\s*dot\s*[)\]}>]\s*|\s+dot\s+|\.)[\p{L}\p{N}-]+)*(?:\s*[([{<]\s*dot\s*[)\]}>]\s*|\s+dot\s+|\.)\p{L}{2,}/u;
const SPOKEN_EMAIL = /[\p{L}\p{N}._%+-]+\s+at\s+[\p{L}\p{N}-]+(?:\s+dot\s+[\p{L}\p{N}-]+)+/u;
/** A run of digits joined by spaces, "+", "-", "." or brackets: "+46 70-123 45 67". Counted, not matched whole. */
const DIGIT_RUN = /[+(]?\p{Nd}(?:[\p{Nd}\s().+-]*\p{Nd})?/gu;
const PHONE_DIGITS = 8;
/**
 * A run read as a phone number (with PHONE_DIGITS digits or more): digits alone ("0701234567"), or with a
 * "+" or "(" first, or grouped by spaces ("06 12 34 56 78"), as people write numbers. A run joined by "-"
 * and "." only is years or hours ("2025-2026", "Mon-Fri 09.00-17.00"), never refused for it.
 */
const PHONE_LIKE = /^[+(]|^\p{Nd}+$|\p{Nd}\s+[(\p{Nd}]/u;
/**
 * A run of letters and digits, maybe joined by "-", "_", ".", "#" or a dash: a document or reference
 * number has 6 or more, 4 of them digits and a letter. (Not joined on "_" and ".", another candidate's
 * id, "cust_000482", read as "cust" and "000482" and was kept; on "#" or "–", "user#7781" still was.)
 */
const LETTER_DIGIT_RUN = /[\p{L}\p{Nd}](?:[\p{L}\p{Nd}_.#–—-]*[\p{L}\p{Nd}])?/gu;
/**
 * An id written apart: a word that says an id follows, then its digits after a space or any mark ("user
 * 7781", "cust: 000 482", "ticket / 4410", "user no. 7781"), read as one run as "user-7781" is. Only
 * after such a word: "desk 4410" and "Support 2026" have the same shape and are the agent's own, kept.
 * Nor a year alone after it (1900 to 2099, no digit after): "Kind regards, Sam, case 2026", "Sam, Record
 * 1999" were refused as a reference number, though a year is kept everywhere else ("Support 2026").
 */
const ID_WORD = 'user|usr|cust|customer|client|applicant|member|account|acct|candidate|case|ticket|ref|reference|record|id';
const LONE_YEAR = '(?:19|20)\\p{Nd}{2}(?![^\\p{L}\\p{Nd}\\n]?\\p{Nd})';
const SPACED_ID = new RegExp(
  `(?<![\\p{L}\\p{Nd}])(?:${ID_WORD})(?:[^\\p{L}\\p{Nd}\\n]{1,3}(?:no|nr|number|id)\\.?)?[^\\p{L}\\p{Nd}\\n]{1,3}(?!${LONE_YEAR})\\p{Nd}(?:[^\\p{L}\\p{Nd}\\n]?\\p{Nd})*`,
  'gu',
);
/** Scripts written without spaces between words: a name there is found anywhere in the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

const phoneNumberIn = (text: string) =>
  [...text.matchAll(DIGIT_RUN)].find(([run]) => count(run, /\p{Nd}/u) >= PHONE_DIGITS && PHONE_LIKE.test(run))?.[0];
const count = (text: string, what: RegExp) => [...text].filter((char) => what.test(char)).length;

/** "X1234567", "AB-123456", "support-ticket-4410", "user 7781": a passport, an id card or a case number. */
const documentNumberIn = (text: string) =>
  [...text.matchAll(LETTER_DIGIT_RUN), ...text.matchAll(SPACED_ID)].find(
    ([run]) => count(run, /[\p{L}\p{Nd}]/u) >= 6 && count(run, /\p{Nd}/u) >= 4 && /\p{L}/u.test(run),
  )?.[0];

/**
 * A date anywhere in the line, read by the search box's personal-data rule (a whole date with a year of
 * four digits: "15.06.1987", "1987-06-15", "15 June 1987", "June 15, 1987"): one to five words at a time.
 */
function dateIn(line: string): string | undefined {
  const words = line.split(/\s+/u).filter((word) => word !== '');
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 1; end <= Math.min(words.length, start + 5); end++) {
      const window = words
        .slice(start, end)
        .join(' ')
        .replace(/^[^\p{L}\p{Nd}]+|[^\p{L}\p{Nd}]+$/gu, '');
      if (readsLikePersonalData(window) === 'a date') return window;
    }
  }
  return undefined;
}

/**
 * An e-mail address (also one written around the filter), a phone number, a date or a document number in
 * the text: said, with what was read so (as compared: in lower case), or undefined.
 */
export function contactProblem(text: string): string | undefined {
  const comparable = folded(text);
  // Whose it is cannot be told, so the agent's own is refused too.
  const email = [EMAIL, HIDDEN_EMAIL, SPOKEN_EMAIL].map((rule) => rule.exec(comparable)?.[0]).find((found) => found !== undefined);
  if (email !== undefined) return refused('an e-mail address, not even your own', email, 'reads like an e-mail address');
  const phone = phoneNumberIn(comparable);
  if (phone !== undefined) {
    return refused(`a phone number (${PHONE_DIGITS} digits or more), not even your own`, phone, 'reads like a phone number');
  }
  // An agent's own date ("Office closed 24 December 2026") is refused too, so the message says why and
  // what is kept: "a date (such as a date of birth)" read as a mistake to agents who wrote no one's birthday.
  const date = comparable
    .split('\n')
    .map(dateIn)
    .find((found) => found !== undefined);
  if (date !== undefined) {
    return refused(
      'a whole date, not even one of yours: a date of birth cannot be told from any other (a year or a month alone, "2026" or "December 2026", is kept)',
      date,
      'reads like a date',
    );
  }
  const document = documentNumberIn(comparable);
  if (document !== undefined)
    return refused('a document or reference number (letters and 4 digits or more)', document, 'reads like a document or reference number');
  return undefined;
}

/** The detail as a word of its own (anywhere, in a script written without spaces), for `flags`; undefined when empty. */
function wordRule(detail: string, flags: string): RegExp | undefined {
  if (detail === '') return undefined;
  const escaped = detail.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  if (UNSPACED.test(detail)) return new RegExp(escaped, flags);
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escaped}(?![\\p{L}\\p{M}\\p{N}])`, flags);
}

/** Whether the (folded) text holds the detail as a word of its own: "Ana" is not in "Anastasia from Support". */
export function holdsDetail(text: string, detail: string): boolean {
  return wordRule(folded(detail.trim()), 'u')?.test(text) ?? false;
}

/**
 * Whether the text (as typed) names the place as a name is written, its first letter not in lower case,
 * the rest in any: "Hello from Best," names the town of Best, "Hello from the best team," does not (it
 * was refused on the page of a candidate living there, as the words were compared in lower case).
 */
export function namesPlace(text: string, place: string): boolean {
  const rule = wordRule(plain(place.trim()), 'giu');
  return rule !== undefined && [...plain(text).matchAll(rule)].some(([found]) => !/^\P{L}*\p{Ll}/u.test(found));
}

/**
 * What separates the parts of an id as people write it: "cust_000482", "cust-000482", "CUST 000482",
 * "cust.000482", and any other mark ("user/7781", "user#7781", "user – 7781", "user: 7781" were kept); not
 * an apostrophe inside a word, which is part of it: "Ada's team" was refused on the page of "ada-s".
 */
const ID_SEPARATORS = /(?!(?<=\p{L})'(?=\p{L}))[^\p{L}\p{N}]+/u;
const tokensOf = (text: string) => folded(text).replace(/’/gu, "'").split(ID_SEPARATORS).filter(Boolean);
/**
 * Whether the id's parts, joined, are whole words of the text joined the same way, however many: "ref
 * CUST 000482" holds cust_000482, "the amazing" does not hold "team" (it did, letters were compared
 * across words).
 */
function holdsId(text: readonly string[], id: string): boolean {
  const needle = tokensOf(id).join('');
  const haystack = text.join('');
  if (UNSPACED.test(needle)) return haystack.includes(needle);
  // Where each word of the text starts in `haystack`, and where the last ends.
  let end = 0;
  const starts = new Set([0, ...text.map((token) => (end += token.length))]);
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (starts.has(at) && starts.has(at + needle.length)) return true;
  }
  return false;
}
/**
 * An id made of words that name no one in a frame ("team", "support-team") tells no one who the candidate
 * is, where every agent's frame holds those words: "Thanks, Team Support" was refused on the page of "team".
 */
const namesNoOne = (id: string) => tokensOf(id).every((word) => NO_ONE.has(word));
/**
 * Which of the candidate's ids the text holds as whole words, whatever its case, format characters and
 * separators ("CUST_000482", "ref CUST 000482"; with a space it was kept, and no other rule reads it).
 */
export function heldId(text: string, ids: ReadonlyArray<string | null | undefined>): string | undefined {
  const tokens = tokensOf(text);
  return ids.find((id): id is string => !!id && tokensOf(id).join('').length >= 3 && !namesNoOne(id) && holdsId(tokens, id));
}
