import { z } from './zod.ts';
import { LOOKUP_KINDS } from './lookup.ts';
import { HELD_ROW_FIELDS } from './audit-held.ts';

/**
 * The audit trail in the app (issue 34): the audit page's search, CSV export and chain state
 * (`/api/audit/…`, leads only), and a candidate's Activity (`/api/activity`, compliance users and leads).
 * What they show of a line: ids, who, when, at what level, from where; never candidate data (the log
 * holds none).
 */

/**
 * What a line records someone doing, one word per kind of line (the server's audit-row.ts reads it from
 * the line): a lookup, a lookup's full answer cut short after it began (a second line of its request), a full answer's closing line (`held`: never a row of its own, read onto its lookup's row), a candidate page's own re-check of the status, a batch's id, a page of the applicants list, a summary, reply or certificate copied, a page
 * printed, a document file saved, a batch's CSV downloaded or table copied, an export refused before its body was read, refusals counted, the queue index's own lookups,
 * a webhook delivery, the audit trail searched or exported, a note of the log itself.
 */
export const AUDIT_ACTIONS = [
  'lookup',
  'cut',
  'held',
  'status_check',
  'batch',
  'list',
  'copy_summary',
  'copy_reply',
  'copy_certificate',
  'save_file',
  'save_batch',
  'copy_batch',
  'print',
  'export',
  'refusals',
  'queue_index',
  'webhook',
  'audit_search',
  'audit_export',
  'note',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * What the audit page's Action filter asks for: an action, or `saw_in_queue`, a queue view that named its
 * candidates (every view that showed a row; before, only one that showed personal data). Each finds the rows its words label: `list` then finds only the
 * views that named nobody ("Listed applicants"), where it found both.
 */
export const AUDIT_FILTER_ACTIONS = [...AUDIT_ACTIONS, 'saw_in_queue'] as const;
export type AuditFilterAction = (typeof AUDIT_FILTER_ACTIONS)[number];

/**
 * What a candidate's Activity lists: someone looked at them (and whether that answer was cut short), saw
 * them in the queue (a `list` line names every row it showed; one written before, only rows of personal data), or carried their
 * data out of the page.
 */
export const ACTIVITY_ACTIONS: readonly AuditAction[] = [
  'lookup',
  'cut',
  'batch',
  'list',
  'copy_summary',
  'copy_reply',
  'copy_certificate',
  'save_file',
  'save_batch',
  'copy_batch',
  'print',
];

/**
 * The names this server writes its own work under, in a form no username takes: the queue index's
 * crawler, the check of a webhook delivery with the service, and the service's deliveries themselves.
 */
export const SERVER_USERS = { queueIndex: '(queue-index)', webhookCheck: '(webhook-check)', webhook: '(webhook)' } as const;
const SERVER_USER_NAMES: readonly (string | null)[] = Object.values(SERVER_USERS);

/**
 * Whose lines a search wants: `people` (users signed in to the app), `server` (this server's own work,
 * and the log's notes, which name no user); neither: every line.
 */
export const AUDIT_WHO = ['people', 'server'] as const;
export type AuditWho = (typeof AUDIT_WHO)[number];

/** Whether a line's user is this server at its own work (or no user at all: a note of the log). */
export function isServerWork(user: string | null): boolean {
  return user === null || SERVER_USER_NAMES.includes(user);
}

/** The detail a lookup fetched: the full record, the status level by the status key, or reduced here. */
export const AUDIT_LEVELS = ['full', 'status', 'stripped'] as const;
export type AuditLevel = (typeof AUDIT_LEVELS)[number];

/** Rows per page of the audit page; at most this many. */
export const AUDIT_PAGE_SIZE = 50;
export const MAX_AUDIT_PAGE_SIZE = 200;
/** Most rows one CSV export holds: a larger trail is exported in parts, by time range. */
export const MAX_AUDIT_EXPORT_ROWS = 100_000;
/** How far back a candidate's Activity looks. */
export const ACTIVITY_DAYS = 90;
/** Most rows a candidate's Activity shows. */
export const MAX_ACTIVITY_ROWS = 100;

/** An ISO 8601 time with its offset, as the lines have them (`2026-11-22T09:00:00.000Z`). */
const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time, such as 2026-11-22T09:00:00Z' });
/** An id as an export takes one: the server compares it cut as the lines cut theirs (256 characters, audit-line.ts). */
/** The longest user or candidate id a search takes: longer than any name or id (the app's form says so before asking). */
export const AUDIT_TEXT_MAX = 1024;

const idText = z.string().check(z.minLength(1), z.maxLength(AUDIT_TEXT_MAX));

/** The audit page's filters (every one optional; each narrows), a page of rows at a time, newest first. */
export const auditQuerySchema = z.object({
  user: z.optional(z.string().check(z.minLength(1), z.maxLength(AUDIT_TEXT_MAX))),
  /** People's lines, or this server's own (SERVER_USERS, and lines of no user); by default both. */
  who: z.optional(z.enum(AUDIT_WHO)),
  /** The candidate: lines that name this refId, or this recordId (either matches when both are given). */
  refId: z.optional(idText),
  recordId: z.optional(idText),
  action: z.optional(z.enum(AUDIT_FILTER_ACTIONS)),
  level: z.optional(z.enum(AUDIT_LEVELS)),
  /** The environment's name. */
  env: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  /** From this time on (inclusive), and before this one (exclusive). */
  from: z.optional(isoTime),
  to: z.optional(isoTime),
  /** Where the last page ended (its answer's `next`): the next, older page. */
  cursor: z.optional(z.string().check(z.maxLength(1024))),
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_AUDIT_PAGE_SIZE))),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
/** The filters alone: what a search is about, without where its page starts. */
export type AuditFilter = Omit<AuditQuery, 'cursor' | 'limit'>;

