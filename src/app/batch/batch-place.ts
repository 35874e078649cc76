import { useEffect } from 'react';
import type { BatchLine } from '../../kyc/view/batch-export.ts';
import { linesOrder } from '../../kyc/view/batch-triage.ts';
import type { ListPlace, ListStep, ListWords, ShownCandidate } from '../recent/list-place.ts';
import { rememberOpenedRow } from '../recent/row-return.ts';
import { BATCH_PATH, type BatchRowHandOver, candidatePath, environmentPath } from '../routes.ts';
import { recallBatch } from './batch-memory.ts';
import { batchLines } from './use-batch.ts';

/**
 * The candidate page's place among the found rows of the batch it was opened from (the batch feature's
 * entry for the candidate page): "2 of 5 · Found rows of this batch", its neighbours and the way back.
 * Read from the batch this tab keeps in memory, as the batch page itself reads it on Back.
 */

/** What the history entry says of the batch row a candidate page was opened from, if it is what the batch put there. */
export function batchRowHandOverOf(state: unknown): BatchRowHandOver['batchRow'] | undefined {
  const batchRow = (state as Partial<BatchRowHandOver> | null)?.batchRow;
  if (!batchRow || typeof batchRow !== 'object') return undefined;
  const { index } = batchRow;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < 1e6 ? { index } : undefined;
}

/** A row is found again by its pasted line: a repeat's row opens the same candidate as the line it repeats. */
export const batchLineKey = (line: BatchLine) => [String(line.line)];

const BATCH_WORDS: ListWords = {
  nav: 'Batch',
  back: 'Back to batch',
  edge: { next: 'Last found row of this batch', previous: 'First found row of this batch' },
};

/**
 * A found row, stepped to. A repeat is not: it opens the candidate of the line it repeats, which `j`
 * would otherwise open twice.
 */
const steppable = (line: BatchLine) => line.row?.ok === true && line.repeatOf === undefined;

/** The line is the candidate's: its id as pasted, or the candidate's ids once the record is in. */
function isShown(line: BatchLine, shown: ShownCandidate): boolean {
  const row = line.row?.ok ? line.row : undefined;
  return (
    row !== undefined &&
    (line.id === shown.id ||
      (Boolean(shown.recordId) && row.recordId === shown.recordId) ||
      (Boolean(shown.refId) && row.refId === shown.refId))
  );
}

/**
 * Reads the place from the batch this tab keeps: the found rows, in the batch's order. A history entry
 * whose line is not the candidate's (another batch was looked up since) gives no place.
 */
export function useBatchPlace(
  handOver: BatchRowHandOver['batchRow'] | undefined,
  environment: string | undefined,
  shown: ShownCandidate,
): ListPlace | undefined {
  const batch = handOver ? recallBatch(environment) : undefined;
  const lines = batch ? batchLines(batch.state) : [];
  const line = handOver ? lines[handOver.index] : undefined;
  // A repeat's row stands where the line it repeats stands.
  const at = line?.repeatOf === undefined ? (handOver?.index ?? -1) : lines.findIndex((other) => other.line === line.repeatOf);
  const valid = line !== undefined && isShown(line, shown) && at >= 0;
  const back = environmentPath(environment, BATCH_PATH);
  const lineNumber = line?.line;
  const index = handOver?.index;
  useEffect(() => {
    if (valid && lineNumber !== undefined && index !== undefined) rememberOpenedRow(back, [String(lineNumber)], index);
  }, [valid, back, lineNumber, index]);

  if (!valid || !batch) return undefined;
  // In the order the batch page shows its rows (a compliance user's "Needs attention first" puts those first).
  const found = linesOrder(lines, batch.attentionFirst === true).filter((index) => steppable(lines[index]!));
  const position = found.indexOf(at);
  const step = (to: number | undefined): ListStep | undefined => {
    const toLine = to === undefined ? undefined : lines[to];
    if (!toLine?.row?.ok || to === undefined) return undefined;
    // Looked up the way its row was found, as the row's own link does.
    const foundBy = toLine.row.foundBy ?? batch.kind;
    return {
      href: environmentPath(environment, candidatePath(foundBy, toLine.id)),
      state: { batchRow: { index: to } } satisfies BatchRowHandOver,
      row: { back, ids: batchLineKey(toLine), index: to },
    };
  };
  return {
    label: 'Found rows of this batch',
    position: position + 1,
    total: found.length,
    previous: step(found[position - 1]),
    next: step(found[position + 1]),
    back,
    pending: false,
    words: BATCH_WORDS,
  };
}
