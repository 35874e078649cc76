import { candidatePath, environmentPath, QUEUE_PATH } from '../routes.ts';
import {
  AGE_ORDERED_FILTERS,
  APPLICANTS_MAX_SKIP,
  APPLICANTS_PAGE_SIZE,
  type Applicant,
  isApplicantFilter,
  type ApplicantFilter,
} from '../../kyc/contract/applicants.ts';

/** The queue's state in the address: `?status=&page=&overSla=1&attention=1` (a filter, a page number and the toggles, never an id). */
export interface QueueLocation {
  filter: ApplicantFilter | undefined;
  /** From 1. */
  page: number;
  /** Only the rows over the SLA (a tab of a status with an SLA: waiting, inreview, review_requested). */
  overSla?: boolean;
  /** Only the rows whose certificate needs attention (compliance users). */
  attention?: boolean;
}

const MAX_PAGE = Math.floor(APPLICANTS_MAX_SKIP / APPLICANTS_PAGE_SIZE) + 1;

/** Anything unexpected in the address falls back to all candidates, first page. */
export function readQueueLocation(params: URLSearchParams): QueueLocation {
  const status = params.get('status') ?? '';
  const pageText = params.get('page') ?? '';
  const page = /^\d{1,9}$/.test(pageText) ? Number(pageText) : 1;
  const filter = isApplicantFilter(status) ? status : undefined;
  // Over the SLA only where there is one: on another tab the toggle is not offered, and an old link's is left out.
  const overSla = params.get('overSla') === '1' && filter !== undefined && AGE_ORDERED_FILTERS.includes(filter);
  const attention = params.get('attention') === '1';
  return {
    filter,
    page: page >= 1 && page <= MAX_PAGE ? page : 1,
    ...(overSla ? { overSla: true } : {}),
    ...(attention ? { attention: true } : {}),
  };
}

/** The queue's address; in another environment than the default, under `/e/<name>`. */
export function queueHref({ filter, page, overSla, attention }: QueueLocation, environment?: string): string {
  const params = new URLSearchParams();
  if (filter) params.set('status', filter);
  if (page > 1) params.set('page', String(page));
  if (overSla) params.set('overSla', '1');
  if (attention) params.set('attention', '1');
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
