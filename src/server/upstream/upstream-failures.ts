import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { ApiErrorCode } from '../../kyc/contract/api-errors.ts';
import { ApiFailure, type FailureDetails } from '../http/api-failure.ts';
import { misconfigured } from './not-found.ts';
import type http from 'node:http';
import type { KeySearch } from '../answer/key-watch.ts';
import type { ServiceSettings } from '../answer/not-a-record.ts';
import { responseTooLarge } from '../answer/too-large.ts';
import { quoted, saidInEnvelope, type ServiceMessage, type ServiceSaid } from './service-message.ts';
import { waitWords } from './service-wait.ts';
import type { KeySettings } from '../config/environments.ts';

/**
 * What the service's error answers and a failed connection mean, in the words the browser gets
 * (upstream-client.ts asks).
 */

/** What an error status means, with what its answer said. */
export type FailureOfStatus = (status: number, said: ServiceSaid) => ApiFailure;

/** The key a request was sent with, and where it is set (when known): what a 401 or 403 names. */
export interface KeyInUse {
  level: 'full' | 'status';
  settings?: KeySettings | undefined;
}

/** Which key a request of `scope` is sent with: the full one stands in for a status key not configured. */
export function keyInUse(target: { statusApiKey?: string; keySettings?: KeySettings }, scope: 'full' | 'status'): KeyInUse {
  return { level: scope === 'status' && target.statusApiKey ? 'status' : 'full', settings: target.keySettings };
}

/** The setting that holds the key in use: the status key's for a status-level request that went with it, else the full key's. */
function keySettingOf(key: KeyInUse, settings: KeySettings): string {
  return (key.level === 'status' ? settings.status : undefined) ?? settings.full;
}

/**
 * The environment's settings an answer that is no record tells an administrator to check (not-a-record.ts):
 * its base URL's and the key's, as it names them; undefined where they are not known (a test's target).
 */
export function serviceSettingsOf(key: KeyInUse): ServiceSettings | undefined {
  return key.settings && { baseUrl: key.settings.baseUrl, key: keySettingOf(key, key.settings) };
}

/** What the browser is told when the service answers with an error status. */
export function failureOfStatus(
  status: number,
  request: { kind: LookupKind; id: string },
  said: ServiceSaid = {},
  key?: KeyInUse,
): ApiFailure {
  if (status === 404 && said.notFound) return misconfigured(said.notFound);
  if (status === 404) return new ApiFailure('not_found', `No candidate with ${request.kind} "${request.id}".`);
  return failureOfServiceStatus(status, said, key);
}

/** The list operation's errors: a 404 means this service does not offer it (its path holds no id). */
export function failureOfListStatus(status: number, said: ServiceSaid = {}, key?: KeyInUse): ApiFailure {
  // A web page is what a service without the list answers too: only the client named tells the two apart.
  if (status === 404 && said.notFound === 'client') return misconfigured(said.notFound);
  if (status === 404) return new ApiFailure('applicants_unavailable', 'This KYC service does not offer the applicants list.');
  return failureOfServiceStatus(status, said, key);
}

/** An answer whose declared length is over the limit: refused before a byte of it is read. */
export function declaredTooLarge(upstreamRes: http.IncomingMessage, maxResponseBytes: number): ApiFailure | undefined {
  if (!(Number(upstreamRes.headers['content-length']) > maxResponseBytes)) return undefined;
  return responseTooLarge(maxResponseBytes);
}

/**
 * A successful answer whose body is the service's error envelope, `{"status":"error","message":"Resource
 * not Found","code":404}`: the service states an error in it, whatever its status line says, so it is read
 * as that error, never as a record. Its `code`, when it is an error status (400 to 599), is answered as the
 * same status would be (a 404: no such candidate); without one, as an error naming the service's message.
 * A stated 401 or 403 names the key the request went with (`scope`) and its setting, as the same HTTP
 * status does: it named the quick start's variables, also in CONFIG_FILE mode and for the status key.
 * `value`: the envelope as the answer's reader built it (its `status`, `message`, `code`, `extra`);
 * `cut`: only its first bytes were read.
 */
