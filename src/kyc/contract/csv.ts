/**
 * CSV cells, for the browser's batch export and the server's audit export alike: one rule against
 * formula injection for both.
 */

/**
 * A spreadsheet opens a cell that starts with = + - @ or a tab as a formula (CSV injection): such
 * cells get a leading apostrophe, which spreadsheets show as text.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
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
