import { certificateTitle, isKnownProvider } from './certificate.ts';
import { OUTCOME_TONES, outcomeTone, worstTone } from './outcome.ts';

/**
 * A certificate's provider results as labelled rows, read from `Claim.reviewBody` or, for documents of
 * another shape, from the first object that holds something result-like. Values stay strings: the
 * page shows them as text, whatever they contain.
 */
export type ReviewRowKind = 'outcome' | 'date' | 'list' | 'text';

export interface ReviewRow {
  label: string;
  value: string;
  kind: ReviewRowKind;
}

export interface CertificateReview {
  provider: string;
  /** The certificate's overall result (its `result` or `matchStatus`), for the summary chip. */
  outcome?: string;
  rows: ReviewRow[];
  /** Rows left out beyond MAX_ROWS (they remain in the raw JSON). */
  omitted: number;
}

export const MAX_ROWS = 40;

const RESULT_KEYS = ['result', 'outcome', 'decision', 'verdict', 'status', 'reviewResult', 'review_result'];
const MATCH_KEYS = ['matchStatus', 'match_status'];
const CHECK_KEYS = ['checkType', 'check_type', 'check', 'checkName', 'type'];
const SUB_RESULT_KEYS = ['subResults', 'sub_results', 'breakdown', 'breakdowns', 'checks'];
const SOURCE_KEYS = ['sources', 'screeningSources', 'screening_sources', 'lists', 'types'];
const PROVIDER_KEYS = ['provider', 'providerName', 'vendor'];
/** Subtrees that never hold results: signatures, hashes of the person's data, JSON-LD plumbing. */
const NOT_RESULTS = new Set(['signature', 'proof', '@context', 'Entity', 'Organization', '_customFields']);
const DATE_KEY = /(date|At|_at|time|timestamp|created|updated|completed)$/i;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'empty';
  return undefined;
}

function firstKey(body: Json, keys: string[]): string | undefined {
  return keys.find((key) => Object.hasOwn(body, key) && scalar(body[key]) !== undefined);
}

/** The review body: `Claim.reviewBody`, else the first object (breadth first) that has a result-like key. */
export function findReviewBody(doc: unknown): Json | undefined {
  if (!isObject(doc)) return undefined;
  const claim = isObject(doc.Claim) ? doc.Claim : undefined;
  if (claim && isObject(claim.reviewBody)) return claim.reviewBody;
  let level: Json[] = [doc];
  for (let depth = 0; depth < 6 && level.length > 0; depth++) {
    const next: Json[] = [];
    for (const object of level) {
      if (firstKey(object, [...RESULT_KEYS, ...MATCH_KEYS]) && object !== doc) return object;
      for (const [key, value] of Object.entries(object)) {
        if (NOT_RESULTS.has(key)) continue;
        if (isObject(value)) next.push(value);
        else if (Array.isArray(value)) next.push(...value.filter(isObject));
      }
    }
    level = next;
  }
  // A flat document with a result at its top level is its own review body.
  return firstKey(doc, [...RESULT_KEYS, ...MATCH_KEYS]) ? doc : undefined;
}

/** The short name for a certificate: a known provider's own, else the provider the document names. */
export function certificateLabel(slug: string, review: CertificateReview | undefined): string {
  return review && !isKnownProvider(slug) ? review.provider : certificateTitle(slug);
}

