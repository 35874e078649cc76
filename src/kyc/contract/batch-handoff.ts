import { z } from './zod.ts';
import { LOOKUP_KINDS, type LookupKind, MAX_ID_LENGTH } from './lookup.ts';
import { MAX_BATCH_IDS } from './batch-limit.ts';

/**
 * `POST /api/export` of a batch's results carried out of the page: its CSV downloaded (`batch_csv`) or
 * its table copied (`batch_copy`). Its line names the candidates the file holds, as a queue view's line
 * names whom it showed: the batch's rows found, by the kind and id each was looked up by, in the page's
 * order, at most MAX_BATCH_NAMED of them, with `count` the candidates it holds in all. A row not found
 * or refused carries nothing of the service's, only the id pasted, and is not named. A row found by the
 * other kind (batchTriesAs) is named with that kind, `{ id, foundBy }`: its candidate was opened under
 * it, and the server checks each id under the kind it is named by.
 */
export const BATCH_HANDOFFS = ['batch_csv', 'batch_copy'] as const;
export type BatchHandoff = (typeof BATCH_HANDOFFS)[number];

/** Most candidates one line names, as a queue view's (a page holds at most 100). */
export const MAX_BATCH_NAMED = 100;

const batchIdSchema = z.string().check(z.minLength(1), z.maxLength(MAX_ID_LENGTH));

/** A candidate the export names: the id, found by the batch's kind; or the id and the other kind, which found it. */
const batchNamedSchema = z.union([batchIdSchema, z.object({ id: batchIdSchema, foundBy: z.enum(LOOKUP_KINDS) })]);
export type BatchNamed = z.infer<typeof batchNamedSchema>;

export const batchExportRequestSchema = z.object({
  what: z.enum(BATCH_HANDOFFS),
  kind: z.enum(LOOKUP_KINDS),
  ids: z.array(batchNamedSchema).check(z.maxLength(MAX_BATCH_NAMED)),
  count: z.int().check(z.nonnegative(), z.maximum(MAX_BATCH_IDS)),
});
export type BatchExportRequest = z.infer<typeof batchExportRequestSchema>;

/** The kind and id a candidate named was looked up by, in a batch of `kind`. */
export function namedAs(kind: LookupKind, named: BatchNamed): { kind: LookupKind; id: string } {
  return typeof named === 'string' ? { kind, id: named } : { kind: named.foundBy, id: named.id };
}

/** A batch's row as the export reads it: the id asked for, whether it was found and by which kind if not the batch's, and the line it repeats if any. */
export interface BatchHandoffLine {
  id: string;
  row?: { ok: boolean; foundBy?: LookupKind };
  repeatOf?: number;
}

/**
 * The export of a batch's lines: the candidates found, each once, in the page's order, each by the kind
 * that found it; the first MAX_BATCH_NAMED named, all of them counted.
 */
export function batchExportOf(
  what: BatchHandoff,
  kind: BatchExportRequest['kind'],
  lines: readonly BatchHandoffLine[],
): BatchExportRequest {
  // A repeated id is looked up once: its lines share one row, so the first names it.
  const found = new Map<string, BatchNamed>();
  for (const { id, row } of lines) {
    if (row?.ok !== true || found.has(id)) continue;
    found.set(id, row.foundBy && row.foundBy !== kind ? { id, foundBy: row.foundBy } : id);
  }
  return { what, kind, ids: [...found.values()].slice(0, MAX_BATCH_NAMED), count: found.size };
}
