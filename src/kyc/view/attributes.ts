import { isPictureText } from '../contract/picture-text.ts';
import type { IdentityAttribute } from '../contract/schema.ts';
import { humanise } from './labels.ts';
import { ownEntry } from '../contract/own-entry.ts';

/** Identity attribute names with a dedicated place on the candidate page. */
export const DEDICATED_ATTRIBUTES = new Set(['given_name', 'family_name', 'dob', 'email', 'address', 'phone']);

const LABELS: Record<string, string> = {
  email: 'E-mail',
  given_name: 'Given name',
  family_name: 'Family name',
  phone: 'Phone',
  dob: 'Date of birth',
  address: 'Address',
  selfie: 'Selfie',
  passport: 'Passport',
  proof_of_address: 'Proof of address',
  selfie_national_id: 'Selfie with national ID',
  driving_license: 'Driving licence',
  national_id: 'National ID',
};

/** `selfie_national_id` -> "Selfie with national ID"; unknown names humanised (`tax_id` -> "Tax ID"). */
export function attributeLabel(name: string): string {
  return ownEntry(LABELS, name) ?? humanise(name);
}

export interface SortedAttributes {
  pictures: Array<[string, IdentityAttribute]>;
  /** Attributes with no dedicated card, shown generically by type. */
  others: Array<[string, IdentityAttribute]>;
}

const PICTURE_ORDER = ['selfie', 'passport', 'national_id', 'driving_license', 'selfie_national_id', 'proof_of_address'];

export function sortAttributes(identities: Record<string, IdentityAttribute>): SortedAttributes {
  const pictures: SortedAttributes['pictures'] = [];
  const others: SortedAttributes['others'] = [];
  for (const entry of Object.entries(identities)) {
    if (entry[1].type === 'base64' || isPictureOfOtherType(entry[1])) pictures.push(entry);
    // A documented attribute of an unexpected type has no card that could show it: shown generically.
    else if (!DEDICATED_ATTRIBUTES.has(entry[0]) || entry[1].type !== 'string') others.push(entry);
  }
  const rank = (name: string) => (PICTURE_ORDER.includes(name) ? PICTURE_ORDER.indexOf(name) : PICTURE_ORDER.length);
  pictures.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  others.sort(([a], [b]) => a.localeCompare(b));
  return { pictures, others };
}

/**
 * A value sent under another type than `base64` (`{type: "file", value: "/9j/4AAQ…"}`) whose bytes are
 * a picture or document the viewer knows (picture-text.ts): shown with the pictures, its type named as
 * sent, never as base64 text. Markup and unknown bytes stay text.
 */
export function isPictureOfOtherType(attribute: IdentityAttribute): boolean {
  return typeof attribute.value === 'string' && isPictureText(attribute.type, attribute.value);
}

/** Identity documents with a portrait, in the order a reviewer would hold them against the selfie. */
const ID_DOCUMENTS = ['passport', 'national_id', 'driving_license', 'selfie_national_id'];
const OTHER_PICTURE = ID_DOCUMENTS.length + 1;

/** How well `name` goes beside the open picture (lower first): the selfie beside a document, a document beside anything else. */
function counterpartRank(open: string, name: string): number {
  const document = ID_DOCUMENTS.indexOf(name);
  if (name === 'selfie') return ID_DOCUMENTS.includes(open) ? -1 : ID_DOCUMENTS.length;
  return document === -1 ? OTHER_PICTURE : document;
}

/**
 * The picture to compare with the one open (`open`, an index into `names`, the pictures in page order):
 * the selfie beside an identity document; beside the selfie, or beside a document when there is no
 * selfie, the first identity document (passport, national ID, driving licence, selfie with national ID);
 * else the first other picture. A picture a note names (`noted`) comes before any it does not.
 * Undefined with no other picture.
 */
export function compareCounterpart(names: readonly string[], open: number, noted: readonly string[] = []): number | undefined {
  const rank = (index: number) => counterpartRank(names[open] ?? '', names[index]!);
  const others = names.flatMap((_, index) => (index === open ? [] : [index])).sort((a, b) => rank(a) - rank(b) || a - b);
  return others.find((index) => noted.includes(names[index]!)) ?? others[0];
}