export function reviewOf(doc: unknown, slug: string): CertificateReview {
  const root = isObject(doc) ? doc : {};
  const organization = isObject(root.Organization) ? root.Organization : {};
  const claim = isObject(root.Claim) ? root.Claim : {};
  const body = findReviewBody(doc) ?? {};
  const used = new Set<string>();
  const take = (keys: string[]) => {
    const key = firstKey(body, keys);
    if (key) used.add(key);
    return key === undefined ? undefined : scalar(body[key]);
  };

  const provider = scalar(organization.legalName) ?? take(PROVIDER_KEYS) ?? certificateTitle(slug);
  const rows: ReviewRow[] = [{ label: 'Provider', value: provider, kind: 'text' }];
  const checkType = take(CHECK_KEYS);
  if (checkType) rows.push({ label: 'Check type', value: checkType, kind: 'text' });
  const result = take(RESULT_KEYS);
  if (result) rows.push({ label: 'Result', value: result, kind: 'outcome' });
  const matchStatus = take(MATCH_KEYS);
  if (matchStatus) rows.push({ label: 'Match status', value: matchStatus, kind: 'outcome' });

  for (const key of SUB_RESULT_KEYS) {
    if (!Object.hasOwn(body, key) || scalar(body[key]) !== undefined) continue;
    used.add(key);
    flatten(body[key], [], rows, 'sub');
  }
  const sourcesKey = SOURCE_KEYS.find((key) => Array.isArray(body[key]));
  if (sourcesKey) {
    used.add(sourcesKey);
    const sources = (body[sourcesKey] as unknown[]).map((item) => scalar(item) ?? JSON.stringify(item));
    rows.push({ label: 'Screening sources', value: sources.join(', '), kind: 'list' });
  }

  const issueDate = scalar(claim.issueDate) ?? scalar(root.issuanceDate);
  if (issueDate) rows.push({ label: 'Issued', value: issueDate, kind: 'date' });
  const expiry = scalar(claim.expirationDate) ?? scalar(root.expirationDate);
  if (expiry) rows.push({ label: 'Expires', value: expiry, kind: 'date' });

  // Everything else the body holds, so that nothing a provider sent is hidden behind "Raw JSON".
  for (const [key, value] of Object.entries(body)) {
    if (used.has(key) || NOT_RESULTS.has(key) || (body === root && ['Claim', 'issuanceDate', 'expirationDate'].includes(key))) continue;
    flatten(value, [key], rows, 'other');
  }

  const outcomes = rows.filter((row) => row.kind === 'outcome').map((row) => row.value);
  const worst = worstTone(outcomes.map(outcomeTone));
  const outcome = result ?? matchStatus ?? outcomes.find((value) => outcomeTone(value) === worst);
  return { provider, outcome, rows: rows.slice(0, MAX_ROWS), omitted: Math.max(0, rows.length - MAX_ROWS) };
}

/** Traversal stops here: a hostile certificate with a million keys costs no more than this. */
const TRAVERSAL_LIMIT = 500;

function flatten(value: unknown, path: string[], rows: ReviewRow[], mode: 'sub' | 'other', depth = 0): void {
  if (rows.length >= TRAVERSAL_LIMIT) return;
  const label = [...(mode === 'sub' ? ['Sub-result'] : []), ...path.map(labelOf)].join(' › ');
  const text = scalar(value);
  if (text !== undefined) {
    const key = path.at(-1) ?? '';
    const resultLike = Object.hasOwn(OUTCOME_TONES, text.trim().toLowerCase()) || [...RESULT_KEYS, ...MATCH_KEYS].includes(key);
    const kind: ReviewRowKind = mode === 'sub' || resultLike ? 'outcome' : DATE_KEY.test(key) ? 'date' : 'text';
    rows.push({ label, value: text, kind });
  } else if (Array.isArray(value) && value.every((item) => scalar(item) !== undefined)) {
    rows.push({ label, value: value.map(scalar).join(', '), kind: 'list' });
  } else if (depth >= 3) {
    rows.push({ label, value: JSON.stringify(value), kind: 'text' });
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) flatten(item, [...path, String(i + 1)], rows, mode, depth + 1);
  } else {
    for (const [key, item] of Object.entries(value as Json)) flatten(item, [...path, key], rows, mode, depth + 1);
  }
}

/** `visualAuthenticity` and `visual_authenticity` -> "Visual authenticity"; acronyms stay as written. */
export function labelOf(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
  const text = words.join(' ');
  return text ? text[0]!.toUpperCase() + text.slice(1) : key;
}
