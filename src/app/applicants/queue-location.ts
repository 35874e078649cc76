import { candidatePath, environmentPath, QUEUE_PATH } from '../routes.ts';
import {
  APPLICANTS_MAX_SKIP,
  APPLICANTS_PAGE_SIZE,
  type Applicant,
  isApplicantFilter,
  type ApplicantFilter,
} from '../../kyc/contract/applicants.ts';

/** The queue's state in the address: `?status=&page=` (a filter and a page number, never an id). */
export interface QueueLocation {
  filter: ApplicantFilter | undefined;
  /** From 1. */
  page: number;
}

const MAX_PAGE = Math.floor(APPLICANTS_MAX_SKIP / APPLICANTS_PAGE_SIZE) + 1;

/** Anything unexpected in the address falls back to all candidates, first page. */
export function readQueueLocation(params: URLSearchParams): QueueLocation {
  const status = params.get('status') ?? '';
  const pageText = params.get('page') ?? '';
  const page = /^\d{1,9}$/.test(pageText) ? Number(pageText) : 1;
  return { filter: isApplicantFilter(status) ? status : undefined, page: page >= 1 && page <= MAX_PAGE ? page : 1 };
}

/** The queue's address; in another environment than the default, under `/e/<name>`. */
export function queueHref({ filter, page }: QueueLocation, environment?: string): string {
  const params = new URLSearchParams();
  if (filter) params.set('status', filter);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  const path = environmentPath(environment, QUEUE_PATH);
  return search ? `${path}?${search}` : path;
}

/** Where a row leads: by recordId, or by refId when the service gave no recordId. */
export function applicantLink(applicant: Applicant, environment?: string): string | undefined {
  if (applicant.recordId) return environmentPath(environment, candidatePath('recordId', applicant.recordId));
  if (applicant.refId) return environmentPath(environment, candidatePath('refId', applicant.refId));
  return undefined;
}
