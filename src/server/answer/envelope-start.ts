/**
 * The answer guard's first check (answer-guard.ts): whether a body's first bytes open a candidate
 * envelope, the service's error envelope, or neither. Only the opening bytes are read, never the rest.
 */

/** The longest start of a body read to decide that it opens an envelope (whitespace included). */
export const MAX_ENVELOPE_PREFIX = 256;

/** The name of the envelope's record member. */
const DATA_NAME = ['"data"', ':'];
/** How a record's envelope opens without a status first: `{"data":{`. */
const DATA_OPENING = [...DATA_NAME, '{'];
/** How the envelope's status member opens; its value is read by statusSaid. */
const STATUS_NAME = ['"status"', ':'];

/**
 * The status member's value: a JSON string of at most 7 characters ("success" is the longest read), any
 * of them an escape. JSON reads `"\u0065rror"` as "error": read otherwise here, the same answer was a
 * refused record at full level and the service's error at status level (envelope-members.ts).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string holds no raw control character
const STATUS_TEXT = /^"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}){0,7}"/;
/** A start of such a string, cut before its end (inside an escape too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
const STATUS_TEXT_START = /^"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4}){0,7}(?:\\(?:u[0-9a-fA-F]{0,3})?)?$/;

const WS = '[ \\t\\r\\n]*';
/**
 * A member the service may put before `status` or `data` (`"code":200,`): a plain name other than those
 * two, and a short scalar (a string without escapes, a number, true, false or null). Anything else
 * before them (an object, an escape that could spell `status`) is not read as an envelope.
 */
const SKIPPED_MEMBER = new RegExp(
  `^${WS}"(?!(?:status|data)")[A-Za-z0-9_$-]{1,64}"${WS}:${WS}` +
    `(?:"[^"\\\\\\x00-\\x1f]{0,128}"|-?(?:0|[1-9][0-9]{0,21})(?:\\.[0-9]{1,24})?(?:[eE][+-]?[0-9]{1,3})?|true|false|null)${WS},`,
);
/** What completes any start of a skipped member (inside its name, before or after the colon, inside its value, after it). */
const COMPLETIONS = ['":0,', ':0,', '0,', '1,', '",', ',', 'rue,', 'ue,', 'e,', 'alse,', 'lse,', 'se,', 'ull,', 'll,', 'l,'];
/** How many members may stand before `status` or `data`. */
const MAX_SKIPPED_MEMBERS = 4;

export type Opening = 'yes' | 'no' | 'more' | 'error';

/**
 * Whether `rest` (after the envelope's `{` and any members skipped) opens with a status of "success" or
 * `"data":{` (yes), or with a status of "error" (error), the status as JSON decodes it.
 */
function openingAt(text: string, bounded: boolean): Opening {
  const status = statusSaid(text);
  if (typeof status === 'object') return status.said === 'error' ? 'error' : dataAfterSuccess(status.rest, bounded);
  const data = after(text, DATA_OPENING);
  if (typeof data === 'object') return 'yes';
  return status === 'more' || data === 'more' ? 'more' : 'no';
}

/**
 * After `"status":"success"`: a `data` that follows at once must open an object. A text there
 * (`"data":"U2FsdGVkX1…"`) is a record the service encrypted, or not one: refused from its first bytes
 * as not a readable record (which names encryption), where the page was sent it and said "unexpected shape".
 */
function dataAfterSuccess(rest: string, bounded: boolean): Opening {
  const name = after(rest, [',', ...DATA_NAME]);
  // Cut by the bound of what is read: the status said success, as before this check.
  if (name === 'more') return bounded ? 'yes' : 'more';
  if (name === 'no') return 'yes';
  const value = name.rest.replace(/^[ \t\r\n]+/, '');
  if (value === '') return bounded ? 'yes' : 'more';
  return value.startsWith('{') ? 'yes' : 'no';
}

/** What `"status":<string>` at the start of `text` says, decoded, and the text after it; `more` while its string is not whole. */
function statusSaid(text: string): { said: 'success' | 'error'; rest: string } | 'more' | 'no' {
  const name = after(text, STATUS_NAME);
  if (typeof name !== 'object') return name;
  const value = name.rest.replace(/^[ \t\r\n]+/, '');
  const whole = STATUS_TEXT.exec(value);
  if (!whole) return value === '' || STATUS_TEXT_START.test(value) ? 'more' : 'no';
  // Only this one short string is decoded: at most 7 characters, whatever escapes spell them.
  const said = JSON.parse(whole[0]) as string;
  return said === 'success' || said === 'error' ? { said, rest: value.slice(whole[0].length) } : 'no';
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
 * `error` when they open the service's error envelope instead, `{"status":"error"`. The status is read
 * as JSON reads it, escapes decoded.
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
    const member = skipped < MAX_SKIPPED_MEMBERS ? SKIPPED_MEMBER.exec(rest) : null;
    if (!member) return skipped < MAX_SKIPPED_MEMBERS && COMPLETIONS.some((end) => SKIPPED_MEMBER.test(rest + end)) ? 'more' : 'no';
    rest = rest.slice(member[0].length);
  }
}
