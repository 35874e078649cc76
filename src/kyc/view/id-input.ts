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

/** "1 zero-width space and 2 spaces at the start or end", or undefined when nothing was removed. */
export function describeRemoved(removed: Removed[]): string | undefined {
  if (removed.length === 0) return undefined;
  const parts = removed.map(({ label, count }) => {
    if (label.startsWith('space')) return `${count} ${label}`;
    return `${count} ${label}${count === 1 ? '' : 's'}`;
  });
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export interface IdList {
  ids: string[];
  /** Ids that appeared more than once (kept once, at their first place). */
  duplicates: number;
  /** Links of the service's dashboard, each read as the recordId it opens (dashboard-link.ts). */
  links: number;
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
 * commas, semicolons, tabs and spaces. Each id is cleaned; empty entries and repeats are dropped.
 */
export function splitIdList(text: string): IdList {
  const rule = LINE_BREAK.test(text) ? 'lines' : 'separators';
  const totals = new Map<string, number>();
  const seen = new Set<string>();
  const ids: string[] = [];
  let duplicates = 0;
  let links = 0;
  for (const part of text.split(rule === 'lines' ? LINE_BREAK : SEPARATORS)) {
    const cleaned = cleanId(part);
    for (const { label, count } of cleaned.removed) totals.set(label, (totals.get(label) ?? 0) + count);
    // A dashboard link is the recordId it opens, as in the search box (a refId batch finds it by recordId).
    const link = parseDashboardLink(cleaned.id);
    if (link?.ok) links += 1;
    const id = link?.ok ? link.recordId : cleaned.id;
    if (id === '') continue;
    if (seen.has(id)) {
      duplicates += 1;
      continue;
    }
    seen.add(id);
    ids.push(id);
  }
  const removed = [...totals].map(([label, count]) => ({ label, count })).filter((r) => !r.label.startsWith('space'));
  return { ids, duplicates, links, removed, rule };
}

/** Whether pasted text is a list of ids rather than one id: two or more entries. */
export function isIdList(text: string): boolean {
  return splitIdList(text).ids.length >= 2;
}
