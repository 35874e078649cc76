import { BIDI_CONTROLS } from '../contract/bidi.ts';
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
const isAroundTheId = (removed: Removed) => removed.label.endsWith(AT_THE_ENDS);

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

/**
 * An id as a sentence gives it (`support-ticket-4410,`, `#user-7781`, `(cust_1)`, `“cust_1”`): brackets,
 * quotes (curly ones too, as mail writes them) or `#` before it; a bracket, quote or the sentence's
 * punctuation after it, but a closing bracket the id itself opened stays (`acme(1)`), as in a link
 * (bare-link.ts). One rule for the paste's sentences (paste.ts) and the not-found screen's offer (id-marks.ts).
 */
export function splitMarks(text: string): { lead: string; bare: string; tail: string } {
  const lead = /^[("'#<[{\u201c\u201e\u2018\u00ab\u2039]+/.exec(text)?.[0] ?? '';
  let tail = /[)"'>\].,;:!?}\u201d\u2019\u00bb\u203a]+$/.exec(text.slice(lead.length))?.[0] ?? '';
  let bare = text.slice(lead.length, text.length - tail.length);
  while (tail !== '' && opened(bare, tail[0]!)) {
    bare += tail[0];
    tail = tail.slice(1);
  }
  return { lead, bare, tail };
}

/** Whether `text` opened the bracket that `close` would close. */
function opened(text: string, close: string): boolean {
  const open = { ')': '(', ']': '[', '}': '{' }[close];
  return open !== undefined && text.split(open).length > text.split(close).length;
}

/** The id without the pair of quotes around it (QUOTES), or as it is. */
function unquote(id: string): string {
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
function listed(parts: string[]): string {
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
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
  /** Lines of several tab-separated cells (rows copied from a spreadsheet), each read as its first cell. */
  firstCells: number;
  /** A first line that is a column's heading (`refId`, `Record ID`…), left out: it is no id. */
  heading?: string;
  /** The heading's line, as pasted. */
  headingLine?: number;
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
export function splitIdList(text: string, readAppLink?: (text: string) => string | undefined, keepHeading = false): IdList {
  const rule = LINE_BREAK.test(text) ? 'lines' : 'separators';
  const totals = new Map<string, number>();
  const seen = new Map<string, number>();
  const ids: string[] = [];
  const entries: IdEntry[] = [];
  let duplicates = 0;
  let links = 0;
  let appLinks = 0;
  let unquoted = 0;
  let firstCells = 0;
  let heading: string | undefined;
  let headingLine = 0;
  // Lines are counted as pasted, blank ones included, so that row 7 is the 7th line of the spreadsheet's column.
  const parts = text.split(rule === 'lines' ? LINE_BREAK : SEPARATORS);
  for (const [index, whole] of parts.entries()) {
    // Rows copied from a spreadsheet: a tab between cells, the id in the first (no id holds a tab).
    const cells = rule === 'lines' ? whole.split('\t') : [whole];
    const part = cells.length > 1 && cells[0]!.trim() !== '' ? cells[0]! : whole;
    if (part !== whole) firstCells += 1;
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
    // A column copied with its heading: the first line names the column, it is no id.
    if (!keepHeading && rule === 'lines' && entries.length === 0 && heading === undefined && COLUMN_HEADING.test(id)) {
      heading = id;
      headingLine = index + 1;
      continue;
    }
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
  if (!keepHeading && rule === 'lines' && heading === undefined && isWordsHeading(entries)) {
    const first = entries.shift()!;
    ids.shift();
    heading = first.id;
    headingLine = first.line;
  }
  const removed = [...totals].map(([label, count]) => ({ label, count })).filter((r) => !isAroundTheId(r));
  const named = heading === undefined ? {} : { heading, headingLine };
  return { ids, entries, duplicates, links, appLinks, unquoted, firstCells, removed, rule, ...named };
}

/**
 * A name on a line of its own (`Maria de Souza`, `Ludwig van Beethoven`): two to four words, capitalised
 * (or of a script without case), short particles between. A refId may be one: in a column of two or more
 * ids it is an id, not a sentence whose words are left out with it (as they were, unsaid). Above one id,
 * or beside plain words (`Thanks`), it is a ticket's subject, as before (paste.ts). Not found, a batch row
 * says it reads like a name (batch-table.tsx).
 */
export const NAME_LINE = /^[\p{Lu}\p{Lo}][\p{L}'’.-]*(?: (?:[\p{Lu}\p{Lo}][\p{L}'’.-]*|\p{Ll}{1,3})){0,2} [\p{Lu}\p{Lo}][\p{L}'’.-]*$/u;

/**
 * One id after a label, as a customer's mail or a ticket gives it ("Reference ID: cust_000482",
 * "refId: cust_000482"): the id, not a list of the label's words and the id. A label is a few words
 * without digits before a colon; the id, one run of characters after it.
 */
export const LABELLED = /^([A-Za-z][A-Za-z ._-]{0,30}):\s+(\S+)$/;

/**
 * " (3 given)" after "2 ids" when the list repeats an id, else nothing: one count for the search box's
 * offer and the batch page's line, so that the offer's numbers are the page's.
 */
export function givenNote({ ids, duplicates }: Pick<IdList, 'ids' | 'duplicates'>): string {
  return duplicates > 0 ? ` (${ids.length + duplicates} given)` : '';
}

/**
 * A column's heading as spreadsheets name an id column: refId, ref id, Record ID, recordId, id,
 * reference, Customer ref, Customer ID, Candidate ref id…
 */
const COLUMN_HEADING = /^((customer|candidate|client)[ _-]?)?(ref(erence)?[ _-]?(id)?|record[ _-]?id|id)s?$/i;

/** Words with a space between, no digit: how a column is named ("Customer ref", "Ticket reference (CRM)"). */
const WORDS = /^\p{L}[\p{L}.#()/_-]*(?: [\p{L}.#()/_-]+)+$/u;

/**
 * A first line of words, one of them a name of an id column (COLUMN_HEADING: `Customer ref`, `Ticket
 * reference (CRM)`, `Candidate refId`), over two or more ids that hold no space: a column's heading. A
 * refId may hold spaces (checkId refuses only control characters), and a name used as one (`Wang Xiuying`)
 * has the form of a heading: words alone, over ids without spaces, left that refId out of the batch. Words
 * over one id are as likely two ids. The batch page says which line it left out and can look it up all the same.
 */
function isWordsHeading(entries: readonly IdEntry[]): boolean {
  const [first, ...rest] = entries;
  return (
    first !== undefined &&
    rest.length > 1 &&
    WORDS.test(first.id) &&
    first.id.split(/[ .#()/]/).some((word) => COLUMN_HEADING.test(word)) &&
    rest.every(({ id }) => !/\s/.test(id))
  );
}