export function statedErrorOf(
  request: { kind: LookupKind; id: string; scope: 'full' | 'status' },
  headers: http.IncomingHttpHeaders,
  upstream: { keys: KeySearch; statedWait(seconds: number): void; keyInUse(scope: 'full' | 'status'): KeyInUse },
) {
  return (value: unknown, cut = false): ApiFailure => {
    const status = statedStatus(value);
    const said = saidInEnvelope(headers, status, value, upstream.keys, cut);
    if (status === undefined)
      return quotingFailure('upstream_error', (quote) => `The KYC service answered with an error${quote}.`, said.message);
    const failure = failureOfStatus(status, request, said, upstream.keyInUse(request.scope));
    // A stated 429 holds the environment back as a real one does: the next lookup is not sent into it.
    if (status === 429 && failure.retryAfterSeconds !== undefined) upstream.statedWait(failure.retryAfterSeconds);
    return failure;
  };
}

/**
 * A page of the applicants list whose body is the service's error envelope (`"status":"error"`) stating
 * an error status in its `code`, whatever its status line says: read as that status would be on the status
 * line (failureOfListStatus, with the envelope's message and wait), as the lookups read it (statedErrorOf).
 * Read only as its reason before ("refused the applicants list"): a stated 429 held no wait, so the crawler
 * asked again at once; a stated 401 named no key; a stated 400 to an undocumented filter failed the whole
 * queue view instead of leaving that tab out. Undefined for any other body.
 */
export function statedListError(
  value: unknown,
  headers: http.IncomingHttpHeaders,
  keys: KeySearch,
  key: KeyInUse,
): { status: number; failure: ApiFailure } | undefined {
  if ((value as { status?: unknown } | undefined)?.status !== 'error') return undefined;
  const status = statedStatus(value);
  if (status === undefined) return undefined;
  return { status, failure: failureOfListStatus(status, saidInEnvelope(headers, status, value, keys, false), key) };
}

/** The envelope's `code` as an error status: a whole number (or its digits) from 400 to 599; undefined for any other. */
function statedStatus(value: unknown): number | undefined {
  const code = typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
  const status = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  return status !== undefined && Number.isInteger(status) && status >= 400 && status <= 599 ? status : undefined;
}

/**
 * Gateway statuses: the service, or what stands before it, is down or overloaded for now. A wait they
 * give is passed on, for the page to say when to try again; it is not the service's 429 wait, which
 * holds every request of the environment back (service-wait.ts).
 */
const AWAY_STATUSES = new Set([502, 503, 504]);

/**
 * Error statuses that mean the same whatever was asked: the key refused, a rate limit, anything else.
 * The service's own message, when it gave one, is quoted (service-message.ts), for compliance users only
 * (quotingFailure).
 */
function failureOfServiceStatus(status: number, said: ServiceSaid, key?: KeyInUse): ApiFailure {
  const { waitSeconds } = said;
  if (status === 401 || status === 403) return rejectedKey(status, said, key);
  if (status === 429) {
    // Only the service's own word on when: without it, a batch backs off by itself (1, 2, 4 s…) and the
    // page asks to wait a minute. A made-up 60 s here held every batch up for a minute.
    const limiting = (quote: string) => `The KYC service is limiting requests (HTTP 429)${quote}.`;
    if (waitSeconds === undefined) {
      return quotingFailure('upstream_rate_limited', (quote) => `${limiting(quote)} Wait a minute, then try again.`, said.message);
    }
    // A wait longer than this server keeps is said as asked, beside the one kept (service-wait.ts).
    const when = waitWords(waitSeconds, said.askedSeconds);
    return quotingFailure('upstream_rate_limited', (quote) => `${limiting(quote)} ${when}`, said.message, {
      retryAfterSeconds: waitSeconds,
    });
  }
  const worded = WORDED[status];
  if (worded) return worded(said);
  const answered = (quote: string) => `The KYC service answered with an error (HTTP ${status})${quote}.`;
  if (AWAY_STATUSES.has(status) && waitSeconds !== undefined) {
    return quotingFailure('upstream_error', (quote) => `${answered(quote)} It asked to be tried again in ${waitSeconds} s.`, said.message, {
      upstreamStatus: status,
      retryAfterSeconds: waitSeconds,
    });
  }
  return quotingFailure('upstream_error', answered, said.message, { upstreamStatus: status });
}

