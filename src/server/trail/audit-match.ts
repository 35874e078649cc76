import {
  type AuditAction,
  type AuditFilter,
  type AuditFilterAction,
  type AuditRow,
  isServerWork,
  SERVER_USERS,
} from '../../kyc/contract/audit-search.ts';
import { cutText, escapeToAscii, MAX_LOGGED_ENV, MAX_LOGGED_ID } from '../audit/audit-line.ts';
import { shownKey } from './audit-row.ts';
import { foldCase } from '../state/fold-case.ts';

export { foldCase };

/**
 * A search's filter as both readers apply it: the files (audit-file-search.ts) and the table
 * (audit-db-search.ts) must find exactly the same lines, and a property test holds them to it.
 */
export interface SearchFilter extends AuditFilter {
  /** Any of these actions (a candidate's Activity); `action` narrows further. */
  actions?: readonly AuditAction[];
  /** The lead reading: their own searches and exports of the trail are left out (readerFilter). */
  exceptReadsBy?: string;
}

/** The audit page's own lines: a search or an export of the trail. */
export const TRAIL_READS: readonly AuditAction[] = ['audit_search', 'audit_export'];

/**
 * The audit page's filter as `reader` reads the trail. Each search writes its line after it has read, and
 * each export before, so the reader's own reads made the CSV longer than the table just shown for the same
 * filters (the search's line and the export's): they are left out of both, unless the Action filter asks
 * for them. Another lead's reads stay in: a lead auditing leads finds them in every search.
 */
export function readerFilter(filter: SearchFilter, reader: string): SearchFilter {
  const asksForReads = filter.action !== undefined && (TRAIL_READS as readonly string[]).includes(filter.action);
  return asksForReads ? filter : { ...filter, exceptReadsBy: reader };
}

/** The filter as the lines are written: an id cut at 256 characters, an environment at 32, as a line cuts theirs (audit-line.ts). */
export function asLogged(filter: SearchFilter): SearchFilter {
  return {
    ...filter,
    ...(filter.refId !== undefined ? { refId: cutText(filter.refId, MAX_LOGGED_ID) } : {}),
    ...(filter.recordId !== undefined ? { recordId: cutText(filter.recordId, MAX_LOGGED_ID) } : {}),
    ...(filter.env !== undefined ? { env: cutText(filter.env, MAX_LOGGED_ENV) } : {}),
  };
}

/** This server's own names (SERVER_USERS), as the table's condition lists them. */
export const SERVER_USER_LIST: readonly string[] = Object.values(SERVER_USERS);

/**
 * Whether a row passes the filter (given asLogged); `shown`, the candidates its line names beyond its own id
 * (audit-row.ts's readLine): a queue view's, or the one whose record came back to a refused lookup.
 */
export function matches(row: AuditRow, filter: SearchFilter, shown: readonly string[] = []): boolean {
  if (filter.user !== undefined && (row.user === null || foldCase(row.user) !== foldCase(filter.user))) return false;
  if (filter.who !== undefined && isServerWork(row.user) !== (filter.who === 'server')) return false;
  if (filter.action !== undefined && !isAction(row, filter.action)) return false;
  if (filter.actions !== undefined && !filter.actions.includes(row.action)) return false;
  if (filter.exceptReadsBy !== undefined && isReadBy(row, filter.exceptReadsBy)) return false;
  if (filter.level !== undefined && row.level !== filter.level) return false;
  if (filter.env !== undefined && row.env !== filter.env) return false;
  if (filter.refId !== undefined || filter.recordId !== undefined) {
    const names = (kind: 'refId' | 'recordId', id: string | undefined) =>
      id !== undefined && ((row.kind === kind && row.id === id) || shown.includes(shownKey(kind, id)));
    const byRef = names('refId', filter.refId);
    const byRecord = names('recordId', filter.recordId);
    if (!byRef && !byRecord) return false;
  }
  const time = Date.parse(row.time);
  if (filter.from !== undefined && time < Date.parse(filter.from)) return false;
  if (filter.to !== undefined && time >= Date.parse(filter.to)) return false;
  return true;
}

/** Whether the row is a search or export of the trail by `reader` (capitals folded, as the user filter folds them). */
function isReadBy(row: AuditRow, reader: string): boolean {
  return TRAIL_READS.includes(row.action) && row.user !== null && foldCase(row.user) === foldCase(reader);
}

/**
 * Whether the row is what the Action filter asks for: a queue view is "Saw in the queue" when it names its
 * candidates (its row has their tab, audit-row.ts), else "Listed applicants", as the page labels it.
 */
function isAction(row: AuditRow, action: AuditFilterAction): boolean {
  if (action === 'saw_in_queue') return row.action === 'list' && row.queueTab !== undefined;
  if (action === 'list') return row.action === 'list' && row.queueTab === undefined;
  return row.action === action;
}

/**
 * The user's field as a matching line writes it, capitals folded (`"user":"ana"`): for `includesFolded`.
 * A name's user is compared as foldCase folds it (fold-case.ts), `Ana.Smith@Example.org` finding the lines
 * of `ana.smith@example.org` as a provider may spell either. The line's bytes fold A to Z only, and write
 * any other letter as an escape (`\u00c9`) whose capital and small letter differ: the needle stops before
 * the first letter outside ASCII, keeping only what every matching line holds as it is (no capital outside
 * ASCII folds into it: fold-case.ts).
 */
export function userNeedle(filter: SearchFilter): Buffer | undefined {
  if (filter.user === undefined) return undefined;
  const folded = foldCase(filter.user);
  const unseen = [...folded].findIndex((char) => char > '\x7f');
  const json = escapeToAscii(JSON.stringify(unseen === -1 ? folded : [...folded].slice(0, unseen).join('')));
  return Buffer.from(`${USER_KEY}${unseen === -1 ? json : json.slice(0, -1)}`, 'latin1');
}

const USER_KEY = '"user":';
const USER_KEY_BYTES = Buffer.from(USER_KEY, 'latin1');

/**
 * Whether `line` holds `needle` (from userNeedle) with its capitals A to Z read as small letters: each
 * `"user":` found natively, the rest of the needle compared a byte at a time (a name is short). Only ever
 * a necessary condition, like neededText.
 */
export function includesFolded(line: Buffer, needle: Buffer): boolean {
  for (let at = line.indexOf(USER_KEY_BYTES); at !== -1; at = line.indexOf(USER_KEY_BYTES, at + 1)) {
    if (at + needle.length > line.length) return false;
    let i = USER_KEY_BYTES.length;
    while (i < needle.length) {
      const byte = line[at + i]!;
      if ((byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte) !== needle[i]) break;
      i++;
    }
    if (i === needle.length) return true;
  }
  return false;
}

/**
 * Text every matching line must contain, as the log writes it (JSON, escaped to ASCII: audit-line.ts):
 * a line without it is passed over without being parsed, which makes a search of the files several
 * times faster. Only ever a necessary condition: the parsed row decides.
 */
export function neededText(filter: SearchFilter): string[] {
  const json = (value: string) => escapeToAscii(JSON.stringify(value));
  const needed: string[] = [];
  if (filter.env !== undefined) needed.push(`"env":${json(filter.env)}`);
  // Either id may match: only when one is given is it needed.
  if ((filter.refId === undefined) !== (filter.recordId === undefined)) needed.push(json((filter.refId ?? filter.recordId)!));
  if (filter.level !== undefined) needed.push(`"level":${json(filter.level)}`);
  return needed;
}
