import { MAX_VALUES_KEEPING_NUMBERS, numberTextAt, parseJsonKeepingNumbers, type ValuesBudget } from './number-text.ts';
import { holdsResult, isResultKey, normalise, WRAPPERS } from './result-keys.ts';
import { outcomeInText, UNREADABLE } from './certificate-text.ts';
import { knownOutcome, worstOutcome } from './outcome.ts';
import { MAX_STRUCTURED_JSON, numberWords, ROUNDED_WORDS } from './other-forms.ts';

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
/** Keys whose entries are each a check: `checks[]`, `breakdown.{…}`, `results[]`, `hits[]`. */
const CHECK_LISTS = new Set(['checks', 'breakdown', 'breakdowns', 'results', 'subresults', 'hits', 'matches', 'reports', 'screenings']);
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

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain value but a number, as its row writes it; a number is written by where it is held (numberTextAt). */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'empty';
  return undefined;
}

/** A value a list of plain values may hold: a number, true or false, null, or text that holds no JSON. */
const isPlain = (item: unknown) =>
  typeof item === 'number' || (scalar(item) !== undefined && !(typeof item === 'string' && looksLikeJson(item)));

/**
 * A list of plain values as one row: its items joined by commas, each number as the certificate writes it
 * (numberTextAt), with ROUNDED_WORDS once when one of them may not be as sent. A number past
 * MAX_STRUCTURED_JSON characters of the row ends it, `…` there (the rest is in the raw JSON): one whose
 * text was not kept is written in all its digits (1e308 in 309, with BigInt), and a list of a million of
 * them would hold the tab while a row nobody reads to its end was written. Text is written whole, as sent.
 */
