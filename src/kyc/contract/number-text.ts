/**
 * A number as the page writes it. JSON.parse keeps a number's value, not its text: 12345678901234567890
 * reads as 12345678901234567000, and JavaScript writes 1e21 as "1e+21". Where the browser gives a
 * reviver each value's source text (JSON.parse source text access: Chrome 114, Firefox 135, Safari 18.4),
 * the text of every number whose digits as read would differ is kept beside the object or list holding
 * it, so the page shows the number as the service wrote it; elsewhere, and in a body of more values than
 * the reviver's cost allows (MAX_VALUES_KEEPING_NUMBERS), numberText's digits and its `rounded` warning.
 */

/** The text sent of the numbers read otherwise, by the object or list holding them, then by key (a list's: its index). */
const sentTexts = new WeakMap<object, Map<string, string>>();

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * A number token whose text numberText might not write as sent, without a warning: one with an exponent
 * (`1e21`), 16 digits or more (past 2^53, or past 15 significant digits), below 1e-6 without an exponent
 * (JavaScript writes "1e-7"), a fraction ending in 0 (`1.50`), or `-0`. Other numbers are written as sent,
 * so a body with none of these needs no reviver. A number held by an object or a list starts after `:`,
 * `,`, `[` or a space, which a picture's base64 never holds (a bare `[0-9][eE][0-9]` matched nearly every
 * picture; and with `^` as a start too, the search was twenty times slower); inside a string the same
 * text matches too, which only costs the reviver.
 */
const MAY_DIFFER = /[[:,\s](?:-?(?:[0-9]+(?:\.[0-9]+)?[eE]|[0-9.]{16}|0\.0{6}|[0-9]+\.[0-9]*0(?=[\s,\]}]|$))|-0(?=[\s,\]}]|$))/;

/**
 * The most values a body may hold for the reviver to be used, counted as its commas (a value in a list or
 * an object after the first follows one; a comma in a string counts too). The reviver costs every value
 * about 2 µs in Chromium, ten times a plain parse: a million numbers froze the tab for seconds
 * (docs/performance.md, "Numbers as sent"), this many cost about 0.1 s. Past it, the numbers are read
 * plainly and a rounded one says so (numberText's `rounded`). Counted first: it stops at the bound, where
 * MAY_DIFFER's search would read a dense body to its end.
 */
export const MAX_VALUES_KEEPING_NUMBERS = 50_000;

/** What is left of MAX_VALUES_KEEPING_NUMBERS for several bodies read together (a certificate's JSON held in its strings). */
export interface ValuesBudget {
  values: number;
}

/**
 * How a body's numbers were read: `kept`, the text of at least one number kept by the reviver; `plain`,
 * none kept, as none could differ, none did, or the browser gives no source text; `pastBound`, none kept
 * as the body holds more values than the bound (or its budget) allows where the browser gives the source:
 * a number read may be a rounding of the one sent, which a view of them as read should say.
 */
export type NumbersRead = 'kept' | 'plain' | 'pastBound';

/**
 * JSON.parse, keeping the text of each number numberText would not write as sent. Without source text
 * access, JSON.parse alone: a reviver that can learn nothing would only slow the parse; likewise for a
 * body where no number can differ (MAY_DIFFER), and one too large for the reviver's cost. `budget`, shared
 * by several bodies, is what the reviver may still cost them, less each time it is used: bodies each
 * under the bound would otherwise cost the tab the reviver's time for all of their values together.
 */
export function parseJsonKeepingNumbers(text: string, budget?: ValuesBudget): unknown {
  return readJsonKeepingNumbers(text, budget).value;
}

/** parseJsonKeepingNumbers, and how its numbers were read: a layout needs no walk of its own where none was kept. */
export function readJsonKeepingNumbers(text: string, budget?: ValuesBudget): { value: unknown; numbers: NumbersRead } {
  const bound = Math.min(MAX_VALUES_KEEPING_NUMBERS, budget?.values ?? MAX_VALUES_KEEPING_NUMBERS);
  const sourceText = hasSourceTextAccess();
  const values = sourceText ? valuesUpTo(text, bound) : undefined;
  if (values === undefined) return { value: JSON.parse(text), numbers: sourceText ? 'pastBound' : 'plain' };
  if (!MAY_DIFFER.test(text)) return { value: JSON.parse(text), numbers: 'plain' };
  if (budget) budget.values -= values;
  let kept = false;
  const keep: Reviver = function (this: unknown, key, value, context) {
    const sent = context?.source;
    if (typeof value === 'number' && sent !== undefined && typeof this === 'object' && this !== null)
      kept = keepNumberText(this, key, value, sent) || kept;
    return value;
  };
  const value = JSON.parse(text, keep as (key: string, value: unknown) => unknown);
  return { value, numbers: kept ? 'kept' : 'plain' };
}

/**
 * Keeps `sent`, the text the number `holder[key]` was read from, when numberText would not write it so:
 * the browser's reviver above, and the server's reader of an answer (answer-value.ts), which reads each
 * number's text from the bytes, as Node 20's JSON.parse gives no reviver its source. A number written as
 * sent drops a text kept before under its key (a repeated member: the last one read is the value).
 * Whether it kept one.
 */
