import { LABELLED } from './id-input.ts';
import { type IdEntry, type IdList, readEntry } from './id-list.ts';
import { marksInWords } from './sentence-marks.ts';
import { ID_WORD } from './personal-data.ts';

/**
 * One id as a ticket or a mail names it, read the same way by the search box (paste.ts) and by each line
 * of a batch (batch-page.tsx): after a label, and with a `#` before it. Not part of the first load: it
 * comes with the paste reader and with the batch page.
 */

/** Words that each name an id column (ID_WORD: `RefID`, `Customer ref`, `Record ID`), as the box knows them. */
const namesIdColumn = (text: string) => text.split(/[ \t]+/).every((word) => ID_WORD.test(word));

/**
 * The label before one id and what follows it: a few words before a colon (`refId: cust_000482`,
 * LABELLED), or without a colon a label the box knows (`RefID #user-7781`, `Customer ref cust_1`:
 * namesIdColumn). A line of such words alone (`Record ID`) is no label, and no id follows it; nor are they
 * a label before a bare number (`Customer 42`), which may be the whole id (a refId is any string).
 */
export function splitLabel(text: string): { label: string; rest: string } | undefined {
  const colon = LABELLED.exec(text);
  if (colon) return { label: `${colon[1]}:`, rest: colon[2]! };
  const known = /^([^\r\n]+?)[ \t]+(\S+)$/.exec(text);
  // A bare number after such words may be the id's own end ("Customer 42", "ID 4410" as a refId): kept whole.
  if (!known || !namesIdColumn(known[1]!) || namesIdColumn(text) || /^\d+$/.test(known[2]!)) return undefined;
  return { label: known[1]!, rest: known[2]! };
}

/**
 * Words of an id column before a bare number (`Customer 42`, `ID 4410`): kept whole as one id, as the
 * number alone may be another candidate's refId (splitLabel takes no label there).
 */
export function isNumberAfterIdWords(text: string): boolean {
  const known = /^([^\r\n]+?)[ \t]+(\d+)$/.exec(text);
  return known !== null && namesIdColumn(known[1]!);
}

/** The id without the `#` a ticket numbers it with (`#user-7781`); a `#` alone stays. */
export function dropHash(id: string): { id: string; hash: boolean } {
  return /^#[^#\s]/.test(id) ? { id: id.slice(1), hash: true } : { id, hash: false };
}

/** One line's id without its label (and a sentence's full stop after it) and its `#`, and which went. */
function unlabel(line: string): { id: string; label: string | undefined; hash: boolean } {
  const labelled = splitLabel(line);
  const { id, hash } = dropHash(labelled ? labelled.rest.replace(/[.,;]+$/, '') : line);
  return { id, label: labelled?.label, hash };
}

/** One line's id as the box reads a pasted one: its label, a sentence's full stop after it and its `#` dropped. */
export const lineId = (line: string): string => unlabel(line).id;

/**
 * The one id the search box looks up, read as the batch reads each line of its list (readEntry, then
 * lineId): one rule for both, so that `cust_000482.` is `cust_000482` in the box as in a batch (the box
 * kept the full stop and looked the id up with it, a miss), and what was dropped, in words, for the box to
 * say. What the box alone drops (the search shortcut's leading `/`) goes before.
 */
export function readOneId(text: string): { id: string; removed: string | undefined } {
  const entry = readEntry(text, true);
  const { id, label, hash } = unlabel(entry.id);
  const removed = [
    entry.firstCell && "the row's other cells",
    entry.unquoted && 'the quotes around it',
    entry.marks,
    label && `the label "${label}"`,
    hash && marksInWords('#', ''),
  ].filter(Boolean);
  return { id, removed: removed.length > 0 ? removed.join(' and ') : undefined };
}

/**
 * A pasted list with each entry read by `lineId`, repeats counted again (`#cust_1` and `cust_1` are one
 * id); `unlabelled`: how many entries lost a label or a `#`. Before, a batch looked `#user-7781` up with
 * its `#` and reported it not found, where the search box looked up `user-7781`.
 */
export function unlabelList<List extends IdList>(list: List): List & { unlabelled: number } {
  const seen = new Map<string, number>();
  const ids: string[] = [];
  const entries: IdEntry[] = [];
  let unlabelled = 0;
  for (const entry of list.entries) {
    const id = lineId(entry.id);
    if (id !== entry.id) unlabelled += 1;
    const first = seen.get(id);
    if (first !== undefined) {
      entries.push({ line: entry.line, id, repeatOf: first });
      continue;
    }
    seen.set(id, entry.line);
    ids.push(id);
    entries.push({ line: entry.line, id });
  }
  return { ...list, ids, entries, duplicates: entries.length - ids.length, unlabelled };
}
