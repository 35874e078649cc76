import { type DashboardLink, parseDashboardLink } from '../../kyc/view/dashboard-link.ts';
import { cleanId, describeRemoved } from '../../kyc/view/id-input.ts';
import { splitMarks } from '../../kyc/view/sentence-marks.ts';
import { type IdList, splitIdList } from '../../kyc/view/id-list.ts';
import { isNumberAfterIdWords, readOneId, splitLabel, unlabelList } from '../../kyc/view/id-label.ts';
import { findPersonalData, NAME_LINE, readsLikePersonalData } from '../../kyc/view/personal-data.ts';
import { MAX_ID_LENGTH } from '../../kyc/contract/lookup.ts';
import { type AppLink, parseAppLink } from '../routes.ts';
import type { LookupFormAction } from './lookup-form-state.ts';

// The search box's rule for text that holds personal data, and the batch's rule for one id, come with
// the paste reader, after the first paint (useSubmit waits for it when a lookup is sent before it is here).
export { findPersonalData, readOneId };

/**
 * What a list or a link pasted does to the search box: here, with the reader that finds them, rather than
 * in the first load (bundle-size.test.ts).
 */
export function pastedAction(pasted: Exclude<Pasted, { type: 'id' }>): LookupFormAction {
  if (pasted.type === 'list') return { type: 'pastedList', list: pasted.list };
  if (pasted.type === 'link') {
    const { kind, id, environment } = pasted.link;
    return { type: 'pastedAppLink', kind, id, environment };
  }
  const { link } = pasted;
  return link.ok
    ? { type: 'pastedDashboard', link: { clientId: link.clientId, recordId: link.recordId } }
    : { type: 'pastedBadLink', problem: link.problem };
}

export type Pasted =
  | { type: 'link'; link: AppLink }
  | { type: 'dashboard'; link: DashboardLink }
  | { type: 'list'; list: IdList }
  | { type: 'id'; id: string; removed: string | undefined };

/**
 * What a paste into the search box means: a link of the service's dashboard (a recordId, or why it
 * cannot be read), a link of this app (its kind, id and environment), a list of
 * ids (two or more: offer a batch), or one id, cleaned of invisible characters and outer whitespace.
 */

