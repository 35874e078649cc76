import { applicantsApiBase } from './environment-paths.ts';
import { idlessSchema } from './idless.ts';
import { z } from './zod.ts';

/**
 * The applicants list (the reviewers' queue): the service's list operation
 * `GET .../connect/<client_id>/applicants/<status>?skip=&limit=`, and this project's `/api/applicants`,
 * which passes on status-level fields only (and, to compliance users, the name a whole record holds).
 */

/**
 * The filters asked of the service: the documented ones and the other statuses, which a service may or
 * may not accept (one it refuses with 400 or 404 is answered `404 applicants_unavailable` naming the
 * filter, and its tab is not offered). Without one the service lists every candidate, whatever its status.
 */
export const APPLICANT_FILTERS = ['waiting', 'inreview', 'review_requested', 'approved', 'rejected', 'blocked', 'incomplete'] as const;
export type ApplicantFilter = (typeof APPLICANT_FILTERS)[number];
/**
 * The filters the service's current documentation lists: always offered. Older notes listed only the
 * first three; `review_requested` is in a newer copy only, so a service that refuses it is not broken
 * (its tab is left out), and `incomplete` is in none.
 */
export const DOCUMENTED_FILTERS: readonly ApplicantFilter[] = ['waiting', 'inreview', 'approved', 'rejected', 'blocked'];
/** The statuses reviewers work through: ordered by age, oldest first (the queue index knows their dates). */
export const AGE_ORDERED_FILTERS: readonly ApplicantFilter[] = ['waiting', 'inreview', 'review_requested'];

export { statusDateField, statusDateFields } from './status.ts';

/** Rows per page in the viewer. */
export const APPLICANTS_PAGE_SIZE = 50;
/** The most asked of the service in one request (its own maximum is not documented). */
export const APPLICANTS_MAX_LIMIT = 100;
/** Far beyond any real queue; keeps the number a plain integer all the way to the service. */
export const APPLICANTS_MAX_SKIP = 10_000_000;

export function isApplicantFilter(value: string): value is ApplicantFilter {
  return (APPLICANT_FILTERS as readonly string[]).includes(value);
}

const count = z.union([
  z.int().check(z.nonnegative()),
  // Counts sent as digit strings are still counts.
  z.pipe(
    z.string().check(z.regex(/^\d{1,15}$/, 'expected a count')),
    z.transform((text) => Number(text)),
  ),
]);

/**
 * The service's list. Its records are read one by one (list-record.ts: `readListRecord`), tolerantly:
 * published list records differ in shape, and one record the app cannot read must not cost the page.
 * An envelope without `status` is read as a candidate's is; one without `total` is read to the page that
 * comes back empty (crawler-pages.ts). `"status": "error"` is refused.
 */
export const upstreamApplicantsEnvelopeSchema = z.object({
  status: z.optional(z.literal('success')),
  data: z.looseObject({
    records: z.array(z.unknown()),
    total: z.optional(count),
    skip: z.optional(count),
    limit: z.optional(count),
  }),
});

/**
 * What `/api/applicants` answers per record: the listed fields and nothing else. Only `status` and one of
 * the ids are sure to be there: every other field may be absent, as in the service's own records.
 */
export const applicantSchema = z.object({
  status: z.string(),
  isArchived: z.optional(z.boolean()),
  recordId: z.optional(z.string()),
  refId: z.optional(z.string()),
  blockPassID: z.optional(z.string()),
  /** The spec's name for `blockPassID`, where a service sends that (service-id.ts: both when both come and differ). */
  serviceID: z.optional(z.string()),
  /** Since when the candidate has its status (its `<status>Date`): the record's own, or the queue index's. */
  since: z.optional(z.string()),
  /** Without `since`: the service's record was read and holds no date of its status (none will come). */
  dateless: z.optional(z.literal(true)),
  /** The candidate's name, for compliance users only: no longer sent (the queue is read from an index without personal data). */
  name: z.optional(z.string()),
  /**
   * For compliance users, when one of their lookups showed it: the worst outcome of the candidate's
   * certificates, as the decision summary reads it (`clear`, `consider`, `potential_match`…).
   */
  certificate: z.optional(z.string()),
  /** For compliance users, when one of their lookups showed it: whether the record holds pictures. */
  pictures: z.optional(z.boolean()),
  /** The fields present in the service's record that could not be read, each with what was expected (never the value). */
  unreadable: z.optional(z.record(z.string(), z.string())),
  /** Its presence rooms (a keyed hash of each id, made by the server): who else has it open is matched by them. */
  rooms: z.optional(z.array(z.string())),
});
export type Applicant = z.infer<typeof applicantSchema>;

/** The records of the service's answer that could not be read at all (no status, no usable id): counted, and why. */
export const skippedSchema = z.object({
  count: z.int().check(z.positive()),
  reasons: z.array(z.string()),
});
export type Skipped = z.infer<typeof skippedSchema>;

