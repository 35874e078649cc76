import type { CandidateRecord } from './schema.ts';

/**
 * Names in the order the candidate's documents print them. The service sends given and family name
 * separately; joining them given-first turns "王 秀英" and "Nguyễn Thị Minh Khai" around. The page
 * header, the sandbox's sample list and its SANDBOX_DATA summaries all name candidates this way.
 */

/** ISO 3166-1 alpha-3 codes of countries whose names are written family name first. */
export const FAMILY_FIRST_COUNTRIES: ReadonlySet<string> = new Set(['CHN', 'TWN', 'HKG', 'MAC', 'JPN', 'KOR', 'PRK', 'VNM', 'KHM', 'HUN']);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Names wholly in CJK script are written without a space between the parts: 王秀英, 山田太郎. */
const WHOLLY_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC\u30FB]+$/u;

export interface PersonName {
  /** The full name for headings, in the order the documents use. */
  full: string;
  familyFirst: boolean;
  /** "WANG, XIUYING": family name, comma, given names, in capitals, as a passport's data page has them. */
  documentOrder: string;
}

export function isFamilyFirst(given: string, family: string, country: string | undefined): boolean {
  return CJK.test(given) || CJK.test(family) || (country !== undefined && FAMILY_FIRST_COUNTRIES.has(country.trim().toUpperCase()));
}

export function personName(givenRaw: string | undefined, familyRaw: string | undefined, country?: string): PersonName | undefined {
  const given = givenRaw?.trim() ?? '';
  const family = familyRaw?.trim() ?? '';
  if (!given && !family) return undefined;
  const familyFirst = isFamilyFirst(given, family, country);
  const parts = (familyFirst ? [family, given] : [given, family]).filter(Boolean);
  const separator = parts.every((part) => WHOLLY_CJK.test(part)) ? '' : ' ';
  const documentOrder = [family, given]
    .filter(Boolean)
    .map((part) => part.toLocaleUpperCase())
    .join(', ');
  return { full: parts.join(separator), familyFirst, documentOrder };
}

/** `country` or `countryCode` of an attribute holding JSON (address, phone); undefined when it has none. */
function countryIn(raw: string | undefined, field: 'country' | 'countryCode'): string | undefined {
  if (!raw) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    const country = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : undefined;
    return typeof country === 'string' && country.trim() ? country : undefined;
  } catch {
    return undefined;
  }
}

/** What naming a candidate reads of a record: its identities only (a record of the list may hold no more). */
type NamedRecord = { readonly identities?: CandidateRecord['identities']; readonly [field: string]: unknown };

/** The candidate's country as the record tells it: the address's, else the phone number's. */
export function candidateCountry(record: NamedRecord): string | undefined {
  const text = (name: string) => (record.identities?.[name]?.type === 'string' ? record.identities[name].value : undefined);
  return countryIn(text('address'), 'country') ?? countryIn(text('phone'), 'countryCode');
}

/** The candidate's name in the order their documents use, when the record has one. */
export function candidatePersonName(record: NamedRecord): PersonName | undefined {
  const given = record.identities?.given_name?.type === 'string' ? record.identities.given_name.value : undefined;
  const family = record.identities?.family_name?.type === 'string' ? record.identities.family_name.value : undefined;
  return personName(given, family, candidateCountry(record));
}

/** The candidate's full name when the record has it, else undefined. */
export function candidateName(record: NamedRecord): string | undefined {
  return candidatePersonName(record)?.full;
}
