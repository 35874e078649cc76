import { countryNamesIn } from '../../kyc/view/countries.ts';
import { bare, folded } from './frame-rules.ts';
import { PLACE, PLACE_END, SALUTATION } from './frame-words.ts';

/*
 * The names of countries and territories, read after a greeting's "from" as a place's, not a person's:
 * "Greetings from Hong Kong," was refused as a name, two capitalised words that no word of a place's name
 * ("San", "Lake") marked. In the languages the frame's other words are in.
 */

const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'sv', 'nb', 'da', 'fi', 'tr'];
/** A name has at most this many words: "Bosnia and Herzegovina", "Saint Vincent & Grenadines". */
const MAX_WORDS = 5;

const wordsOf = (name: string) =>
  folded(name)
    .replace(/’/gu, "'")
    .split(/\s+/u)
    .map((word) => word.replace(/\.$/u, ''))
    .filter(Boolean);

let names: ReadonlySet<string> | undefined;
/**
 * The names of more than one word, folded, each word without its last "." (one word alone was never read
 * as a name). Made once, when a greeting from somewhere is first read: a few thousand Intl look-ups.
 */
function countryNames(): ReadonlySet<string> {
  names ??= new Set(
    countryNamesIn(LANGUAGES)
      // "Hong Kong, RAE da China", "RAE de Hong Kong (China)": the name before its comma or bracket too.
      .flatMap((name) => [name, name.split(/[,(]/u)[0]!])
      .map((name) => wordsOf(name).join(' '))
      .filter((name) => name.includes(' ')),
  );
  return names;
}

/** How many words from `start` (before `end`) are a country's or territory's name, the longest one; 0 when none. */
export function countryNameLength(words: readonly string[], start: number, end: number): number {
  for (let length = Math.min(MAX_WORDS, end - start); length >= 2; length--) {
    const name = words
      .slice(start, start + length)
      .flatMap(wordsOf)
      .join(' ');
    if (countryNames().has(name)) return length;
  }
  return 0;
}

/** A short word between the words of a name, a person's or a place's: "Maria de Souza", "Rio de Janeiro". */
export const PARTICLE = /^\p{Ll}{1,3}$/u;
/** Where one part of a line ends and another begins: "Re: Gertrude Zyxwvut, born …". */
export const PART_BREAK = /[,;:!?()[\]{}"“”«»/|•]+|\s[-–—]\s/u;

export const isSentFrom = (part: readonly string[]) => SALUTATION.has(bare(part[0] ?? '')) && bare(part[1] ?? '') === 'from';
/** A greeting from a place that greets no one in it ("Hello from Acme", no "to"): who it greets is in the next part. */
export const greetsFrom = (part: readonly string[]) => isSentFrom(part) && placeEnd(part) === part.length;
/** Where the place after a greeting's "from" ends: at its "to", or at the part's end. */
export function placeEnd(part: readonly string[]): number {
  const to = part.findIndex((word, index) => index > 1 && bare(word) === 'to');
  return to === -1 ? part.length : to;
}
/**
 * "Greetings from San Francisco,", "Hello from the Acme team to …": where a greeting comes from, the words
 * after its "from" up to its "to". A word of a place's name there, or a country's or territory's name
 * ("Hong Kong", "Sri Lanka"), is read as "from" is, a word that names no one and may lead a name, so
 * "San Francisco" and "Tel Aviv" are kept and "San Francisco Gertrude Zyxwvut" is not. The
 * other words are read for a name as any are: two names there cannot be told from a place's by their shape
 * ("Greetings from Gertrude Zyxwvut", "Hello from Sam Smith" for the user sam), and privacy comes first.
 * (All of them were left unread, and a name after "from", or greeted after its "to", was kept.)
 */
export function placesRead(part: readonly string[]): readonly string[] {
  if (!isSentFrom(part)) return part;
  const end = placeEnd(part);
  const read = [...part];
  // "Kuala Lumpur", "Rio de Janeiro", "Cape Town": a word that starts a place's name, and the word after
  // it (with the particles between), are the place's; "City" ends one ("Mexico City").
  for (let at = 2; at < end; at++) {
    if (!PLACE.has(bare(part[at]!))) continue;
    read[at] = 'from';
    if (PLACE_END.has(bare(part[at]!))) continue;
    while (at + 2 < end && PARTICLE.test(part[at + 1]!)) read[++at] = 'from';
    if (at + 1 < end) read[++at] = 'from';
  }
  // A country's or territory's name is a place's too: "Greetings from Hong Kong," "Hello from Sri Lanka".
  for (let at = 2; at < end; at++) {
    const country = countryNameLength(part, at, end);
    read.fill('from', at, at + country);
    at += Math.max(country - 1, 0);
  }
  return read;
}

/** The place each greeting from somewhere names, as written ("Hong Kong" in "Greetings from Hong Kong,"). */
export function greetingPlaces(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line) => line.split(PART_BREAK).map((part) => part.trim().split(/\s+/u).filter(Boolean)))
    .filter(isSentFrom)
    .map((part) => part.slice(2, placeEnd(part)).join(' '));
}

/**
 * The one word after a place in a greeting from somewhere, as written, where it ends the place: "Gertrude"
 * in "Greetings from Cape Town Gertrude," (greeted, as after a comma; "Town Gertrude" was quoted).
 */
export function nameAfterPlace(part: readonly string[]): string | undefined {
  const read = placesRead(part);
  const last = placeEnd(part) - 1;
  const isPlace = (at: number) => read[at] === 'from' && bare(part[at]!) !== 'from';
  return last > 2 && !isPlace(last) && isPlace(last - 1) ? part[last] : undefined;
}