/**
 * A 401 or 403: the key sent, named by its level, its environment and the setting that holds it, so that
 * an administrator checks the right one (a rejected status key was said as "check KYC_API_KEY", also in
 * CONFIG_FILE mode, where no such variable is set), whether the status came on the status line or in a
 * 200's error envelope (statedErrorOf). Without where it is set (a test's target): the quick start's names.
 */
function rejectedKey(status: number, said: ServiceSaid, key: KeyInUse | undefined): ApiFailure {
  const settings = key?.settings;
  const which = key === undefined ? 'API key' : key.level === 'status' ? 'status-level API key' : 'full API key';
  const where = settings ? ` of the environment "${settings.environment}"` : '';
  const keySetting = key && settings ? keySettingOf(key, settings) : 'KYC_API_KEY';
  return quotingFailure(
    'upstream_unauthorized',
    (quote) =>
      `The KYC service rejected this server's ${which}${where} (HTTP ${status})${quote}. An administrator must check ${keySetting} and ${settings?.clientId ?? 'KYC_CLIENT_ID'}.`,
    said.message,
  );
}

/**
 * 4xx statuses that the generic sentence would misdescribe: under the contract's titles (api-errors.ts) a
 * 4xx upstream_error reads as the service refusing the request itself, which trying again will not change.
 * A 408 says the service gave up waiting for the request (a kept-alive socket it was closing, a slow
 * link): a timeout between the two, that trying again usually gets past. A 409 says the request
 * conflicts with the state of what the service holds, not that it is malformed.
 */
const WORDED: Record<number, (said: ServiceSaid) => ApiFailure> = {
  408: (said) =>
    quotingFailure(
      'upstream_timeout',
      (quote) => `The KYC service timed out waiting for this server's request (HTTP 408)${quote}.`,
      said.message,
    ),
  409: (said) =>
    quotingFailure(
      'upstream_error',
      (quote) => `The KYC service reported a conflict with the current state of what was asked for (HTTP 409)${quote}.`,
      said.message,
      { upstreamStatus: 409 },
    ),
};

/**
 * A failure whose sentence quotes the service's message: `worded(quote)` is the sentence with the quote,
 * and without it the failure's `ownMessage`, all that logs, the queue index and support users get of it
 * (api-failure.ts): whatever answered wrote the message, and it may name a candidate.
 */
export function quotingFailure(
  code: ApiErrorCode,
  worded: (quote: string) => string,
  message: ServiceMessage | undefined,
  details: FailureDetails = {},
): ApiFailure {
  return new ApiFailure(code, worded(quoted(message)), { ...details, ownMessage: worded('') });
}

/**
 * An answer Node's HTTP parser refused (`HPE_…`): headers over its 16 KiB, a length given twice or
 * beside chunks, a status line that is none. The service was reached, so it is not said to be away (the
 * batch would stop, and a reviewer would wait for it to come back): what it sent cannot be read.
 */
export function malformedAnswer(error: NodeJS.ErrnoException): ApiFailure | undefined {
  if (typeof error.code !== 'string' || !error.code.startsWith('HPE_')) return undefined;
  const what = MALFORMED[error.code] ?? `it is not a readable HTTP answer (${error.code})`;
  return new ApiFailure(
    'upstream_error',
    `The KYC service answered, but its answer could not be read: ${what}. An administrator must check what stands in front of it.`,
  );
}

const MALFORMED: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'its headers are larger than this server reads (16 KiB)',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'it gives its length twice, or a length beside chunks',
};

export function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'network unreachable';
    default:
      return error.code ?? 'network error';
  }
}
