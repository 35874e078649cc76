import { LIST_KEY_CHECK_ADVICE } from '../../kyc/contract/list-key-check.ts';
import type { ArchivingGuard } from '../archiving/archiving-guard.ts';
import { ApiFailure } from '../http/api-failure.ts';
import type { Logger } from '../log/log.ts';

/**
 * The queue's crawler and the full key: the one rule of both its requests, a list page (crawler-list.ts)
 * and a lookup of a date the list lacks (queue-lookup.ts). Without a status-level key they go with the full
 * key, and the current documentation's list records are whole: with a key that archives after extract, one
 * page read would start the deletion of every candidate on it, one lookup that of a candidate nobody opened.
 * So the full key is used only once a user's full lookup in this process has shown that it keeps data
 * (`shownSafe`), and never while the finding that it archives stands, even where the operator accepts that
 * ("accept" lets reviewers' lookups delete what they open, not every candidate of a list), nor while that
 * finding cannot be read. The finding is read once per request, its warnings going to `log`.
 *
 * Undefined: the crawler may send it; else why not, as the queue's tab says it (nothing is sent, so
 * nothing is audited; the tab is read again as any failed read is). While no lookup has shown the key
 * safe because the last one that would have could not reach the service, was not answered in time, was
 * answered with an error status (5xx), had the key rejected (401), was redirected (3xx: the base URL
 * moved), was answered that the client id or the address is wrong (upstream_misconfigured) or was told
 * to wait (429), that is why, in the lookup's own words: the queue then says so, as the candidate page
 * does, not that a key check is missing, which was false and hid the cause an administrator must fix.
 */
export async function crawlerFullKeyWithheld(
  deps: { hasStatusKey: boolean; archiving: ArchivingGuard },
  log: Logger,
): Promise<ApiFailure | undefined> {
  if (deps.hasStatusKey) return undefined;
  const { refusal, found } = await deps.archiving.finding(log);
  // The finding cannot be read (its file, or Redis away): said as it is, not as a key that archives.
  if (refusal && refusal.code !== 'archiving_key') return refusal;
  if (refusal || found) return LIST_WOULD_ARCHIVE;
  if (deps.archiving.shownSafe()) return undefined;
  const failed = deps.archiving.checkFailed();
  return failed && serviceAway(failed) ? failed : LIST_NOT_SHOWN_SAFE;
}

/**
 * The service away, slow, failing or limiting, the key rejected, or this server not set up right for it
 * (its address moved, or the client id or the address is wrong): a check it failed so would fail the same
 * until the service is back, its wait is over or an administrator acts. A 4xx upstream_error is not: it
 * refused that lookup as asked, which says nothing of the next one.
 */
const SAID_AS_IT_IS: ReadonlySet<string> = new Set([
  'upstream_unreachable',
  'upstream_timeout',
  'upstream_unauthorized',
  'upstream_redirected',
  'upstream_misconfigured',
  'upstream_rate_limited',
]);

function serviceAway(failure: ApiFailure): boolean {
  if (SAID_AS_IT_IS.has(failure.code)) return true;
  return failure.code === 'upstream_error' && (failure.upstreamStatus === undefined || failure.upstreamStatus >= 500);
}

const STATUS_KEY_ADVICE = 'An administrator can configure a status-level key (statusApiKeyEnv, or KYC_API_KEY_STATUS) for the list.';
const LIST_WOULD_ARCHIVE = new ApiFailure(
  'archiving_key',
  `The applicants list is not read: this environment's API key deletes identity data after extract, and without a status-level key the list would be read with it, every candidate on it deleted. ${STATUS_KEY_ADVICE}`,
);
const LIST_NOT_SHOWN_SAFE = new ApiFailure(
  'archiving_check_unavailable',
  `The applicants list is read once a lookup here has shown that the API key keeps identity data: without a status-level key it is read with the full key, and a key that archives after extract would delete every candidate on it. ${LIST_KEY_CHECK_ADVICE}`,
);
