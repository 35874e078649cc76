import { parseDashboardLink } from './dashboard-link.ts';
import { cleanId, isAroundTheId, type Removed, unquote } from './id-input.ts';
import { marksInWords, splitMarks } from './sentence-marks.ts';

/**
 * A pasted list of ids (the batch page's box, a list pasted into the search box), read line by line with
 * the rules one id is cleaned by (id-input.ts). Its own module: only the batch page and the paste reader
 * need it, both loaded after the first page, while id-input.ts is part of the first load.
 */

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
  /** Entries in a sentence's marks (`support-ticket-4410,`, `"cust_1",`, `#user-7781`), dropped by splitMarks. */
  unmarked: number;
  /** Lines of several tab-separated cells (rows copied from a spreadsheet), each read as its first cell. */
  firstCells: number;
  /** A first line that is a column's heading (`refId`, `Record ID`…), left out: it is no id. */
  heading?: string;
  /** The heading's line, as pasted. */
  headingLine?: number;
  removed: Removed[];
  /** How the text was split: one id per line, or (a single line) at its commas and semicolons, else at tabs and spaces. */
  rule: 'lines' | 'commas' | 'separators';
}

const LINE_BREAK = /\r\n|\r|\n/;
// Invisible spaces too, so that a no-break space between two ids still separates them.
const SEPARATORS = /[\s,;\u00a0\u202f\u2007]+/;
/** A single line with commas or semicolons (a CSV row) is split at those alone: "user-7781, Mehmet Yılmaz, cust_1" holds a name. */
const LIST_MARKS = /[,;]/;

/**
 * A pasted list. Text with line breaks (a spreadsheet column, a ticket's list) is one id per line, and
 * spaces inside a line belong to its id; only a single line (a CSV row, ids in a sentence) is split: at
 * its commas and semicolons where it has them (spaces then belong to an entry, as a name's do), else at
 * tabs and spaces. Each id is cleaned; empty entries are dropped, and a repeat is
 * looked up once but kept among the entries, numbered, with the line it repeats.
 */
export function splitIdList(text: string, readAppLink?: (text: string) => string | undefined, keepHeading = false): IdList {
  const rule = LINE_BREAK.test(text) ? 'lines' : LIST_MARKS.test(text) ? 'commas' : 'separators';
  const totals = new Map<string, number>();
  const seen = new Map<string, number>();
  const ids: string[] = [];
  const entries: IdEntry[] = [];
  let duplicates = 0;
  let links = 0;
  let appLinks = 0;
  let unquoted = 0;
  let unmarked = 0;
  let firstCells = 0;
  let heading: string | undefined;
  let headingLine = 0;
  // Lines are counted as pasted, blank ones included, so that row 7 is the 7th line of the spreadsheet's column.
  const parts = text.split(rule === 'lines' ? LINE_BREAK : rule === 'commas' ? LIST_MARKS : SEPARATORS);
  for (const [index, whole] of parts.entries()) {
    const entry = readEntry(whole, rule === 'lines', readAppLink);
    for (const { label, count } of entry.removed) totals.set(label, (totals.get(label) ?? 0) + count);
    if (entry.firstCell) firstCells += 1;
    if (entry.unquoted) unquoted += 1;
    if (entry.link) links += 1;
    if (entry.appLink) appLinks += 1;
    if (entry.marks) unmarked += 1;
    const { id } = entry;
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
  return { ids, entries, duplicates, links, appLinks, unquoted, unmarked, firstCells, removed, rule, ...named };
}

/** One entry as a list reads it, and what was taken off it to read it so. */
export interface EntryRead {
  id: string;
  /** Invisible characters and outer whitespace (cleanId). */
  removed: Removed[];
  /** A row of tab-separated cells, read as its first. */
  firstCell: boolean;
  unquoted: boolean;
  /** A link of the service's dashboard, read as the recordId it opens. */
  link: boolean;
  /** A link of a candidate page of this app, read as its id. */
  appLink: boolean;
  /** A sentence's marks dropped from around it, in words: "the full stop after it" (marksInWords). */
  marks: string | undefined;
}

/**
 * One line of a list (or one entry of a single line split: `cells` false) as the batch reads it: its first
 * cell, cleaned of invisible characters and outer whitespace, unquoted, a link read as its id, and a
 * sentence's marks dropped from around a run without spaces. The search box reads the one id it looks up
 * by it too (readOneId, id-label.ts).
 */
export function readEntry(whole: string, cells: boolean, readAppLink?: (text: string) => string | undefined): EntryRead {
  // Rows copied from a spreadsheet: a tab between cells, the id in the first (no id holds a tab).
  const split = cells ? whole.split('\t') : [whole];
  const part = split.length > 1 && split[0]!.trim() !== '' ? split[0]! : whole;
  const cleaned = cleanId(part);
  const bare = unquote(cleaned.id);
  // A dashboard link is the recordId it opens, as in the search box (a refId batch finds it by recordId).
  const link = parseDashboardLink(bare);
  // A link to a candidate page of this app (copied from the address bar, or another batch's row) is its id.
  const appLinkId = link?.ok ? undefined : readAppLink?.(bare);
  // A sentence's marks around a run of characters (a ticket's `support-ticket-4410,`), dropped as the
  // search box's paste drops them from each run of a sentence; a line with spaces (`Sean O'Brien Jr.`) is kept whole.
  const { lead, bare: unwrapped, tail } = splitMarks(bare);
  const marked = !link?.ok && !appLinkId && !/\s/.test(bare) && unwrapped !== '' && unwrapped !== bare;
  const marks = marked ? marksInWords(lead, tail) : undefined;
  return {
    id: link?.ok ? link.recordId : (appLinkId ?? (marked ? unwrapped : bare)),
    removed: cleaned.removed,
    firstCell: part !== whole,
    unquoted: bare !== cleaned.id,
    link: link?.ok === true,
    appLink: Boolean(appLinkId),
    marks,
  };
}

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
