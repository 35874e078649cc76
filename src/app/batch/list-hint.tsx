import { MAX_BATCH_IDS } from '../../kyc/contract/batch.ts';
import { describeRemoved } from '../../kyc/view/id-input.ts';
import type { IdList } from '../../kyc/view/id-list.ts';
import { listToSend, namedLines, type PersonalLines } from './personal-list.tsx';
import type { BatchState } from './use-batch.ts';

/** The pasted list as the batch page reads it: each line's label and `#` dropped (id-label.ts), counted. */
type ReadList = IdList & { unlabelled: number };

const ids = (count: number) => (count === 1 ? '1 id' : `${count} ids`);

/**
 * The lines "Leave them out" left out of the batch shown, when that batch is of this very list: the ids
 * it looked up are the list's without them. Undefined for another list (the box changed since) or none left out.
 */
function leftOutOf(list: ReadList, batch: BatchState): PersonalLines['lines'] | undefined {
  if (!batch.leftOut) return undefined;
  const [kept] = listToSend(list, 'without');
  const same = kept.length === batch.ids.length && kept.every((id, index) => id === batch.ids[index]);
  return same ? batch.leftOut.lines : undefined;
}

/**
 * Lines with no id up to the last id (blank, or nothing left once cleaned): no row, and the rows' numbers,
 * the pasted lines', skip them. A single line split has no such gaps (its entries are counted without the empty ones).
 */
function blankLines(list: ReadList): number {
  if (list.rule !== 'lines') return 0;
  const last = list.entries.at(-1)?.line ?? 0;
  const heading = list.headingLine !== undefined && list.headingLine < last ? 1 : 0;
  return last - list.entries.length - heading;
}

/** ", split at commas and semicolons (…)": by which rule the text was split. */
function ruleText(list: ReadList): string {
  if (list.ids.length === 0) return '';
  if (list.rule === 'lines') return ', one per line (spaces inside a line are part of its id)';
  return list.rule === 'commas'
    ? ', split at commas and semicolons (spaces inside an entry are part of its id)'
    : ', split at spaces and tabs';
}

/**
 * How many ids the box holds, and by which rule the text was split: the user sees at once whether a line
 * with spaces stayed whole. The count is of what is looked up: each id once, and once "Leave them out"
 * started the batch, without the lines it left out ("9 ids" beside "7 of 7" read as a miscount); what
 * was given besides is said, each with what became of it (repeats, blank lines, lines left out).
 */
export function ListHint({ id, list, batch }: { id: string; list: ReadList; batch: BatchState }) {
  const removed = describeRemoved(list.removed);
  const leftOut = leftOutOf(list, batch);
  const [lookedUp, rows] = leftOut ? listToSend(list, 'without') : [list.ids, list.entries];
  const count = lookedUp.length;
  const given = list.entries.length;
  const repeats = rows.length - count;
  const blank = blankLines(list);
  return (
    <p id={id} data-testid="batch-hint" className="text-sm text-slate-600">
      {ids(count)}
      {/* "2 ids" beside three rows read as a miscount: what is looked up, then what was given. */}
      {given !== count && ` (${given} given)`}
      {ruleText(list)}
      {list.links > 0 &&
        `, ${list.links} dashboard ${list.links === 1 ? 'link' : 'links'} read as ${list.links === 1 ? 'its recordId' : 'their recordIds'}`}
      {list.appLinks > 0 &&
        `, ${list.appLinks} ${list.appLinks === 1 ? 'link' : 'links'} of Candidate Lookup read as ${list.appLinks === 1 ? 'its id' : 'their ids'}`}
      {list.firstCells > 0 &&
        `, the first cell of ${list.firstCells === 1 ? '1 line' : `${list.firstCells} lines`} of several tab-separated cells read as ${list.firstCells === 1 ? 'its id' : 'their ids'}`}
      {list.unquoted > 0 && `, ${list.unquoted === 1 ? 'the quotes around 1 id' : `the quotes around ${list.unquoted} ids`} dropped`}
      {list.unmarked > 0 && `, a sentence's marks around ${ids(list.unmarked)} dropped (commas, full stops, quotes, brackets)`}
      {list.unlabelled > 0 && `, the label or "#" before ${ids(list.unlabelled)} dropped`}
      {repeats > 0 &&
        `, ${repeats} ${repeats === 1 ? 'repeat' : 'repeats'} looked up once (${repeats === 1 ? 'its row says' : 'their rows say'} which line ${repeats === 1 ? 'it repeats' : 'they repeat'})`}
      {blank > 0 && `, ${blank === 1 ? '1 blank line' : `${blank} blank lines`} skipped`}
      {leftOut &&
        `, ${namedLines({ lines: leftOut, rule: list.rule })} left out (${leftOut.length === 1 ? 'it reads' : 'they read'} like personal data)`}
      {removed && `; removed ${removed}`}
      {list.ids.length > MAX_BATCH_IDS && ` (at most ${MAX_BATCH_IDS})`}
    </p>
  );
}
