import { z } from './zod.ts';

/**
 * The service's list records that carry a status but no id (no refId, recordId or `_id`), or only ids no
 * lookup takes (longer than 256 characters, a control character...: `checkId`): no lookup can
 * open them, so they are no row of the queue, yet they are candidates of their status, and a queue that
 * left them out would say "Waiting: 0" of a candidate waiting for months. They are counted by status,
 * with the range of their dates, never kept one by one: a list of a million of them costs a few numbers.
 */
export const idlessSchema = z.object({
  /** Their status: one of the filters, or `other` for any status no tab names. */
  status: z.string(),
  count: z.int().check(z.positive()),
  /** How many of them carry the date they entered their status. */
  dated: z.int().check(z.nonnegative()),
  /** The earliest and latest of those dates (ISO 8601). */
  oldest: z.optional(z.string()),
  newest: z.optional(z.string()),
  /** How many of them carry a blockPassID (not passed on: it opens nothing here either, but the dashboard may find it). */
  blockPassIDs: z.optional(z.int().check(z.positive())),
  /** How many of them carry ids, but only ones no lookup takes (never the ids themselves: they may be hostile). */
  badIds: z.optional(z.int().check(z.positive())),
});
export type Idless = z.infer<typeof idlessSchema>;

/** What one id-less record adds: its status's group, its date, whether it carries a blockPassID, whether its ids were refused. */
export interface IdlessRecord {
  status: string;
  since?: string;
  blockPassID: boolean;
  /** It carries ids, but none a lookup takes. */
  badId?: boolean;
}

/** The tallies with one more record (a new array; at most one tally a status group, so a few at most). */
export function tallyIdless(tallies: readonly Idless[] | undefined, record: IdlessRecord): Idless[] {
  const one: Idless = {
    status: record.status,
    count: 1,
    dated: record.since === undefined ? 0 : 1,
    ...(record.since === undefined ? {} : { oldest: record.since, newest: record.since }),
    ...(record.blockPassID ? { blockPassIDs: 1 } : {}),
    ...(record.badId ? { badIds: 1 } : {}),
  };
  return joinIdless(tallies, [one]) ?? [one];
}

/** Two sets of tallies as one: counted together by status, their date ranges joined. */
export function joinIdless(a: readonly Idless[] | undefined, b: readonly Idless[] | undefined): Idless[] | undefined {
  if (!a?.length || !b?.length) return a?.length ? [...a] : b?.length ? [...b] : undefined;
  const byStatus = new Map(a.map((tally) => [tally.status, tally]));
  for (const tally of b) {
    const known = byStatus.get(tally.status);
    byStatus.set(tally.status, known ? joinTwo(known, tally) : tally);
  }
  return [...byStatus.values()];
}

function joinTwo(a: Idless, b: Idless): Idless {
  const oldest = pick(a.oldest, b.oldest, (x, y) => x < y);
  const newest = pick(a.newest, b.newest, (x, y) => x > y);
  const blockPassIDs = (a.blockPassIDs ?? 0) + (b.blockPassIDs ?? 0);
  const badIds = (a.badIds ?? 0) + (b.badIds ?? 0);
  return {
    status: a.status,
    count: a.count + b.count,
    dated: a.dated + b.dated,
    ...(oldest === undefined ? {} : { oldest }),
    ...(newest === undefined ? {} : { newest }),
    ...(blockPassIDs > 0 ? { blockPassIDs } : {}),
    ...(badIds > 0 ? { badIds } : {}),
  };
}

/** Of two dates, the one `before` prefers by time (either when only one is there). */
function pick(a: string | undefined, b: string | undefined, before: (x: number, y: number) => boolean): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return before(Date.parse(b), Date.parse(a)) ? b : a;
}

/**
 * How many of a tally are over the SLA (entered their status before `cutoff`): exact when every one is
 * dated and their dates are all on one side of it; else a floor (`partial`): one at least when the oldest
 * is over, since only the range of their dates is kept.
 */
export function idlessOverSla(tally: Idless, cutoff: number): { over: number; partial: boolean } {
  const oldest = tally.oldest === undefined ? undefined : Date.parse(tally.oldest);
  const newest = tally.newest === undefined ? undefined : Date.parse(tally.newest);
  const undated = tally.count > tally.dated;
  if (oldest === undefined || newest === undefined || !(oldest < cutoff)) return { over: 0, partial: undated };
  if (newest < cutoff) return { over: tally.dated, partial: undated };
  return { over: 1, partial: true };
}