function listText(items: unknown[]): string {
  const parts: string[] = [];
  let length = 0;
  let rounded = false;
  for (const [index, item] of items.entries()) {
    if (typeof item === 'number' && length > MAX_STRUCTURED_JSON) {
      parts.push('…');
      break;
    }
    const text = typeof item === 'number' ? numberTextAt(items, String(index), item) : { digits: scalar(item) ?? '' };
    rounded ||= text.rounded === true;
    parts.push(text.digits);
    length += text.digits.length + 2;
  }
  const joined = parts.join(', ');
  return rounded ? `${joined} (${ROUNDED_WORDS})` : joined;
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

/** How JSON's text begins (`{"`, `{}`, `[{`, `[1`…, or a lone bracket cut after it), unlike `{{name}}` or `[sic]`. */
const JSON_START = /^\s*(?:\{\s*(?:"|\}|$)|\[\s*(?:["{[\]\d-]|true|false|null|$))/;

/**
 * A JSON value's text, if it is text that holds an object or an array, read by `read`. `unread`: text that
 * looks like JSON but was not read (cut off, broken by `,,`, or past the budget), whose results are unknown.
 */
function jsonInside(text: string, budget: { left: number }, read: (json: string) => unknown): { json: unknown } | 'unread' | undefined {
  if (!looksLikeJson(text)) return undefined;
  const unread = JSON_START.test(text) ? 'unread' : undefined;
  if (text.length > budget.left) return unread;
  budget.left -= text.length;
  try {
    return { json: read(text) };
  } catch {
    return unread;
  }
}

class FieldCollector {
  readonly results: CertificateField[] = [];
  readonly others: CertificateField[] = [];
  worst?: CertificateField;
  private readonly budget = { left: JSON_TEXT_BUDGET };
  /**
   * What keeping numbers' text may still cost the JSON held in this certificate's strings, together:
   * each string under number-text.ts's bound would otherwise cost the reviver's time for all of them.
   */
  private readonly numbers: ValuesBudget = { values: MAX_VALUES_KEEPING_NUMBERS };
  private readonly read: (json: string) => unknown;

  constructor(numbersAsSent: boolean) {
    this.read = numbersAsSent ? (json) => parseJsonKeepingNumbers(json, this.numbers) : (json) => JSON.parse(json);
  }

  /**
   * `checkEntry`: the value is an entry of a list or map of checks, so a plain value is a result.
   * `holder`: the object or list the value is in, by which a number's text as sent is found.
   */
  visit(value: unknown, steps: Step[], checkEntry: boolean, holder?: object): void {
    const inner = typeof value === 'string' ? jsonInside(value, this.budget, this.read) : undefined;
    const text = scalar(value);
    if (steps.length > MAX_DEPTH) this.add(steps, '(nested too deeply to show: see the raw JSON)', false, false);
    else if (inner === 'unread') this.addUnread(steps, value as string);
    else if (inner !== undefined) this.visit(inner.json, steps, checkEntry);
    else if (typeof value === 'number') this.addNumber(steps, holder, value, checkEntry);
    else if (text !== undefined) this.add(steps, text, false, checkEntry || holdsResult(steps.at(-1)?.key ?? '', text));
    else if (Array.isArray(value)) this.visitArray(value, steps, CHECK_LISTS.has(normalise(steps.at(-1)?.key ?? '')));
    else if (isObject(value)) this.visitObject(value, steps);
  }

  /**
   * Text holding JSON that was not read (a `reviewBody` cut off): a row of text as received, and a result
   * row of what its text states, read as a certificate that does not parse is (certificate-text.ts): a
   * failure or a caution as found, a pass as `unconfirmed`, nothing as `unreadable`. Never a pass, so that
   * the certificate's other results (a `clear` in `_customFields`) cannot show green without it.
   */
  private addUnread(steps: Step[], text: string): void {
    this.add(steps, text, false, false);
    this.add(steps, outcomeInText(text)?.outcome ?? UNREADABLE, false, true);
  }

  private visitObject(object: Json, steps: Step[]): void {
    const entriesAreChecks = CHECK_LISTS.has(normalise(steps.at(-1)?.key ?? ''));
    for (const [key, item] of Object.entries(object)) {
      if (!EXCLUDED.has(key)) this.visit(item, [...steps, keyStep(key)], entriesAreChecks, object);
    }
  }

  private visitArray(items: unknown[], steps: Step[], entriesAreChecks: boolean): void {
    if (items.length > 0 && items.every(isPlain) && !entriesAreChecks) {
      // A list is never a result: one past the rows kept is not written (listText).
      if (this.hasRoom(false)) this.add(steps, listText(items), true, false);
      return;
    }
    for (const [index, item] of items.entries()) {
      this.visit(item, [...steps, { raw: `[${index}]`, key: String(index), label: itemName(item, index) }], entriesAreChecks, items);
    }
  }

  /**
   * A number's row, as the certificate writes it (numberWords). A number is never an outcome word, so one
   * past the rows kept needs no text, and is not written: one whose text was not kept is written with BigInt.
   */
  private addNumber(steps: Step[], holder: object | undefined, value: number, checkEntry: boolean): void {
    const key = steps.at(-1)?.key ?? '';
    const result = checkEntry || isResultKey(key);
    if (this.hasRoom(result)) this.add(steps, numberWords(holder, key, value), false, result);
  }

  private hasRoom(result: boolean): boolean {
    return (result ? this.results : this.others).length < MAX_KEPT;
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
    if (this.hasRoom(result)) (result ? this.results : this.others).push(field);
  }
}

/**
 * Every field of a parsed certificate, the worst known outcome among its results. `numbersAsSent`: JSON
 * held in its strings is read keeping its numbers' text (number-text.ts), as the page's rows show them
 * beside the raw JSON; the server's triage, which keeps only an outcome word, reads it plainly.
 */
export function certificateFields(doc: unknown, { numbersAsSent = false } = {}): CertificateFields {
  const collector = new FieldCollector(numbersAsSent);
  if (isObject(doc) || Array.isArray(doc)) collector.visit(doc, [], false);
  return { results: collector.results, others: collector.others, worst: collector.worst };
}