/**
 * How the list is ordered: by the date each candidate entered its status, across the whole tab (`known`
 * of `of` candidates have a real date; the rest follow, in the order the service listed them, until
 * theirs is looked up, but for `noDate` whose record has none to give and `future` dated in the future); oldest first, or `newestFirst` (the decisions' tabs); All `byStatus`: each
 * status in the tabs' order, each ordered as its tab. `service`: the service's own order (servers
 * before issue 32, above their bound).
 */
export const queueOrderSchema = z.union([
  z.object({
    by: z.literal('age'),
    known: z.int().check(z.nonnegative()),
    of: z.int().check(z.nonnegative()),
    /** Of the others: those whose record holds no date, or a placeholder (none is to come from a lookup). */
    noDate: z.optional(z.int().check(z.positive())),
    /** Of the others: those dated in the future (date-doubt.ts), placed by that date. */
    future: z.optional(z.int().check(z.positive())),
    newestFirst: z.optional(z.literal(true)),
    byStatus: z.optional(z.literal(true)),
  }),
  z.object({ by: z.literal('service'), over: z.optional(z.int().check(z.nonnegative())) }),
]);
export type QueueOrder = z.infer<typeof queueOrderSchema>;

/** The queue's tabs: all candidates, then every filter. */
export const QUEUE_TAB_KEYS = ['all', ...APPLICANT_FILTERS] as const;
export type QueueTabKey = (typeof QUEUE_TAB_KEYS)[number];
export const queueTabKey = (filter: ApplicantFilter | undefined): QueueTabKey => filter ?? 'all';

const tabKeySchema = z.enum(QUEUE_TAB_KEYS);
/** `unavailable`: its read failed; `unread`: never read whole yet, with nothing known (no claim that it holds none). */
const tabCountSchema = z.union([z.int().check(z.nonnegative()), z.literal('unavailable'), z.literal('unread')]);
const queueCountsShape = {
  counts: z.optional(z.partialRecord(tabKeySchema, tabCountSchema)),
  /** Per tab, how many of its candidates are over the SLA, where known. */
  overSlaByTab: z.optional(z.partialRecord(tabKeySchema, z.int().check(z.nonnegative()))),
  /** The tabs whose over-SLA count is a floor (some dates unknown): at least that many. */
  overSlaPartialTabs: z.optional(z.array(tabKeySchema)),
  /** The filters the service refused (400 or 404 to an undocumented one): their tabs are not offered. */
  refused: z.optional(z.array(z.enum(APPLICANT_FILTERS))),
};

/**
 * How current the queue index is for the tab (issue 32: a view is read from the index, never from the
 * service): `at` the answer's time, `asOf` when the crawler last finished reading the tab whole from the
 * service (webhooks and lookups keep it current between); `crawling` while it has never been read whole
 * (what is known is shown, `read` of `listed` rows read so far); `error` what the service answered the
 * crawler's last try, when it failed (or was not made: `withheld`).
 */
export const queueIndexStateSchema = z.object({
  at: z.string(),
  asOf: z.optional(z.string()),
  crawling: z.optional(z.literal(true)),
  read: z.optional(z.int().check(z.nonnegative())),
  listed: z.optional(z.int().check(z.nonnegative())),
  dated: z.int().check(z.nonnegative()),
  /** The rows whose date is known or still to come: a status the service never dates (incomplete) is not among them. */
  of: z.int().check(z.nonnegative()),
  /** The tab's rows of a status the service never dates (incomplete), when there are any. */
  undated: z.optional(z.int().check(z.positive())),
  /**
   * `withheld`: nothing was asked, to keep identity data (the list would be read with a key that may delete it).
   * `until`: the end of the wait the failure named (the service's 429, or a gateway's 503 that names one), while it
   * runs: the list is read again after it.
   */
  error: z.optional(
    z.object({ message: z.string(), at: z.string(), withheld: z.optional(z.literal(true)), until: z.optional(z.string()) }),
  ),
  /** The service answered the crawler's list 429: no page of it is asked before `until`. */
  limited: z.optional(z.object({ until: z.string() })),
});
export type QueueIndexState = z.infer<typeof queueIndexStateSchema>;

export const applicantsPageSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    records: z.array(applicantSchema),
    total: z.int().check(z.nonnegative()),
    skip: z.int().check(z.nonnegative()),
    limit: z.int().check(z.positive()),
    order: z.optional(queueOrderSchema),
    /** The environment's SLA in hours (none: no SLA), and how many of the whole list are over it, where known. */
    slaHours: z.optional(z.number().check(z.positive())),
    overSla: z.optional(z.int().check(z.nonnegative())),
    /** `overSla` counts only the known dates (some are not yet known, or the tab is too long to read whole): at least that many. */
    overSlaPartial: z.optional(z.literal(true)),
    /** Records of the service's answer left out because they could not be read (no status, no usable id). */
    skipped: z.optional(skippedSchema),
    /**
     * The tab's candidates the service listed with a status but no id (idless.ts), by status: counted in
     * `counts` and the over-SLA figures, never rows (nothing can open them here).
     */
    idless: z.optional(z.array(idlessSchema)),
    /** Asked with `counts=1`: every tab's count (`unavailable` when it could not be read), over-SLA counts and refused filters. */
    ...queueCountsShape,
    /** Asked with `counts=1` by a compliance user: per tab, how many candidates have a certificate needing attention, where known. */
    attentionByTab: z.optional(z.partialRecord(tabKeySchema, z.int().check(z.nonnegative()))),
    /** The filters the page was asked with (`overSla=1`, `attention=1`): `total` counts the rows they keep. */
    only: z.optional(z.array(z.enum(['overSla', 'attention']))),
    /** How current the index the page was read from is (servers since issue 32). */
    index: z.optional(queueIndexStateSchema),
  }),
});
export type ApplicantsPage = z.infer<typeof applicantsPageSchema>['data'];