/** A queue view's filters beyond its tab (its line's `overSla`, `attention`), in the words of the queue's toggles. */
export const QUEUE_ONLY = ['overSla', 'attention'] as const;
export const QUEUE_ONLY_WORDS: Record<(typeof QUEUE_ONLY)[number], string> = {
  overSla: 'over SLA only',
  attention: 'certificate needs attention',
};

/** One line of the trail as the page shows it and the CSV holds it. */
export const auditRowSchema = z.object({
  time: z.string(),
  /** The instance whose file holds the line (AUDIT_INSTANCE). */
  instance: z.string(),
  /** The SHA-256 of the line as written: the next line's `prev`, and how to find it in the file. */
  hash: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  user: z.nullable(z.string()),
  role: z.nullable(z.string()),
  env: z.nullable(z.string()),
  /** The candidate as the line names them (a lookup's id as asked, a hand-off's id, a webhook's refId). */
  kind: z.nullable(z.enum(LOOKUP_KINDS)),
  id: z.nullable(z.string()),
  level: z.nullable(z.enum(AUDIT_LEVELS)),
  /** What the browser was answered (HTTP), and its error code. */
  status: z.nullable(z.int()),
  code: z.nullable(z.string()),
  /** The address the request came from, as the server could believe it (TRUSTED_PROXIES). */
  client: z.nullable(z.string()),
  requestId: z.nullable(z.string()),
  /** The rest of the line in a few words: a reply's template, a list's filter, counted refusals. */
  detail: z.nullable(z.string()),
  /**
   * A page of the queue whose line names its candidates (it carried personal data: a compliance user's
   * view): the tab it showed, `all` or a status. A search by a candidate finds such a line by any of them.
   */
  queueTab: z.optional(z.string()),
  /**
   * Such a view's filters beyond its tab, as its line records them (the queue's toggles): without them a view
   * of "waiting, over SLA only" read as one of the whole Waiting tab. Absent for none, and in lines of before.
   */
  queueOnly: z.optional(z.array(z.enum(QUEUE_ONLY))),
  /**
   * The audit page's search only, on such a queue view's row: the candidates it showed, in the page's order,
   * each by the ids its row carried (at least one; a page holds at most 100), so that a lead reads whom it showed.
   */
  shown: z.optional(z.array(z.object({ refId: z.optional(z.string()), recordId: z.optional(z.string()) }))),
  /**
   * The audit page's search only: the line stands after a break in its instance's hash chain (by its place
   * in the file, or in the table's order, not by its time), so the chain no longer vouches for it.
   */
  unvouched: z.optional(z.literal(true)),
  /** A full lookup's row: what its answer held, by its request's closing line, or that it was cut short (audit-held.ts). */
  ...HELD_ROW_FIELDS,
});
export type AuditRow = z.infer<typeof auditRowSchema>;

