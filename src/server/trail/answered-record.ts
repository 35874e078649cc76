import { isLookupKind, type LookupKind } from '../../kyc/contract/lookup.ts';

/**
 * The candidate whose record came back to a lookup that asked for another (its line's `answeredId`, of the
 * kind asked: other_candidate, audit-entries.ts). A search by that candidate finds the line, as it finds a
 * queue view that showed them: a lead asking who was shown, or refused, candidate X finds where X's record
 * was answered for someone else, which the line's own id (the one asked) never named.
 */
export function answeredRecordOf(line: Record<string, unknown>): { kind: LookupKind; id: string } | undefined {
  const { kind, answeredId } = line;
  if (typeof kind !== 'string' || !isLookupKind(kind) || typeof answeredId !== 'string' || answeredId === '') return undefined;
  return { kind, id: answeredId };
}

/**
 * The line's words for it, which read right from either id, since a search by either finds it: the row
 * shows the id asked as its candidate, and a lead who searched the other reads here why it came up.
 */
export function answeredWords(line: Record<string, unknown>, text: (value: unknown) => string | null): string | undefined {
  const answered = answeredRecordOf(line);
  if (!answered) return undefined;
  return `Refused: the KYC service answered with the record of ${answered.kind} ${text(answered.id)} when asked for ${answered.kind} ${text(line.id) ?? '(no id)'}; nothing of it sent`;
}

/**
 * A cut line's words for it: its id came past the 64 KiB held back (asked-id-watch.ts), so part of that
 * candidate's record had already gone to the browser, pictures perhaps. Not a refusal: a lead searching
 * that candidate reads what of them left, and how much (`sentBytes`, absent in lines of before).
 */
export function cutAnsweredWords(line: Record<string, unknown>, text: (value: unknown) => string | null): string | undefined {
  const answered = answeredRecordOf(line);
  if (!answered) return undefined;
  const sent = line.sentBytes;
  const bytes = typeof sent === 'number' && Number.isSafeInteger(sent) && sent >= 0 ? ` (${sent.toLocaleString('en')} bytes)` : '';
  return `Cut: part of the record of ${answered.kind} ${text(answered.id)}${bytes} was sent before it was found to be another candidate's, when asked for ${answered.kind} ${text(line.id) ?? '(no id)'}`;
}