export interface ApplicantsQuery {
  /** Undefined: all candidates. */
  status: ApplicantFilter | undefined;
  skip: number;
  limit: number;
  /** With every tab's count, over-SLA count and the refused filters (`counts=1`): the whole view in one request. */
  counts?: boolean;
  /** Only the rows over the SLA (`overSla=1`; a tab whose status has an SLA: waiting, inreview, review_requested). */
  overSla?: boolean;
  /** Only the rows whose certificate needs attention, as known from a lookup (`attention=1`; compliance users). */
  attention?: boolean;
}

export type ApplicantsQueryCheck = { ok: true; query: ApplicantsQuery } | { ok: false; message: string };

const QUERY_PARAMETERS = new Set(['status', 'skip', 'limit', 'counts', 'overSla', 'attention']);

/** Checks `?status=&skip=&limit=&counts=&overSla=&attention=` of `/api/applicants`: a documented filter, numbers in range, nothing else. */
export function checkApplicantsQuery(params: URLSearchParams): ApplicantsQueryCheck {
  for (const name of new Set(params.keys())) {
    if (!QUERY_PARAMETERS.has(name))
      return { ok: false, message: `Unknown parameter "${name.slice(0, 40)}": use status, skip, limit, counts, overSla and attention.` };
    if (params.getAll(name).length > 1) return { ok: false, message: `The parameter "${name}" is given more than once.` };
  }
  const status = params.get('status') ?? '';
  if (status !== '' && !isApplicantFilter(status)) {
    return { ok: false, message: `status must be one of ${APPLICANT_FILTERS.join(', ')}, or empty for all candidates.` };
  }
  const skip = integerParameter(params.get('skip'), 0, 0, APPLICANTS_MAX_SKIP);
  if (skip === undefined) return { ok: false, message: `skip must be a whole number from 0 to ${APPLICANTS_MAX_SKIP}.` };
  const limit = integerParameter(params.get('limit'), APPLICANTS_PAGE_SIZE, 1, APPLICANTS_MAX_LIMIT);
  if (limit === undefined) return { ok: false, message: `limit must be a whole number from 1 to ${APPLICANTS_MAX_LIMIT}.` };
  const flags: Record<'counts' | 'overSla' | 'attention', boolean> = { counts: false, overSla: false, attention: false };
  for (const [name, meaning] of FLAGS) {
    const value = params.get(name);
    if (value !== null && value !== '0' && value !== '1') return { ok: false, message: `${name} must be 1 (${meaning}) or 0.` };
    flags[name] = value === '1';
  }
  const filter = status === '' ? undefined : status;
  if (flags.overSla && !AGE_ORDERED_FILTERS.some((one) => one === filter)) {
    return { ok: false, message: `overSla=1 needs the status of a queue with an SLA: ${AGE_ORDERED_FILTERS.join(', ')}.` };
  }
  const query: ApplicantsQuery = { status: filter, skip, limit };
  for (const name of ['counts', 'overSla', 'attention'] as const) if (flags[name]) query[name] = true;
  return { ok: true, query };
}

/** The parameters that are 1 or 0, and what 1 asks for (the message of a wrong value says it). */
const FLAGS: ReadonlyArray<['counts' | 'overSla' | 'attention', string]> = [
  ['counts', 'with every tab’s count'],
  ['overSla', 'only the rows over the SLA'],
  ['attention', 'only the rows whose certificate needs attention'],
];

function integerParameter(text: string | null, fallback: number, min: number, max: number): number | undefined {
  if (text === null || text === '') return fallback;
  if (!/^\d{1,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/** `/api/applicants?...` (or `/api/e/<name>/applicants?...`); the filter is left out for all candidates. Never an id. */
export function applicantsApiPath(query: ApplicantsQuery, environment?: string): string {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  params.set('skip', String(query.skip));
  params.set('limit', String(query.limit));
  if (query.counts) params.set('counts', '1');
  if (query.overSla) params.set('overSla', '1');
  if (query.attention) params.set('attention', '1');
  return `${applicantsApiBase(environment)}?${params}`;
}

/** The service's path, below `<base>/kyc/1.0/connect/<client_id>/`. */
export function upstreamApplicantsPath(query: ApplicantsQuery): string {
  return `applicants${query.status ? `/${query.status}` : ''}?skip=${query.skip}&limit=${query.limit}`;
}
