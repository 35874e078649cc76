/**
 * A number as the page writes it. JSON.parse keeps a number's value, not its text: 12345678901234567890
 * reads as 12345678901234567000, and JavaScript writes 1e21 as "1e+21". Where the browser gives a
 * reviver each value's source text (JSON.parse source text access: Chrome 114, Firefox 135, Safari 18.4),
 * the text of every number whose digits as read would differ is kept beside the object or list holding
 * it, so the page shows the number as the service wrote it; elsewhere, numberText's digits and its
 * `rounded` warning.
 */

/** The text sent of the numbers read otherwise, by the object or list holding them, then by key (a list's: its index). */
const sentTexts = new WeakMap<object, Map<string, string>>();

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * JSON.parse, keeping the text of each number numberText would not write as sent. Without source text
 * access, JSON.parse alone: a reviver that can learn nothing would only slow the parse.
 */
export function parseJsonKeepingNumbers(text: string): unknown {
  if (!hasSourceTextAccess()) return JSON.parse(text);
  const keep: Reviver = function (this: unknown, key, value, context) {
    const sent = context?.source;
    if (typeof value !== 'number' || sent === undefined || typeof this !== 'object' || this === null) return value;
    const read = numberText(value);
    if (read.rounded || read.digits !== sent) {
      const texts = sentTexts.get(this) ?? new Map<string, string>();
      texts.set(key, sent);
      sentTexts.set(this, texts);
    }
    return value;
  };
  return JSON.parse(text, keep as (key: string, value: unknown) => unknown);
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
 * A value's compact JSON, as JSON.stringify writes it but each number as numberTextAt writes it: an address
 * sent as an object and turned back into the text the contract has keeps `"postalCode": 10115.0` as sent,
 * where JSON.stringify wrote 10115 (and 1e21 as "1e+21"), and the card read that.
 */
export function stringifyKeepingNumbers(value: unknown): string {
  const write = (item: unknown, depth: number): string => {
    if (typeof item !== 'object' || item === null || depth >= KEPT_DEPTH) return JSON.stringify(item) ?? 'null';
    const list = Array.isArray(item);
    const entries = Object.entries(item).map(([key, each]) => {
      const text = typeof each === 'number' ? numberTextAt(item, key, each).digits : write(each, depth + 1);
      return list ? text : `${JSON.stringify(key)}:${text}`;
    });
    return list ? `[${entries.join(',')}]` : `{${entries.join(',')}}`;
  };
  return write(value, 0);
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
