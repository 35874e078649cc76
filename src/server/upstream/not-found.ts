import type http from 'node:http';
import { ApiFailure } from '../http/api-failure.ts';

/**
 * What a 404 of the service says beyond "not found". The service's own is JSON, `{"status":"error",
 * "message":"Resource not Found","code":404}` (upstream-api-facts.md), and means no such candidate. Two
 * others mean that no lookup can succeed, whatever the id: the service does not know the client id (its
 * message names the client: "Client not Found"), or the address is not the KYC Connect API at all (a web
 * page answered). Read as "no such candidate", each would send a reviewer to check an id that is right.
 */
export type NotFoundMeaning = 'client' | 'not_the_api';

/** At most this much of a 404's message is read for the word "client". */
const MAX_MESSAGE = 200;

/** `value`: what the 404's body holds (errorBodyValue), or the envelope a success carried (upstream-failures.ts). */
export function notFoundMeaning(headers: http.IncomingHttpHeaders, value: unknown): NotFoundMeaning | undefined {
  if (/^\s*text\/html\b/i.test(String(headers['content-type'] ?? ''))) return 'not_the_api';
  const message = typeof value === 'object' && value !== null ? (value as { message?: unknown }).message : undefined;
  return typeof message === 'string' && /\bclient\b/i.test(message.slice(0, MAX_MESSAGE)) ? 'client' : undefined;
}

/** The failure for a 404 that means this server is not set up right for the service (never its key or the service's words). */
export function misconfigured(meaning: NotFoundMeaning): ApiFailure {
  return new ApiFailure(
    'upstream_misconfigured',
    meaning === 'client'
      ? "The KYC service does not know this server's client id (it answered 404, naming the client): no lookup can succeed until an administrator checks KYC_CLIENT_ID (the environment's clientId in CONFIG_FILE)."
      : "The KYC service's address answered with a web page (HTTP 404), not with the KYC Connect API: no lookup can succeed until an administrator checks KYC_BASE_URL (the environment's baseUrl in CONFIG_FILE).",
  );
}