export function keepNumberText(holder: object, key: string, value: number, sent: string): boolean {
  const texts = sentTexts.get(holder);
  if (writtenAsSent(value, sent)) {
    texts?.delete(key);
    return false;
  }
  if (texts) texts.set(key, sent);
  else sentTexts.set(holder, new Map([[key, sent]]));
  return true;
}

/**
 * Whether numberText writes `value` as `sent`, without a warning; decided without BigInt, which took 25 µs a
 * number: a whole number past 2^53 is always rounded, so never written as sent.
 */
function writtenAsSent(value: number, sent: string): boolean {
  if (sent !== String(value)) return false;
  if (Number.isSafeInteger(value)) return true;
  // Up to 15 characters, at most 15 significant digits: never rounded.
  return !Number.isInteger(value) && (sent.length <= 15 || numberText(value).rounded === undefined);
}

/** How many values the body holds, by its commas (one more than them), when at most `bound`; stops counting there. */
function valuesUpTo(text: string, bound: number): number | undefined {
  let at = -1;
  for (let count = 1; count <= bound; count++) {
    at = text.indexOf(',', at + 1);
    if (at === -1) return count;
  }
  return undefined;
}

/** Asked at each parse, not once: a page is not reloaded when its browser updates, and a test turns the feature on. */
function hasSourceTextAccess(): boolean {
  const probe: Reviver = (_key, _value, context) => context?.source === '0';
  return JSON.parse('0', probe as (key: string, value: unknown) => unknown) === true;
}

/**
 * The number at `holder[key]` written as the service wrote it when its text was kept
 * (parseJsonKeepingNumbers), else as numberText writes it.
 */
export function numberTextAt(holder: object | undefined, key: string, value: number): { digits: string; rounded?: true } {
  const sent = holder === undefined ? undefined : sentTexts.get(holder)?.get(key);
  return sent === undefined ? numberText(value) : { digits: sent };
}

/** The texts kept of `from`'s numbers also serve `to`, a copy of its entries under the same keys (record-reading.ts). */
export function shareNumberTexts(from: object, to: object): void {
  const texts = sentTexts.get(from);
  if (texts) sentTexts.set(to, texts);
}

/** How deep stringifyKeepingNumbers writes numbers as sent: below, JSON.stringify writes the rest, with no stack of ours to run out. */
const KEPT_DEPTH = 32;

/**
 * A value's JSON, as JSON.stringify writes it (compact, or laid out `indent` spaces a level as
 * `JSON.stringify(value, null, indent)`) but each number whose text was kept as sent: an address sent as
 * an object and turned back into the text the contract has keeps `"postalCode": 10115.0` as sent, where
 * JSON.stringify wrote 10115 (and 1e21 as "1e+21"), and the card read that; a support user's custom field
 * 12345678901234567890 leaves the server as sent (schema.ts), and a certificate's raw JSON shows its numbers so.
 */
export function stringifyKeepingNumbers(value: unknown, indent = 0): string {
  const write = (item: unknown, depth: number): string | undefined => {
    if (typeof item !== 'object' || item === null || depth >= KEPT_DEPTH) return laidOut(item, indent, depth);
    const list = Array.isArray(item);
    const entries: string[] = [];
    for (const [key, each] of Object.entries(item)) {
      // A number whose text was not kept is written as JSON.stringify writes it: numberText's digits of a
      // whole number past 2^53 are the double's (-35310607521407152), not the shortest text read back
      // as it (-35310607521407150), which is likelier what was sent.
      const text = typeof each === 'number' ? (sentTexts.get(item)?.get(key) ?? JSON.stringify(each)) : write(each, depth + 1);
      // As JSON.stringify: a member without a JSON value is left out, a list's item is null.
      if (list) entries.push(text ?? 'null');
      else if (text !== undefined) entries.push(`${JSON.stringify(key)}:${indent > 0 ? ' ' : ''}${text}`);
    }
    const [open, close] = list ? ['[', ']'] : ['{', '}'];
    if (indent === 0 || entries.length === 0) return `${open}${entries.join(',')}${close}`;
    const inner = `\n${' '.repeat(indent * (depth + 1))}`;
    return `${open}${inner}${entries.join(`,${inner}`)}\n${' '.repeat(indent * depth)}${close}`;
  };
  return write(value, 0) ?? 'null';
}

/** JSON.stringify's text of `item` at `depth`: laid out, its lines after the first indented to that depth (a string holds no line break). */
function laidOut(item: unknown, indent: number, depth: number): string | undefined {
  const text = JSON.stringify(item, null, indent) as string | undefined;
  return indent > 0 && depth > 0 ? text?.replaceAll('\n', `\n${' '.repeat(indent * depth)}`) : text;
}

/**
 * A number as read, written in digits: a whole number in all its digits (`1e21` is 1000000000000000000000,
 * never "1e+21"), any other as JavaScript writes it (the shortest text that reads back as that number).
 * The text sent is not kept by JSON.parse: past 2^53, or past 15 significant digits, the number read may be
 * a rounding of the one sent, and `rounded` says so.
 */
export function numberText(value: number): { digits: string; rounded?: true } {
  if (Number.isSafeInteger(value)) return { digits: String(value) };
  if (Number.isInteger(value)) return { digits: BigInt(value).toString(), rounded: true };
  const digits = String(value);
  const significant = digits.replace(/e.*$/i, '').replace(/[-.]/g, '').replace(/^0+/, '').length;
  return significant > 15 ? { digits, rounded: true } : { digits };
}