/** How much of this instance's files a search read (without a database): its bounds, and where it stopped. */
export const searchedSchema = z.object({
  lines: z.int(),
  /** Every file was read to its first line (false: a bound stopped it; `next` goes on from there). */
  complete: z.boolean(),
  /** The oldest line read. */
  reachedBack: z.optional(z.string()),
  /** Why it stopped before the end: the lines or the time one request may read. */
  stoppedBy: z.optional(z.enum(['lines', 'time'])),
});
export type Searched = z.infer<typeof searchedSchema>;

/** Lines written to the file but not yet in the table (the database was away, or is catching up). */
export const indexLagSchema = z.object({
  instance: z.string(),
  lines: z.int(),
  /** The oldest line not yet in the table (absent while `unknownBefore` says it is not known). */
  since: z.optional(z.string()),
  /**
   * The database has not answered since this server started (this time): where indexing stood is not known,
   * so `lines` counts only the lines written since, and lines written before may be missing too. "At least".
   */
  unknownBefore: z.optional(z.string()),
  /** Why, when the table could not be written. */
  problem: z.optional(z.string()),
});
export type IndexLag = z.infer<typeof indexLagSchema>;

/**
 * Another instance whose last report is older than twice the report interval (stopped, or unable to
 * write the table): the lines it wrote after `since` (its last report) may be missing from the table,
 * uncounted, so a search of the table may lack them.
 */
export const notReportingSchema = z.object({ instance: z.string(), since: z.string() });
export type NotReporting = z.infer<typeof notReportingSchema>;

/** Where the answer was read: the table (DATABASE_URL), or this instance's files. */
export const auditSourceSchema = z.object({
  kind: z.enum(['database', 'files']),
  /** Files read although a database is configured: why (it is unreachable). */
  fallback: z.optional(z.string()),
  /** Lines not in the table yet: this instance's, and others' as they reported them. */
  behind: z.optional(z.array(indexLagSchema)),
  /** Other instances not reporting: their lines after their last report may be missing from the table. */
  notReporting: z.optional(z.array(notReportingSchema)),
});

export const auditSearchAnswerSchema = z.object({
  rows: z.array(auditRowSchema),
  /** The next, older page; none at the end. */
  next: z.optional(z.string()),
  source: auditSourceSchema,
  searched: z.optional(searchedSchema),
  /**
   * The search named the candidate by one id, and this server's queue index knows their other: the lines
   * asked by that one were searched too (a lookup's line names the id it was asked with).
   */
  alsoSearched: z.optional(z.object({ refId: z.optional(z.string()), recordId: z.optional(z.string()) })),
  /**
   * The search by `user` found no line (its first page): people's names in the trail that contain the
   * typed text, capitals ignored as the search ignores them, at most 5, in alphabetical order; none when no name does.
   */
  similarUsers: z.optional(z.array(z.string()).check(z.maxLength(5))),
});
export type AuditSearchAnswer = z.infer<typeof auditSearchAnswerSchema>;

/** `POST /api/activity` (`/api/e/<name>/activity`): a candidate's trail in that environment, by either id. */
export const activityRequestSchema = z.object({
  refId: z.optional(idText),
  recordId: z.optional(idText),
});

export const activityAnswerSchema = z.object({
  rows: z.array(auditRowSchema),
  /** The oldest time looked at (ACTIVITY_DAYS ago). */
  since: z.string(),
  /** More rows than MAX_ACTIVITY_ROWS: the oldest are left out. */
  more: z.boolean(),
  source: auditSourceSchema,
  searched: z.optional(searchedSchema),
});
export type ActivityAnswer = z.infer<typeof activityAnswerSchema>;

/** The audit page's routes (leads only); `/api/activity` is an environment's route. */
export const AUDIT_PATHS = {
  search: '/api/audit/search',
  export: '/api/audit/export',
  status: '/api/audit/status',
} as const;
