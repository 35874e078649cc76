import { parseDashboardLink } from './dashboard-link.ts';
/**
 * What people paste into the search box: ids copied from tickets, spreadsheets, chat and e-mails carry
 * invisible characters that make a valid-looking id unknown to the service. These helpers clean a
 * pasted id, say what was removed, and recognise a list of ids.
 */

/** Invisible characters, by what a person would call them. Order is the order of the message. */
const INVISIBLE: Array<{ label: string; pattern: RegExp }> = [
  { label: 'zero-width space', pattern: /\u200b|\u200c|\u200d|\u2060|\u180e/g },
  { label: 'no-break space', pattern: /[\u00a0\u202f\u2007]/g },
  { label: 'byte order mark', pattern: /\ufeff/g },
  { label: 'bidirectional mark', pattern: /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g },
  { label: 'soft hyphen', pattern: /\u00ad/g },
];

export interface Removed {
  label: string;
  count: number;
}

export interface CleanedId {
  id: string;
  removed: Removed[];
}

/** Removes invisible characters anywhere and whitespace at both ends; counts what went. */
export function cleanId(raw: string): CleanedId {
  const removed: Removed[] = [];
  let id = raw;
  for (const { label, pattern } of INVISIBLE) {
    const count = id.match(pattern)?.length ?? 0;
    if (count > 0) {
      removed.push({ label, count });
      id = id.replace(pattern, '');
    }
  }
  const trimmed = id.trim();
  const outer = [...id].length - [...trimmed].length;
  if (outer > 0) removed.push({ label: outer === 1 ? 'space at the start or end' : 'spaces at the start or end', count: outer });
  return { id: trimmed, removed };
}

/** Quotes an id is often typed or copied inside: straight, curly, angle and back quotes, as pairs. */
const QUOTES: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ['`', '`'],
  ['\u201c', '\u201d'],
  ['\u201e', '\u201c'],
  ['\u2018', '\u2019'],
  ['\u00ab', '\u00bb'],
  ['\u2039', '\u203a'],
];

/**
 * What the search box drops around a typed id: a leading `/` (the search shortcut typed into the box
 * that already had focus) and the quotes around it; `dropped` says which, for the page to say so.
 */
export function unwrapId(id: string): { id: string; dropped: string | undefined } {
  let rest = id;
  const dropped: string[] = [];
  if (rest.startsWith('/') && rest.length > 1 && !rest.startsWith('//')) {
    rest = rest.slice(1).trim();
    dropped.push('the leading "/"');
  }
  const unquoted = unquote(rest);
  if (unquoted !== rest) {
    rest = unquoted;
    dropped.push('the quotes around it');
  }
  return { id: rest, dropped: dropped.length > 0 ? dropped.join(' and ') : undefined };
}

/** The id without the pair of quotes around it (QUOTES), or as it is. */
function unquote(id: string): string {
  const pair = QUOTES.find(([open, close]) => id.length > 2 && id.startsWith(open) && id.endsWith(close));
  return pair ? id.slice(pair[0].length, -pair[1].length).trim() : id;
}

/** "1 zero-width space and 2 spaces at the start or end", or undefined when nothing was removed. */
export function describeRemoved(removed: Removed[]): string | undefined {
  if (removed.length === 0) return undefined;
  const parts = removed.map(({ label, count }) => {
    if (label.startsWith('space')) return `${count} ${label}`;
    return `${count} ${label}${count === 1 ? '' : 's'}`;
  });
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** One pasted entry: its line (or, in a single line split at separators, its place), its id, and the line it repeats. */
export interface IdEntry {
  line: number;
  id: string;
  /** The line where the same id came first: a repeat is looked up once, and its row says so. */
  repeatOf?: number;
}

export interface IdList {
  /** Each id once, in the order it first came. */
  ids: string[];
  /** Every entry as pasted, repeats included, numbered as the pasted lines are. */
  entries: IdEntry[];
  /** Ids that appeared more than once (kept once, at their first place). */
  duplicates: number;
  /** Links of the service's dashboard, each read as the recordId it opens (dashboard-link.ts). */
  links: number;
  /** Links of a candidate page of this app (`…/candidates/refId/<id>`), each read as its id (`readAppLink`). */
  appLinks: number;
  /** Entries that came in quotes (a CSV row's `"crm-55102"`), dropped as the search box drops them. */
  unquoted: number;
  removed: Removed[];
  /** How the text was split: one id per line, or (a single line) at commas, semicolons, tabs and spaces. */
  rule: 'lines' | 'separators';
}

const LINE_BREAK = /\r\n|\r|\n/;
// Invisible spaces too, so that a no-break space between two ids still separates them.
const SEPARATORS = /[\s,;\u00a0\u202f\u2007]+/;

/**
 * A pasted list. Text with line breaks (a spreadsheet column, a ticket's list) is one id per line, and
 * spaces inside a line belong to its id; only a single line (a CSV row, ids in a sentence) is split at
 * commas, semicolons, tabs and spaces. Each id is cleaned; empty entries are dropped, and a repeat is
 * looked up once but kept among the entries, numbered, with the line it repeats.
 */
export function splitIdList(text: string, readAppLink?: (text: string) => string | undefined): IdList {
  const rule = LINE_BREAK.test(text) ? 'lines' : 'separators';
  const totals = new Map<string, number>();
  const seen = new Map<string, number>();
  const ids: string[] = [];
  const entries: IdEntry[] = [];
  let duplicates = 0;
  let links = 0;
  let appLinks = 0;
  let unquoted = 0;
  // Lines are counted as pasted, blank ones included, so that row 7 is the 7th line of the spreadsheet's column.
  const parts = text.split(rule === 'lines' ? LINE_BREAK : SEPARATORS);
  for (const [index, part] of parts.entries()) {
    const cleaned = cleanId(part);
    for (const { label, count } of cleaned.removed) totals.set(label, (totals.get(label) ?? 0) + count);
    const bare = unquote(cleaned.id);
    if (bare !== cleaned.id) unquoted += 1;
    // A dashboard link is the recordId it opens, as in the search box (a refId batch finds it by recordId).
    const link = parseDashboardLink(bare);
    if (link?.ok) links += 1;
    // A link to a candidate page of this app (copied from the address bar, or another batch's row) is its id.
    const appLinkId = link?.ok ? undefined : readAppLink?.(bare);
    if (appLinkId) appLinks += 1;
    const id = link?.ok ? link.recordId : (appLinkId ?? bare);
    if (id === '') continue;
    // A single line's places are counted among its non-empty entries ("a,,b" is two entries).
    const line = rule === 'lines' ? index + 1 : entries.length + 1;
    const first = seen.get(id);
    if (first !== undefined) {
      duplicates += 1;
      entries.push({ line, id, repeatOf: first });
      continue;
    }
    seen.set(id, line);
    ids.push(id);
    entries.push({ line, id });
  }
  const removed = [...totals].map(([label, count]) => ({ label, count })).filter((r) => !r.label.startsWith('space'));
  return { ids, entries, duplicates, links, appLinks, unquoted, removed, rule };
}

/** The entries back as text, one a line, each on its own line's number (blank lines between), so that a batch numbers them as they were pasted. */
export function entriesText(entries: readonly IdEntry[]): string {
  const lines: string[] = [];
  for (const { line, id } of entries) lines[line - 1] = id;
  return Array.from(lines, (id) => id ?? '').join('\n');
}
