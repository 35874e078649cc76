import type { IdentityAttribute } from '../contract/schema.ts';
import { humanise } from './labels.ts';

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
  return LABELS[name] ?? humanise(name);
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
    if (entry[1].type === 'base64') pictures.push(entry);
    // A documented attribute of an unexpected type has no card that could show it: shown generically.
    else if (!DEDICATED_ATTRIBUTES.has(entry[0]) || entry[1].type !== 'string') others.push(entry);
  }
  const rank = (name: string) => (PICTURE_ORDER.includes(name) ? PICTURE_ORDER.indexOf(name) : PICTURE_ORDER.length);
  pictures.sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
  others.sort(([a], [b]) => a.localeCompare(b));
  return { pictures, others };
}

/** Identity documents with a portrait, in the order a reviewer would hold them against the selfie. */
const ID_DOCUMENTS = ['passport', 'national_id', 'driving_license', 'selfie_national_id'];

/**
 * The pair to compare side by side, as indexes into `names`: the selfie and the ID document, else
 * the first two pictures. Undefined with fewer than two.
 */
export function comparePair(names: string[]): [number, number] | undefined {
  if (names.length < 2) return undefined;
  const selfie = names.indexOf('selfie');
  const document = ID_DOCUMENTS.map((name) => names.indexOf(name)).find((index) => index !== -1);
  if (selfie !== -1 && document !== undefined) return [selfie, document];
  return [0, 1];
}

/** An attribute's label inside a sentence: its words in lower case, its acronyms kept ("the national ID", not "the national id"). */
export function labelInSentence(label: string): string {
  return label.replace(/\b([A-Z])(?=[a-z])/g, (letter) => letter.toLowerCase());
}
