import { needsAttention } from '../contract/certificate-triage.ts';
import type { BatchLine } from './batch-export.ts';

/**
 * The batch's triage for compliance users and leads (the rows carry what the queue index knows of each
 * candidate: batch.ts's `triage`): which lines need attention, and the order that puts them first.
 */

/** A found line whose certificate, as the index knows it, asks a reviewer to look (as the queue's toggle reads it). */
export const lineNeedsAttention = (line: BatchLine): boolean => line.row?.ok === true && needsAttention(line.row.triage?.certificate);

/**
 * The lines' places in the order shown: the list's order, or with `attentionFirst` the lines that need
 * attention first, each part still in the list's order (a stable sort: a repeat stays after its line).
 */
export function linesOrder(lines: readonly BatchLine[], attentionFirst: boolean): number[] {
  const places = lines.map((_, index) => index);
  if (!attentionFirst) return places;
  return [...places.filter((index) => lineNeedsAttention(lines[index]!)), ...places.filter((index) => !lineNeedsAttention(lines[index]!))];
}
