import { isSuccessWord } from '../../kyc/contract/success-status.ts';

/**
 * The answer guard's first check (answer-guard.ts): whether a body's first bytes open a candidate
 * envelope, the service's error envelope, or neither. Only the opening bytes are read, never the rest.
 */

/** The longest start of a body read to decide that it opens an envelope (whitespace included). */
export const MAX_ENVELOPE_PREFIX = 256;

/** The envelope's members read here, by name as JSON decodes it. */
const STATUS = 'status';
const DATA = 'data';

/**
 * A JSON string of at most `max` characters, any of them an escape, whole (`whole`) or cut before its end,
 * inside an escape too (`start`).
 */
function shortString(max: number): { whole: RegExp; start: RegExp } {
  // A character as JSON writes one in a string: no quote, backslash or control character, or an escape.
  const character = '(?:[^"\\\\\\x00-\\x1f]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})';
  return {
    whole: new RegExp(`^"${character}{0,${max}}"`),
    start: new RegExp(`^"${character}{0,${max}}(?:\\\\(?:u[0-9a-fA-F]{0,3})?)?$`),
  };
}

/**
 * The status member's value: at most 7 characters ("success" is the longest read, in any case, or "ok": success-status.ts). JSON reads
 * `"\u0065rror"` as "error": read otherwise here, the same answer was a refused record at full level and
 * the service's error at status level (envelope-members.ts).
 */
const STATUS_TEXT = shortString(7);
/**
 * A member's name: at most 64 characters. Read as JSON decodes it, as the status level's JSON.parse does:
 * `"st\u0061tus"` is `status`. Compared as bytes, such a name made one answer a refused record at full
 * level and a record (or the service's error) at status level.
 */
const NAME_TEXT = shortString(64);
const WS = '[ \\t\\r\\n]*';
/** A member's name the service may put before `status` or `data` (`code`), as decoded. */
const SKIPPED_NAME = /^[A-Za-z0-9_$-]{1,64}$/;
/**
 * A skipped member's value: a short scalar (a string without escapes, a number, true, false or null), and
 * the comma after it. Anything else before `status` or `data` (an object) is not read as an envelope.
 */
const SKIPPED_VALUE = new RegExp(
  `^${WS}(?:"[^"\\\\\\x00-\\x1f]{0,128}"|-?(?:0|[1-9][0-9]{0,21})(?:\\.[0-9]{1,24})?(?:[eE][+-]?[0-9]{1,3})?|true|false|null)${WS},`,
);
/** What completes any start of a skipped member (before or after the colon, inside its value, after it). */
const COMPLETIONS = ['":0,', ':0,', '0,', '1,', '",', ',', 'rue,', 'ue,', 'e,', 'alse,', 'lse,', 'se,', 'ull,', 'll,', 'l,'];
/** How many members may stand before `status` or `data`. */
const MAX_SKIPPED_MEMBERS = 4;

/** `empty`: a success whose `data` is null, an answer that holds no record. */
export type Opening = 'yes' | 'no' | 'more' | 'error' | 'empty';

/**
 * Whether `rest` (after the envelope's `{` and any members skipped) opens with a status of "success" or
 * `"data":{` (yes), or with a status of "error" (error), the name and the status as JSON decodes them.
 */
function openingAt(text: string, bounded: boolean): Opening {
  const member = memberName(text);
  if (typeof member !== 'object') return member;
  if (member.name === DATA) {
    const data = after(member.rest, ['{']);
    return typeof data === 'object' ? 'yes' : data;
  }
  if (member.name !== STATUS) return 'no';
  const status = shortText(member.rest, STATUS_TEXT);
  if (typeof status !== 'object') return status;
  if (status.said === 'error') return 'error';
  return isSuccessWord(status.said) ? dataAfterSuccess(status.rest, bounded) : 'no';
}

/**
 * After `"status":"success"`: a `data` that follows at once must open an object. A text there
 * (`"data":"U2FsdGVkX1…"`) is a record the service encrypted, or not one: refused from its first bytes
 * as not a readable record (which names encryption), where the page was sent it and said "unexpected shape".
 */
