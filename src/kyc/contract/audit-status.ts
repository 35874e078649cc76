import { z } from './zod.ts';
import { auditSourceSchema, indexLagSchema } from './audit-search.ts';

/**
 * The audit trail's state (`GET /api/audit/status`, leads only): each instance's files and hash chains, as
 * this instance checked its own and the others last reported theirs, and where the table stands.
 */

/** One audit file's hash chain, as last checked. */
export const fileChainSchema = z.object({
  file: z.string(),
  /** Lines checked and found linked, from the first. */
  lines: z.int(),
  intact: z.boolean(),
  /**
   * Where it breaks: the line (1-based) and why; `lastVouched`, the time and hash of the last line before
   * it that the chain vouches for (none when no line of the file before the break is known to be): the
   * audit page marks the instance's rows after it.
   */
  broken: z.optional(
    z.object({ line: z.int(), reason: z.string(), lastVouched: z.optional(z.object({ time: z.string(), hash: z.string() })) }),
  ),
  /** Notes that do not break it: a new chain after a restart, a first file that continues one no longer here. */
  notes: z.optional(z.array(z.string())),
  /** The time written in its last line. */
  lastLineAt: z.optional(z.string()),
  checkedAt: z.string(),
});
export type FileChain = z.infer<typeof fileChainSchema>;

export const instanceStateSchema = z.object({
  instance: z.string(),
  /** This server (the others are as they last reported to the table). */
  self: z.boolean(),
  reportedAt: z.string(),
  /**
   * Another instance whose report is older than twice the report interval: its files and lag are as they
   * stood at `reportedAt`, and its lines after that may be missing from the table.
   */
  notReporting: z.optional(z.literal(true)),
  /**
   * Another instance stopped normally at `reportedAt`: its last report, never stale. Its lines were all in the
   * table then, but those `behind` counts. Left out of the list once stopped for longer than the retention.
   */
  stopped: z.optional(z.literal(true)),
  files: z.array(fileChainSchema),
  behind: z.optional(indexLagSchema),
});
export type InstanceState = z.infer<typeof instanceStateSchema>;

/** `GET /api/audit/status`: each instance's files and chains, and where the table stands. */
export const auditStatusSchema = z.object({
  source: auditSourceSchema,
  instances: z.array(instanceStateSchema),
  /** The table keeps this many days (audit.retentionDays); none without a database. */
  retentionDays: z.optional(z.int()),
  /** Without a database: how far one search reads. */
  fileBounds: z.optional(z.object({ maxLines: z.int(), maxMs: z.int() })),
});
export type AuditStatus = z.infer<typeof auditStatusSchema>;
