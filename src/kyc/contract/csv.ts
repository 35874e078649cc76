import { BIDI_REORDERING } from './bidi.ts';

/**
 * CSV cells, for the browser's batch export and the server's audit export alike: one rule against
 * formula injection for both.
 */

/** Control characters (but tab and line breaks, which a cell may hold) and the direction overrides: none is written to a cell as it is. */
const UNSEEN = new RegExp(`[\\p{Cc}${BIDI_REORDERING}]`, 'gu');

/** A control character as its picture (NUL as ␀, ESC as ␛, DEL as ␡); a direction override as its code point. */
const shown = (char: string) => {
  const code = char.charCodeAt(0);
  if (char === '\t' || char === '\r' || char === '\n') return char;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return code < 0xa0 ? `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>` : `<U+${code.toString(16).toUpperCase()}>`;
};

/**
 * A spreadsheet opens a cell that starts with = + - @ or a tab as a formula (CSV injection): such
 * cells get a leading apostrophe, which spreadsheets show as text. A control character (a NUL ends the
 * cell for some readers) or a direction override (RLO turns the rest of the row around) is written as
 * what it is, never as itself: an id that holds one is seen to.
 */
export function spreadsheetSafe(value: string): string {
  const seen = value.replace(UNSEEN, shown);
  return /^[=+\-@\t\r]/.test(seen) ? `'${seen}` : seen;
}

/** One RFC 4180 cell: made spreadsheet-safe, then quoted when it holds a quote, a comma or a line break. */
export function csvCell(value: string): string {
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line, with the CRLF line end RFC 4180 asks for. */
export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** A byte order mark first, so that spreadsheets read the file as UTF-8. */
export const CSV_BOM = '\ufeff';