/** How a note may name a picture: its label ("National ID"), its name (`national_id`) and that name in words. */
function phrasesOf(name: string): string[] {
  return [...new Set([attributeLabel(name), name, name.replace(/_/g, ' ')].map((phrase) => phrase.toLowerCase()))];
}

/**
 * The pictures of `names` that notes name, in the order of `names`: "Document check flagged the national
 * ID photo" names `national_id`. Longer names are read first and taken out of the text, so that "selfie
 * with national ID" names `selfie_national_id` alone, not the selfie and the national ID too. A name is
 * matched as words, never as part of one, and as text: a name holding `(` or `*` is no pattern. Nor is a
 * pattern built for it: one per phrase per note (three phrases a picture) kept the page busy for 4.6 s with
 * 5,000 pictures and a note (red team); each phrase is looked for as text (withoutWords), with what the
 * pattern found.
 */
export function picturesNamedIn(notes: readonly string[], names: readonly string[]): string[] {
  const phrases = names
    .flatMap((name) => phrasesOf(name).map((phrase) => ({ name, phrase })))
    .sort((a, b) => b.phrase.length - a.phrase.length);
  const named = new Set<string>();
  for (const note of notes) {
    let text = note.toLowerCase();
    for (const { name, phrase } of phrases) {
      // The empty phrases come last: each names its picture where the text holds a place between words, and
      // is not taken out, as no phrase after it reads the text. Taken out, each put a space in every such place
      // and so made one more: names of underscores alone doubled the note once each, until the tab ran out of memory.
      if (phrase === '') {
        if (BETWEEN_WORDS.test(text)) named.add(name);
        continue;
      }
      const rest = withoutWords(text, phrase);
      if (rest !== text) named.add(name);
      text = rest;
    }
  }
  return names.filter((name) => named.has(name));
}

/** A letter, a digit or `_`: what a name read as words must not touch. */
const WORD_CHARACTER = /^[\p{L}\p{N}_]$/u;
const isLead = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isTrail = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
const isWord = (codePoint: number | undefined) => codePoint !== undefined && WORD_CHARACTER.test(String.fromCodePoint(codePoint));

/** Whether `at` falls inside a surrogate pair, where a pattern of code points never starts or ends a match. */
const insidePair = (text: string, at: number) => at > 0 && isTrail(text.charCodeAt(at)) && isLead(text.charCodeAt(at - 1));

/** The code point that ends at `at` (a pair read as one), as a lookbehind reads it. */
function codePointBefore(text: string, at: number): number | undefined {
  if (at === 0) return undefined;
  return at >= 2 && insidePair(text, at - 1) ? text.codePointAt(at - 2) : text.charCodeAt(at - 1);
}

/** Whether `text` holds `phrase` at `at` as words: on whole code points, with no letter, digit or `_` either side. */
function standsAsWords(text: string, at: number, length: number): boolean {
  const end = at + length;
  return !insidePair(text, at) && !insidePair(text, end) && !isWord(codePointBefore(text, at)) && !isWord(text.codePointAt(end));
}

/**
 * Where an empty phrase (the label of a name of underscores alone) stands as words: between two characters
 * that are not word characters (or the text's ends). One pattern for every such name.
 */
const BETWEEN_WORDS = /(?<![\p{L}\p{N}_])(?![\p{L}\p{N}_])/u;

/**
 * The text with each place that holds `phrase` as words made a space, left to right, none overlapping:
 * what `text.replace(/(?<![\p{L}\p{N}_])phrase(?![\p{L}\p{N}_])/gu, ' ')` gives, found with indexOf.
 */
function withoutWords(text: string, phrase: string): string {
  let rest = '';
  let kept = 0;
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at)) {
    if (standsAsWords(text, at, phrase.length)) {
      rest += `${text.slice(kept, at)} `;
      kept = at + phrase.length;
      at = kept;
    } else at++;
  }
  return kept === 0 ? text : rest + text.slice(kept);
}

/** An attribute's label inside a sentence: its words in lower case, its acronyms kept ("the national ID", not "the national id"). */
export function labelInSentence(label: string): string {
  return label.replace(/\b([A-Z])(?=[a-z])/g, (letter) => letter.toLowerCase());
}
