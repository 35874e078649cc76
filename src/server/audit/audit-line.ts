/**
 * How an audit entry becomes one line of text. Kept apart from the writer and from the hash chain,
 * which only needs a JSON object on one line.
 */

/** Longest id kept in a line, in characters (code points): as long as a valid id can be. */
export const MAX_LOGGED_ID = 256;

/**
 * Longest environment name kept in a line: as long as a configured name can be (config-fields.ts). A
 * request for an environment that does not exist is audited with the name it asked for, the user's text.
 */
export const MAX_LOGGED_ENV = 32;

/**
 * The entry as one line of printable ASCII: every character outside U+0020–U+007E is written as
 * `\uXXXX` (a character beyond U+FFFF as its two surrogates). U+2028, U+2029 and U+0085 end lines in
 * common readers, and raw control or bidirectional characters mislead whoever reads the file; escaped,
 * the line parses back to the same value.
 */
export function auditLineBody(entry: object): string {
  const cut = { ...entry };
  if ('id' in cut && typeof cut.id === 'string') cut.id = cutText(cut.id, MAX_LOGGED_ID);
  if ('env' in cut && typeof cut.env === 'string') cut.env = cutText(cut.env, MAX_LOGGED_ENV);
  return escapeToAscii(JSON.stringify(cut));
}

export function escapeToAscii(json: string): string {
  // JSON's own syntax is ASCII, so anything else stands inside a string, where \uXXXX means the same.
  return json.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The first `max` characters, then `…`: never a surrogate pair cut in half. */
export function cutText(text: string, max: number): string {
  let points = 0;
  let end = 0;
  for (const point of text) {
    if (points === max) return `${text.slice(0, end)}…`;
    points += 1;
    end += point.length;
  }
  return text;
}
