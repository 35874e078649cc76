import { z } from './zod.ts';
import { LOOKUP_KINDS, MAX_ID_LENGTH } from './lookup.ts';
import { MAX_BATCH_IDS } from './batch-limit.ts';

/**
 * `POST /api/export` of a batch's results carried out of the page: its CSV downloaded (`batch_csv`) or
 * its table copied (`batch_copy`). Its line names the candidates the file holds, as a queue view's line
 * names whom it showed: the batch's rows found, by the kind and id each was looked up by, in the page's
 * order, at most MAX_BATCH_NAMED of them, with `count` the candidates it holds in all. A row not found
 * or refused carries nothing of the service's, only the id pasted, and is not named.
 */
export const BATCH_HANDOFFS = ['batch_csv', 'batch_copy'] as const;
export type BatchHandoff = (typeof BATCH_HANDOFFS)[number];

/** Most candidates one line names, as a queue view's (a page holds at most 100). */
export const MAX_BATCH_NAMED = 100;

export const batchExportRequestSchema = z.object({
  what: z.enum(BATCH_HANDOFFS),
  kind: z.enum(LOOKUP_KINDS),
  ids: z.array(z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH))).check(z.maxLength(MAX_BATCH_NAMED)),
  count: z.int().check(z.nonnegative(), z.maximum(MAX_BATCH_IDS)),
});
export type BatchExportRequest = z.infer<typeof batchExportRequestSchema>;

/** A batch's row as the export reads it: the id asked for, whether it was found, and the line it repeats if any. */
export interface BatchHandoffLine {
  id: string;
  row?: { ok: boolean };
  repeatOf?: number;
}

/**
 * The export of a batch's lines: the candidates found, each once, in the page's order; the first
 * MAX_BATCH_NAMED named, all of them counted.
 */
export function batchExportOf(
  what: BatchHandoff,
  kind: BatchExportRequest['kind'],
  lines: readonly BatchHandoffLine[],
): BatchExportRequest {
  const found = [...new Set(lines.filter((line) => line.row?.ok === true).map((line) => line.id))];
  return { what, kind, ids: found.slice(0, MAX_BATCH_NAMED), count: found.length };
}
