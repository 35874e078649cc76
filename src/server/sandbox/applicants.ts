import { APPLICANTS_MAX_LIMIT, isApplicantFilter } from '../../kyc/contract/applicants.ts';
import type { CandidateRecord } from '../../kyc/contract/schema.ts';
import type { ListShape } from '../config/file-schema.ts';
import { listRecordOf } from './list-shapes.ts';

/** The service's default page when no limit is given (not documented; 20 is a common choice). */
const DEFAULT_LIMIT = 20;

export type ListAnswer = { ok: true; body: unknown } | { ok: false; code: 400; message: string };

/** How the list answers: in which published shape (list-shapes.ts), and each record as the asking key's scope allows. */
export interface ListForm {
  shape: ListShape;
  whole: (record: CandidateRecord) => CandidateRecord;
}

/**
 * The list operation over the sandbox's candidates: `applicants[/<status>]?skip=&limit=`, in one of the
 * published shapes (the older notes' unless told). The sandbox accepts every status as a filter (the
 * documented ones and the others), so that each tab of the queue can be tried; an unknown one is refused
 * with 400, as a real service may.
 */
export function listApplicants(
  records: CandidateRecord[],
  filter: string | undefined,
  search: URLSearchParams,
  form: ListForm,
): ListAnswer {
  if (filter !== undefined && !isApplicantFilter(filter)) return { ok: false, code: 400, message: 'Invalid status' };
  const skip = count(search.get('skip'), 0);
  const limit = count(search.get('limit'), DEFAULT_LIMIT);
  if (skip === undefined || limit === undefined) return { ok: false, code: 400, message: 'Invalid skip or limit' };
  const matching = filter === undefined ? records : records.filter((record) => record.status === filter);
  // A limit above the maximum is served as the maximum, as list APIs commonly do.
  const served = Math.min(Math.max(limit, 1), APPLICANTS_MAX_LIMIT);
  const page = matching.slice(skip, skip + served).map((record) => listRecordOf(record, form.shape, form.whole));
  return { ok: true, body: { status: 'success', data: { records: page, total: matching.length, skip, limit: served } } };
}

function count(text: string | null, fallback: number): number | undefined {
  if (text === null || text === '') return fallback;
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}
