import { BIDI_CONTROLS } from '../contract/bidi.ts';
/**
 * What people paste into the search box: ids copied from tickets, spreadsheets, chat and e-mails carry
 * invisible characters that make a valid-looking id unknown to the service. These helpers clean a
 * pasted id and say what was removed; a list of ids is read by id-list.ts.
 */

/** Invisible characters, by what a person would call them. Order is the order of the message. */
const INVISIBLE: Array<{ label: string; pattern: RegExp }> = [
  { label: 'zero-width space', pattern: /\u200b|\u200c|\u200d|\u2060|\u180e/g },
  { label: 'no-break space', pattern: /[\u00a0\u202f\u2007]/g },
  { label: 'byte order mark', pattern: /\ufeff/g },
  { label: 'bidirectional mark', pattern: new RegExp(`[${BIDI_CONTROLS}]`, 'g') },
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
  removed.push(...outerWhitespace(id.slice(0, id.length - id.trimStart().length) + id.slice(id.trimEnd().length)));
  return { id: trimmed, removed };
}

/** Said after what was removed from around an id: "1 line break at the start or end". */
const AT_THE_ENDS = 'at the start or end';

/** The whitespace around an id by what a person calls it: line breaks (CRLF is one), tabs, spaces. */
function outerWhitespace(ends: string): Removed[] {
  const lineBreaks = ends.match(/\r\n|\r|\n/g)?.length ?? 0;
  const tabs = ends.match(/\t/g)?.length ?? 0;
  const spaces = [...ends.replace(/\r\n|\r|\n|\t/g, '')].length;
  const counted: Array<[string, number]> = [
    ['line break', lineBreaks],
    ['tab', tabs],
    ['space', spaces],
  ];
  return counted
    .filter(([, count]) => count > 0)
    .map(([noun, count]) => ({ label: `${noun}${count === 1 ? '' : 's'} ${AT_THE_ENDS}`, count }));
}

/** Whitespace around an entry of a list: what separates its lines, not worth a word. */
export const isAroundTheId = (removed: Removed) => removed.label.endsWith(AT_THE_ENDS);

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
export function unquote(id: string): string {
  const pair = QUOTES.find(([open, close]) => id.length > 2 && id.startsWith(open) && id.endsWith(close));
  return pair ? id.slice(pair[0].length, -pair[1].length).trim() : id;
}

/** "1 zero-width space and 1 tab and 2 spaces at the start or end", or undefined when nothing was removed. */
export function describeRemoved(removed: Removed[]): string | undefined {
  if (removed.length === 0) return undefined;
  const inside = removed.filter((r) => !isAroundTheId(r)).map(({ label, count }) => `${count} ${label}${count === 1 ? '' : 's'}`);
  const around = removed.filter(isAroundTheId).map(({ label, count }) => `${count} ${label.slice(0, -AT_THE_ENDS.length - 1)}`);
  const parts = [...inside, ...(around.length > 0 ? [`${listed(around)} ${AT_THE_ENDS}`] : [])];
  return listed(parts);
}

/** "a", "a and b", "a, b and c". */
export function listed(parts: string[]): string {
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * One id after a label, as a customer's mail or a ticket gives it ("Reference ID: cust_000482",
 * "refId: cust_000482"): the id, not a list of the label's words and the id. A label is a few words
 * without digits before a colon; the id, one run of characters after it.
 */
export const LABELLED = /^([A-Za-z][A-Za-z ._-]{0,30}):\s+(\S+)$/;