/** A plain word, contractions too (`can't`, `I’m`). */
const WORD = /^\p{L}+(?:['’]\p{L}+)*$/u;
/** A number, a date or a time (`50`, `2019`, `2024-01-02`, `10:30`): an id only where the sentence names no other. */
const NUMBER_OR_DATE = /^\d+(?:[-./:,]\d+)*$/;
/** Dashes and other marks standing alone. */
const NO_LETTER_OR_DIGIT = /^[^\p{L}\p{N}]*$/u;

/** The most runs a phone number or a date in words is written in (`+33 6 12 34 56 78`, `12 de marzo de 1990`). */
const LONGEST_SPACED = 8;

/**
 * The runs that read like personal data (readsLikePersonalData, the whole-text half of the box's question): an e-mail address
 * alone (`mehmet.yilmaz@example.com.tr`), or a phone number or a date written over several runs. Names
 * are words, never ids here.
 */
function personalRuns(runs: readonly string[]): Set<number> {
  const personal = new Set<number>();
  // No longer than an id the box looks up: the rule's patterns take time as the square of a long run's length.
  const reads = (text: string) => (text.length <= MAX_ID_LENGTH ? readsLikePersonalData(text) : undefined);
  for (let start = 0; start < runs.length; start += 1) {
    if (reads(runs[start]!)) personal.add(start);
    for (let end = Math.min(runs.length, start + LONGEST_SPACED); end > start + 1; end -= 1) {
      const what = reads(runs.slice(start, end).join(' '));
      if (what !== 'a phone number' && what !== 'a date') continue;
      for (let at = start; at < end; at += 1) personal.add(at);
      break;
    }
  }
  return personal;
}

/**
 * The ids of a ticket's sentences ("My reference is support-ticket-4410, please help"): each run that is
 * not a plain word (a digit, `-`, `_`, `@`… in it), the sentence's punctuation and a possessive `'s` left
 * out, numbers and dates only when no other run is an id, and what reads like personal data (an e-mail
 * address, a phone number, a date) only when nothing else is: before, "customer mehmet.yilmaz@example.com.tr
 * says ref user-7781" was a list whose first id, put in the box, was the e-mail address. Undefined unless the text reads as prose: no
 * tab (rows copied from a spreadsheet are read by their first cells), a line of three runs or more (not
 * a name among other lines, NAME_LINE), at least two plain words, no more ids than words. A list of ids
 * never does ("cust_1 cust_2", a column), and a list of all-letter refIds names no id in it.
 */
function idsInProse(text: string): string[] | undefined {
  const lines = text.split(/\r?\n|\r/).filter((line) => line.trim() !== '');
  // A name among ids: two or more other lines, each one run that is no plain word (`cust_1`, not `Thanks`).
  const idLine = (line: string) => /^\S+$/.test(line.trim()) && !WORD.test(splitMarks(line.trim()).bare);
  const inColumn = (line: string) =>
    NAME_LINE.test(line.trim()) && lines.length > 2 && lines.every((other) => other === line || idLine(other));
  const sentence = (line: string) => line.trim().split(/\s+/).length >= 3 && !inColumn(line);
  if (text.includes('\t') || !lines.some(sentence)) return undefined;
  const runs = text.split(/\s+/).map((run) => splitMarks(run).bare.replace(/['’]s$/u, ''));
  const words = runs.filter((run) => WORD.test(run)).length;
  const isNamed = (run: string) => !WORD.test(run) && !NO_LETTER_OR_DIGIT.test(run);
  const named = runs.filter(isNamed);
  const personal = personalRuns(runs);
  // Left alone, personal data is still what the box gets, so that looking it up asks about it.
  const usable = runs.filter((run, at) => isNamed(run) && !personal.has(at));
  const strong = usable.filter((run) => !NUMBER_OR_DATE.test(run));
  const ids = [...new Set(strong.length > 0 ? strong : usable.length > 0 ? usable : named)];
  return words >= 2 && ids.length > 0 && ids.length <= words ? ids : undefined;
}

/**
 * A spreadsheet's row copied alone (`support-ticket-4410⇥Review requested`): its first cell, as the batch
 * reads each row of a column, when another cell holds words; cells of single ids are a list. Before, its
 * words were offered as ids of a batch.
 */
function firstCellOfRow(text: string): string | undefined {
  const cells = text.split('\t');
  if (cells.length < 2 || /[\r\n]/.test(text) || !cells.some((cell) => /\S\s+\S/.test(cell))) return undefined;
  return cells[0]!.trim() || undefined;
}

export function interpretPaste(text: string): Pasted {
  const cleaned = cleanId(text);
  const dashboard = parseDashboardLink(cleaned.id);
  if (dashboard) return { type: 'dashboard', link: dashboard };
  const link = parseAppLink(cleaned.id);
  if (link) return { type: 'link', link };
  const labelled = splitLabel(cleaned.id);
  if (labelled) {
    // What follows the label is read as a paste of its own (a link after "Link:"), the sentence's full stop left out.
    const inner = interpretPaste(labelled.rest.replace(/[.,;]+$/, ''));
    if (inner.type !== 'id') return inner;
    const removed = [describeRemoved(cleaned.removed), `the label "${labelled.label}"`, inner.removed].filter(Boolean).join(' and ');
    return { type: 'id', id: inner.id, removed };
  }
  const row = firstCellOfRow(cleaned.id);
  if (row) {
    const inner = interpretPaste(row);
    return inner.type === 'id' ? { ...inner, removed: "the row's other cells" } : inner;
  }
  // A name, an e-mail address or a date pasted alone is one entry, asked about as the box asks (its words
  // were offered as a list of ids before, "Mehmet" and "Yılmaz", sent unasked); so is "Customer 42".
  if (!/[\r\n]/.test(cleaned.id) && (readsLikePersonalData(cleaned.id) || isNumberAfterIdWords(cleaned.id)))
    return { type: 'id', id: cleaned.id, removed: describeRemoved(cleaned.removed) || undefined };
  const prose = idsInProse(cleaned.id);
  if (prose?.length === 1) {
    const inner = interpretPaste(prose[0]!);
    // Which id was kept, said: from a ticket's text it is not plain.
    return inner.type === 'id' ? { ...inner, removed: `the words around "${inner.id}"` } : inner;
  }
  // Each id as the batch reads its lines: `#user-7781` is user-7781 there too.
  const list = unlabelList(splitIdList(prose ? prose.join('\n') : text));
  if (list.ids.length >= 2) return { type: 'list', list };
  // A column's heading and one id under it: that id.
  if (list.ids.length === 1 && list.heading !== undefined)
    return { type: 'id', id: list.ids[0]!, removed: `the column's heading "${list.heading}"` };
  // One id, read as a batch reads its line (readOneId): the `#` a ticket numbers it with, quotes, a
  // sentence's full stop after it. Before, only the `#` went: `cust_000482.` was looked up with its dot.
  const one = readOneId(cleaned.id);
  const removed = [describeRemoved(cleaned.removed), one.removed].filter(Boolean).join(' and ');
  return { type: 'id', id: one.id, removed: removed || undefined };
}
