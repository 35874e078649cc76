import { knownOutcome, worstOutcome } from './outcome.ts';

/**
 * Every field of a certificate that a reviewer may need, found wherever the document keeps it: in
 * `Claim.reviewBody` (an object, or a string holding JSON), in `Claim._customFields`, or anywhere else
 * below the root. Only the signatures, the hashes of the person's data, the issuer and the JSON-LD
 * context stay out: they never hold a provider's result.
 */
export interface CertificateField {
  /** Where the value is, as a reviewer would look for it in the raw JSON: `_customFields.result`. */
  path: string;
  /** The path as words: `Document › Breakdown › Visual authenticity`. */
  label: string;
  /** The key the value sits under (or the item's number in a list). */
  key: string;
  value: string;
  /** An array of plain values, shown as one comma-separated row. */
  list: boolean;
  /** Under a result-like key, or an entry of a list or map of checks. */
  result: boolean;
}

export interface CertificateFields {
  /** Result fields in document order (the first MAX_KEPT). */
  results: CertificateField[];
  /** Every other plain field in document order (the first MAX_KEPT). */
  others: CertificateField[];
  /** The worst known outcome word among all result fields, however many. */
  worst?: CertificateField;
}

/** Subtrees that never hold results, at any depth. */
const EXCLUDED = new Set(['signature', 'proof', 'Entity', 'Organization', '@context']);
/** Keys that only wrap what they hold: left out of a field's label, kept in its path. */
const WRAPPERS = new Set(['claim', 'reviewbody', 'customfields', 'credentialsubject', 'data', 'payload', 'body', 'report']);
/** Keys whose entries are each a check: `checks[]`, `breakdown.{…}`, `results[]`, `hits[]`. */
const CHECK_LISTS = new Set(['checks', 'breakdown', 'breakdowns', 'results', 'subresults', 'hits', 'matches', 'reports', 'screenings']);
/** Result-like keys whatever their prefix or suffix. */
const GENERIC_RESULT = new Set(['result', 'outcome', 'status', 'decision', 'verdict', 'results', 'match', 'hit']);
/** Keys that say nothing of their own in a label ("Document", not "Document › Result"). */
const UNSAID = new Set(['result', 'outcome', 'results']);
/** What an item of a list of checks is called, in order of preference. */
const ITEM_NAMES = ['name', 'checkName', 'check_name', 'checkType', 'check_type', 'check', 'title', 'label', 'type', 'id'];

const MAX_DEPTH = 32;
/** Fields kept for rows; the worst outcome is still taken over all of them. */
const MAX_KEPT = 500;
/** Text that holds JSON is read as JSON up to this many characters per certificate. */
const JSON_TEXT_BUDGET = 4_000_000;

type Json = Record<string, unknown>;

const normalise = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** `result`, `RESULT`, `match_status`, `MatchStatus`, `review_result`, `overallOutcome`, `reviewAnswer`… */
export function isResultKey(key: string): boolean {
  const k = normalise(key);
  return (
    GENERIC_RESULT.has(k) ||
    ['result', 'outcome', 'decision', 'verdict', 'status', 'answer'].some((suffix) => k.endsWith(suffix) && k.length > suffix.length)
  );
}

/**
 * Whether a plain value under this key states a result: under a result-like key, or a known outcome word
 * standing alone under a key that only wraps results (`"reviewBody": "potential_match"`: the facts name
 * the Claim's reviewBody and these labels, not how they are nested).
 */