function dataAfterSuccess(rest: string, bounded: boolean): Opening {
  const comma = after(rest, [',']);
  const name = typeof comma === 'object' ? memberName(comma.rest) : comma;
  // Cut by the bound of what is read: the status said success, as before this check.
  if (name === 'more') return bounded ? 'yes' : 'more';
  if (name === 'no' || name.name !== DATA) return 'yes';
  const value = name.rest.replace(/^[ \t\r\n]+/, '');
  if (value === '') return bounded ? 'yes' : 'more';
  if (/^null[ \t\r\n]*[,}]/.test(value)) return 'empty';
  if (!bounded && /^n(?:u(?:ll?)?)?[ \t\r\n]*$/.test(value)) return 'more';
  return value.startsWith('{') ? 'yes' : 'no';
}

/** The member's name at the start of `text`, decoded, and the text after its colon; `more` while either is not whole. */
function memberName(text: string): { name: string; rest: string } | 'more' | 'no' {
  const name = shortText(text, NAME_TEXT);
  if (typeof name !== 'object') return name;
  const colon = after(name.rest, [':']);
  return typeof colon === 'object' ? { name: name.said, rest: colon.rest } : colon;
}

/** The short string at the start of `text` (after whitespace), decoded, and the text after it; `more` while it is not whole. */
function shortText(text: string, form: { whole: RegExp; start: RegExp }): { said: string; rest: string } | 'more' | 'no' {
  const value = text.replace(/^[ \t\r\n]+/, '');
  const whole = form.whole.exec(value);
  if (!whole) return value === '' || form.start.test(value) ? 'more' : 'no';
  // Only this one short string is decoded, whatever escapes spell it.
  return { said: JSON.parse(whole[0]) as string, rest: value.slice(whole[0].length) };
}

/** The text after a member skipped before `status` or `data`; undefined when `text` opens no such member. */
function skippedMember(text: string): string | undefined {
  const member = memberName(text);
  if (typeof member !== 'object' || !SKIPPED_NAME.test(member.name) || member.name === STATUS || member.name === DATA) return undefined;
  const value = SKIPPED_VALUE.exec(member.rest);
  return value ? member.rest.slice(value[0].length) : undefined;
}

/** The text after `parts` (JSON whitespace before each), or whether more of it could still match. */
function after(text: string, parts: readonly string[]): { rest: string } | 'no' | 'more' {
  let rest = text;
  for (const part of parts) {
    rest = rest.replace(/^[ \t\r\n]+/, '');
    if (!rest.startsWith(part)) return part.startsWith(rest) ? 'more' : 'no';
    rest = rest.slice(part.length);
  }
  return { rest };
}

/**
 * Whether the body's first bytes open a candidate envelope: `{"status":"success"` or `{"data":{`, after at
 * most four short scalar members (`{"code":200,"status":"success"`: published answers are not uniform);
 * `error` when they open the service's error envelope instead, `{"status":"error"`. The members' names
 * and the status are read as JSON reads them, escapes decoded.
 */
export function envelopeStart(prefix: Buffer): Opening {
  const text = prefix
    .toString('latin1')
    .replace(/^\xef\xbb\xbf/, '')
    .replace(/^[ \t\r\n]+/, '');
  if (!text.startsWith('{')) return text === '' ? 'more' : 'no';
  let rest = text.slice(1);
  const bounded = prefix.length >= MAX_ENVELOPE_PREFIX;
  for (let skipped = 0; ; skipped++) {
    const verdict = openingAt(rest, bounded);
    if (verdict !== 'no') return verdict;
    const next = skipped < MAX_SKIPPED_MEMBERS ? skippedMember(rest) : undefined;
    if (next === undefined) {
      return skipped < MAX_SKIPPED_MEMBERS && COMPLETIONS.some((end) => skippedMember(rest + end) !== undefined) ? 'more' : 'no';
    }
    rest = next;
  }
}
