import { certificateTitle, isKnownProvider, parseCertificate } from './certificate.ts';
import { type CertificateField, certificateFields } from '../contract/certificate-fields.ts';
import { outcomeInText, UNREADABLE } from '../contract/certificate-triage.ts';
import { knownOutcome } from '../contract/outcome.ts';

/**
 * A certificate as a reviewer reads it: the provider's results as labelled rows, each with the place
 * it was found, every other field the document holds, who signed it, and one outcome for its chip.
 * Values stay strings: the page shows them as text, whatever they contain.
 */
export type ReviewRowKind = 'outcome' | 'date' | 'list' | 'text';

export interface ReviewRow {
  label: string;
  value: string;
  kind: ReviewRowKind;
  /** Where the value is in the document (`_customFields.result`), so that a reviewer can check. */
  path?: string;
}

export interface CertificateSignature {
  type?: string;
  creator?: string;
  created?: string;
}

/**
 * `known`: the chip shows the worst known outcome word; `unknown`: a result is stated in words this
 * tool does not know (shown as written, neutral); `none`: no result-like field at all.
 */
export type Recognition = 'known' | 'unknown' | 'none';

export interface CertificateReview {
  provider: string;
  /** What the certificate's chip says. */
  outcome: string;
  /** Where the chip's outcome was found. */
  outcomePath?: string;
  recognition: Recognition;
  rows: ReviewRow[];
  /** Rows left out beyond MAX_ROWS (they remain in the raw JSON). */
  omitted: number;
  /** The issuer as the document names it (`Organization.legalName`). */
  issuer?: string;
  /** The document's signatures as it states them: this tool does not verify them. */
  signatures: CertificateSignature[];
}

export const MAX_ROWS = 40;
export const NOT_RECOGNISED = 'result not recognised — see the fields';

const PROVIDER_KEYS = new Set(['provider', 'providername', 'vendor']);
/** What was checked reads first, before the results it explains. */
const CHECK_TYPE_KEYS = new Set(['checkType', 'check_type', 'checkName', 'check_name']);
const ISSUED_KEYS = new Set(['issueDate', 'issuanceDate']);
const EXPIRY_KEYS = new Set(['expirationDate', 'expiryDate']);
const DATE_KEY = /(date|At|_at|time|timestamp|created|updated|completed)$/i;
const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The short name for a certificate: a known provider's own, else the provider the document names. */
export function certificateLabel(slug: string, review: CertificateReview | undefined): string {
  return review && !isKnownProvider(slug) ? review.provider : certificateTitle(slug);
}

function signaturesOf(root: Json): CertificateSignature[] {
  const all = [root.signature, root.proof].flatMap((value) => (Array.isArray(value) ? value : value === undefined ? [] : [value]));
  return all.filter(isObject).map((signature) => ({
    type: text(signature.type),
    creator: text(signature.creator) ?? text(signature.verificationMethod),
    created: text(signature.created),
  }));
}

function issuerOf(root: Json): string | undefined {
  if (isObject(root.Organization)) return text(root.Organization.legalName) ?? text(root.Organization.name);
  return text(root.issuer) ?? (isObject(root.issuer) ? text(root.issuer.name) : undefined);
}

function rowOf(field: CertificateField, withPath: boolean): ReviewRow {
  const kind: ReviewRowKind = field.result
    ? 'outcome'
    : field.list
      ? 'list'
      : DATE_KEY.test(field.key) || ISO_TIMESTAMP.test(field.value)
        ? 'date'
        : 'text';
  return { label: field.label, value: field.value, kind, ...(withPath || field.result ? { path: field.path } : {}) };
}