export function holdsResult(key: string, value: string): boolean {
  return isResultKey(key) || (WRAPPERS.has(normalise(key)) && knownOutcome(value) !== undefined);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'empty';
  return undefined;
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

/** A machine name reads as words (`facial_similarity_photo`); anything else as written. */
const nameLabel = (name: string) => (/^[A-Za-z][\w-]*$/.test(name) ? labelOf(name) : name);

function itemName(item: unknown, index: number): string {
  if (isObject(item)) {
    const key = ITEM_NAMES.find((name) => typeof item[name] === 'string' && item[name] !== '');
    if (key) return nameLabel(item[key] as string);
  }
  return `#${index + 1}`;
}

interface Step {
  /** As written in the path: `.key` or `[0]`. */
  raw: string;
  /** As shown in the label, or nothing for a wrapper. */
  label?: string;
  key: string;
}

function keyStep(key: string): Step {
  const raw = /^[A-Za-z_$@][\w$@-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return { raw, key, label: WRAPPERS.has(normalise(key)) ? undefined : labelOf(key) };
}

function looksLikeJson(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[');
}

/** A JSON value's text, if it is text that holds an object or an array. */
function jsonInside(text: string, budget: { left: number }): unknown {
  if (!looksLikeJson(text) || text.length > budget.left) return undefined;
  budget.left -= text.length;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

class FieldCollector {
  readonly results: CertificateField[] = [];
  readonly others: CertificateField[] = [];
  worst?: CertificateField;
  private readonly budget = { left: JSON_TEXT_BUDGET };

  /** `checkEntry`: the value is an entry of a list or map of checks, so a plain value is a result. */
  visit(value: unknown, steps: Step[], checkEntry: boolean): void {
    const inner = typeof value === 'string' ? jsonInside(value, this.budget) : undefined;
    const text = scalar(value);
    if (steps.length > MAX_DEPTH) this.add(steps, '(nested too deeply to show: see the raw JSON)', false, false);
    else if (inner !== undefined) this.visit(inner, steps, checkEntry);
    else if (text !== undefined) this.add(steps, text, false, checkEntry || holdsResult(steps.at(-1)?.key ?? '', text));
    else if (Array.isArray(value)) this.visitArray(value, steps, CHECK_LISTS.has(normalise(steps.at(-1)?.key ?? '')));
    else if (isObject(value)) this.visitObject(value, steps);
  }

  private visitObject(object: Json, steps: Step[]): void {
    const entriesAreChecks = CHECK_LISTS.has(normalise(steps.at(-1)?.key ?? ''));
    for (const [key, item] of Object.entries(object)) {
      if (!EXCLUDED.has(key)) this.visit(item, [...steps, keyStep(key)], entriesAreChecks);
    }
  }

  private visitArray(items: unknown[], steps: Step[], entriesAreChecks: boolean): void {
    const plain =
      items.length > 0 && items.every((item) => scalar(item) !== undefined && !(typeof item === 'string' && looksLikeJson(item)));
    if (plain && !entriesAreChecks) {
      this.add(steps, items.map((item) => scalar(item)).join(', '), true, false);
      return;
    }
    for (const [index, item] of items.entries()) {
      this.visit(item, [...steps, { raw: `[${index}]`, key: String(index), label: itemName(item, index) }], entriesAreChecks);
    }
  }

  private add(steps: Step[], value: string, list: boolean, result: boolean): void {
    const last = steps.at(-1);
    const labels = steps.flatMap((step) => (step.label === undefined ? [] : [step.label]));
    // "Document", not "Document › Result": a generic key says nothing after the check it belongs to.
    if (result && labels.length > 1 && last && UNSAID.has(normalise(last.key))) labels.pop();
    // A check's own name already labels its rows: not a row of its own.
    if (!result && last && ITEM_NAMES.includes(last.key) && steps.at(-2)?.label === nameLabel(value)) return;
    const path = steps
      .map((step) => step.raw)
      .join('')
      .replace(/^\.Claim(?=[.[])/, '')
      .replace(/^\./, '');
    const field: CertificateField = {
      path,
      label: labels.join(' › ') || (last ? labelOf(last.key) : 'Value'),
      key: last?.key ?? '',
      value,
      list,
      result,
    };
    // Of equally bad words the first in the document stays: the same words always give the same chip.
    if (result && knownOutcome(value) && (!this.worst || worstOutcome([this.worst.value, value]) !== this.worst.value)) this.worst = field;
    const into = result ? this.results : this.others;
    if (into.length < MAX_KEPT) into.push(field);
  }
}

/** Every field of a parsed certificate, the worst known outcome among its results. */
export function certificateFields(doc: unknown): CertificateFields {
  const collector = new FieldCollector();
  if (isObject(doc) || Array.isArray(doc)) collector.visit(doc, [], false);
  return { results: collector.results, others: collector.others, worst: collector.worst };
}
