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

const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** How a note may name a picture: its label ("National ID"), its name (`national_id`) and that name in words. */
function phrasesOf(name: string): string[] {
  return [...new Set([attributeLabel(name), name, name.replace(/_/g, ' ')].map((phrase) => phrase.toLowerCase()))];
}

/**
 * The pictures of `names` that notes name, in the order of `names`: "Document check flagged the national
 * ID photo" names `national_id`. Longer names are read first and taken out of the text, so that "selfie
 * with national ID" names `selfie_national_id` alone, not the selfie and the national ID too. A name is
 * matched as words, never as part of one, and as text: a name holding `(` or `*` is no pattern.
 */
export function picturesNamedIn(notes: readonly string[], names: readonly string[]): string[] {
  const phrases = names
    .flatMap((name) => phrasesOf(name).map((phrase) => ({ name, phrase })))
    .sort((a, b) => b.phrase.length - a.phrase.length);
  const named = new Set<string>();
  for (const note of notes) {
    let text = note.toLowerCase();
    for (const { name, phrase } of phrases) {
      const words = new RegExp(`(?<![\\p{L}\\p{N}_])${phrase.replace(REGEXP_SPECIAL, '\\$&')}(?![\\p{L}\\p{N}_])`, 'gu');
      const rest = text.replace(words, ' ');
      if (rest !== text) named.add(name);
      text = rest;
    }
  }
  return names.filter((name) => named.has(name));
}

/** An attribute's label inside a sentence: its words in lower case, its acronyms kept ("the national ID", not "the national id"). */
export function labelInSentence(label: string): string {
  return label.replace(/\b([A-Z])(?=[a-z])/g, (letter) => letter.toLowerCase());
}