export function reviewOf(doc: unknown, slug: string): CertificateReview {
  const root = isObject(doc) ? doc : {};
  const { results, others, worst } = certificateFields(doc, { numbersAsSent: true });
  const issuer = issuerOf(root);
  const named = others.find((field) => PROVIDER_KEYS.has(field.key.toLowerCase()));
  const organization = isObject(root.Organization) ? issuer : undefined;
  const provider = organization ?? named?.value ?? issuer ?? certificateTitle(slug);
  const firstStated = results[0];
  const recognition: Recognition = worst ? 'known' : firstStated ? 'unknown' : 'none';
  const chip = worst ?? firstStated;

  const dated = (keys: Set<string>) => others.filter((field) => keys.has(field.key) && !field.list);
  const issued = dated(ISSUED_KEYS);
  const expires = dated(EXPIRY_KEYS);
  const rest = others.filter((field) => field !== named && !issued.includes(field) && !expires.includes(field));
  const rows: ReviewRow[] = [
    { label: 'Provider', value: provider, kind: 'text' },
    ...rest.filter((field) => CHECK_TYPE_KEYS.has(field.key)).map((field) => rowOf(field, false)),
    ...results.map((field) => rowOf(field, false)),
    ...rest.filter((field) => !CHECK_TYPE_KEYS.has(field.key)).map((field) => rowOf(field, recognition === 'none')),
    ...issued.map((field) => ({ label: 'Issued', value: field.value, kind: 'date' as const, path: field.path })),
    ...expires.map((field) => ({ label: 'Expires', value: field.value, kind: 'date' as const, path: field.path })),
  ];
  return {
    provider,
    outcome: chip?.value ?? NOT_RECOGNISED,
    outcomePath: chip?.path,
    recognition,
    rows: rows.slice(0, MAX_ROWS),
    omitted: Math.max(0, rows.length - MAX_ROWS),
    issuer,
    signatures: signaturesOf(root),
  };
}

export interface CertificateOutcome {
  /** Who issued it, as the chip names it. */
  label: string;
  outcome: string;
  /** Where the outcome was found in the document. */
  path?: string;
  /** The pass the text of a certificate that does not parse states, when `outcome` is `unconfirmed` (UNCONFIRMED_NOTE). */
  stated?: string;
  recognition: Recognition | 'unreadable';
}

/**
 * One certificate's chip, as the summary strip, the certificate panel and Copy summary all say it. A
 * certificate that is not JSON still shows the worst result its text states, marked as read from text,
 * but a pass only as `unconfirmed` (certificate-triage.ts): what came after a cut is unknown.
 */
export function certificateOutcome(slug: string, raw: string): CertificateOutcome {
  const parsed = parseCertificate(raw);
  if (!parsed.ok) {
    // Its own text, or the text it held when encoded twice (certificate-json.ts): what the queue's triage reads too.
    const inText = outcomeInText(parsed.text);
    const outcome = inText?.outcome ?? UNREADABLE;
    return { label: certificateTitle(slug), outcome, path: inText?.path, stated: inText?.stated, recognition: 'unreadable' };
  }
  const review = reviewOf(parsed.json, slug);
  return { label: certificateLabel(slug, review), outcome: review.outcome, path: review.outcomePath, recognition: review.recognition };
}

/** A certificate with its chip, as the summary strip and the Certificates section order them. */
export interface ReadCertificate {
  slug: string;
  raw: string;
  chip: CertificateOutcome;
}

/**
 * The order read for a record's certificates, kept while that object lives: the summary's chips and the
 * Certificates section each ask for it, and 20,000 certificates cost a parse each (a JSON-LD document
 * read with the parse that keeps each number's text). Held by the object itself (a WeakMap): gone with
 * the record, never kept past it nor anywhere else.
 */
const readOrders = new WeakMap<Readonly<Record<string, string>>, readonly ReadCertificate[]>();

/**
 * More certificates than a page shows at once: each read for its chip, the worst first (a failure, then
 * what needs a reviewer, an outcome word this tool does not know among those; the passes last), in the
 * order sent among equals, so that no failure is the one left under "Show more". Read once per record
 * object (above): the same array is given to each caller, to read and not to change.
 */
export function certificatesWorstFirst(certs: Readonly<Record<string, string>>): readonly ReadCertificate[] {
  const known = readOrders.get(certs);
  if (known) return known;
  const ordered = worstFirst(certs);
  readOrders.set(certs, ordered);
  return ordered;
}

function worstFirst(certs: Readonly<Record<string, string>>): ReadCertificate[] {
  return Object.entries(certs)
    .map(([slug, raw], index) => {
      const chip = certificateOutcome(slug, raw);
      return { slug, raw, chip, index, severity: knownOutcome(chip.outcome)?.severity ?? UNKNOWN_SEVERITY };
    })
    .sort((a, b) => b.severity - a.severity || a.index - b.index)
    .map(({ slug, raw, chip }) => ({ slug, raw, chip }));
}

/** An outcome word this tool does not know: between a pass and a failure, where a reviewer must look. */
const UNKNOWN_SEVERITY = 45;
