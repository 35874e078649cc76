import { countryNamesIn } from '../../kyc/view/countries.ts';
import { folded } from './frame-rules.ts';

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
