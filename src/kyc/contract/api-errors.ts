/**
 * Every error the proxy answers, once: its code, the one HTTP status that code goes out with, and a title
 * a reviewer can read (what went wrong, in a line). The server takes the status from here and never
 * passes one by hand (src/server/http/api-failure.ts); docs/api.md's table of errors is checked against it.
 * A code whose wait is always the same carries it: the answer then says so (`Retry-After` and
 * `retryAfterSeconds`) without each place that refuses having to remember.
 */
export interface ApiErrorInfo {
  status: number;
  title: string;
  retryAfterSeconds?: number;
}

export const API_ERRORS = {
  unauthenticated: { status: 401, title: 'Nobody is signed in' },
  sign_in_failed: { status: 401, title: 'Wrong username or password' },
  too_many_sign_in_attempts: { status: 429, title: 'Too many sign-ins' },
  rate_limited: { status: 429, title: 'Too many lookups' },
  /** A user holds as many live update streams (`GET /api/events`) on this server as allowed. */
  too_many_event_streams: { status: 429, title: 'Too many live update streams' },
  audit_unavailable: { status: 503, title: 'This lookup could not be recorded' },
  store_unavailable: { status: 503, title: 'Sign-in and lookups are paused', retryAfterSeconds: 5 },
  identity_provider_unavailable: { status: 502, title: 'The identity provider cannot be reached' },
  bad_request: { status: 400, title: 'The request is not valid' },
  /** A request body over its route's limit (a batch of more than 500 ids). */
  body_too_large: { status: 413, title: 'The request is too large' },
  /** A request body that did not arrive within its route's deadline (a webhook delivery, an API request's JSON, within 5 s): its connection is closed. */
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  /** A body that must be JSON was sent as something else (a form, text). */
  unsupported_media_type: { status: 415, title: 'The request must be JSON' },
  invalid_id: { status: 400, title: 'This id cannot be looked up' },
  not_found: { status: 404, title: 'No such candidate' },
  /**
   * Only ever in the audit log: the browser left (a page closed, a batch cancelled) before its answer,
   * so nothing was sent. 499, as proxies write it; a lead reads it as no fault of the service's.
   */
  cancelled: { status: 499, title: 'Cancelled: the browser left before the answer' },
  upstream_unauthorized: { status: 502, title: "The KYC service rejected this server's API key" },
  /** The service does not know the client id, or the address is not its API: no id would be found. */
  upstream_misconfigured: { status: 502, title: 'This server is not set up right for the KYC service' },
  /** The service's address answers with a redirect (3xx), never followed: its base URL moved. */
  upstream_redirected: { status: 502, title: "The KYC service's address has moved" },
  /** The service answered 204, no content: neither a record nor an error. */
  upstream_no_content: { status: 502, title: 'The KYC service answered with no content' },
  upstream_rate_limited: { status: 429, title: 'The KYC service is limiting requests' },
  upstream_error: { status: 502, title: "The KYC service's answer could not be used" },
  upstream_unreachable: { status: 502, title: 'The KYC service cannot be reached' },
  upstream_timeout: { status: 504, title: 'The KYC service did not answer in time' },
  response_too_large: { status: 502, title: 'The response is too large' },
  method_not_allowed: { status: 405, title: 'This route does not take that method' },
  no_such_route: { status: 404, title: 'No such API route' },
  no_such_environment: { status: 404, title: 'This environment does not exist here' },
  environment_forbidden: { status: 403, title: 'Your account may not use this environment' },
  /** A route for another role: the audit page is for leads, a candidate's Activity for compliance users and leads (issue 34). */
  role_forbidden: { status: 403, title: 'Your role may not open this' },
  /** This server's API key archives identity data after each full lookup: refused to keep data intact. */
  archiving_key: { status: 409, title: 'Full lookups are refused: this API key deletes identity data' },
  /**
   * A copy of a candidate this user was not answered a lookup of lately: its line names no id. A print is
   * recorded instead (marked), so only a copy meets it, on a page whose lookup has gone stale.
   */
  not_looked_up: { status: 409, title: "This page's lookup is too old to record a copy" },
  /** The KYC service does not offer the applicants list (404 on its path). */
  applicants_unavailable: { status: 404, title: 'The KYC service does not offer the applicants list' },
  not_from_app: { status: 403, title: "Not from Candidate Lookup's own pages" },
  proxied_request: { status: 403, title: 'Came through a proxy, and no sign-in is configured' },
  /** The API of a development server (the Vite plugin) did not start: nothing to do with the KYC service. */
  api_not_started: { status: 503, title: "The development server's API did not start" },
  /**
   * Whether this server's key deletes identity data is not known yet (the service is still sending another
   * full lookup's answer, which shows it, and this one's wait for its turn ran out) or could not be read
   * (its file): full lookups are held back.
   */
  archiving_check_unavailable: {
    status: 503,
    title: 'Full lookups are held back until the API key is checked',
    retryAfterSeconds: 5,
  },
  /** The KYC service's successful answer is not a readable candidate record (not JSON, or not one; perhaps encrypted). */
  not_a_record: { status: 502, title: 'The answer is not a readable record' },
  /**
   * Asked for one candidate, the service (or a cache or gateway in front of it) answered with the record of
   * another (its refId or recordId is not the one asked): refused, nothing of the record sent; the error
   * names the id it answered with.
   */
  other_candidate: { status: 502, title: 'The KYC service answered with another candidate' },
  /** This server holds as many answers in parts being built as its memory bound allows: try again shortly. */
  server_busy: { status: 503, title: 'This server is busy', retryAfterSeconds: 5 },
  /** A webhook delivery (issue 22) without its `X-Hub-Signature`, or with one that is not the body's HMAC with the secret. */
  webhook_signature_invalid: { status: 401, title: 'The webhook signature is missing or wrong' },
  /** A signed webhook delivery that is not JSON of a delivery's shape. */
  webhook_delivery_invalid: { status: 400, title: 'The webhook delivery cannot be read' },
  /** A signed webhook delivery for another client id than its environment's. */
  webhook_wrong_client: { status: 400, title: 'The webhook delivery is for another client' },
  /** Webhook deliveries from one address over the receiver's own limit. */
  webhook_rate_limited: { status: 429, title: 'Too many webhook deliveries' },
  /** A webhook delivery that could not be queued for processing (Redis unreachable, or the queue full): the service delivers it again later. */
  webhook_queue_unavailable: { status: 503, title: 'The webhook delivery could not be queued', retryAfterSeconds: 30 },
  /** Something in this server failed that no rule foresaw: the log has it under the request's id. */
  internal_error: { status: 500, title: 'Candidate Lookup failed unexpectedly' },
} as const satisfies Record<string, ApiErrorInfo>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/**
 * Which refusal of its code an error is, where one code covers refusals a page treats apart (the body's
 * `reason`; none for the code's usual one). `exports_under_way`: a lead's third export of the audit trail
 * while two of theirs are still under way, `rate_limited` with a wait as their searches' limit is, but
 * only another download waits: their searches are not limited by it.
 */
export const API_ERROR_REASONS = ['exports_under_way'] as const;
export type ApiErrorReason = (typeof API_ERROR_REASONS)[number];

export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];
