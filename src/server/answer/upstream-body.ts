import type http from 'node:http';
import type { Readable } from 'node:stream';
import { ApiFailure } from '../http/api-failure.ts';
import { MAX_DEPTH } from './json-tokens.ts';

/** An answer holding this server's API key: an echo service, or something reflecting the Authorization header. */
export const KEY_IN_ANSWER = new ApiFailure(
  'upstream_error',
  "The KYC service's answer contained this server's API key, so it was refused. An administrator must check KYC_BASE_URL.",
);

/**
 * An answer nested deeper than MAX_DEPTH (json-tokens.ts): refused in these words at every level (full, in
 * parts, status level, a batch row), wherever the deep value is, as the one scan of the answer refuses it.
 */
export const TOO_DEEP = new ApiFailure(
  'upstream_error',
  `The KYC service's answer is nested deeper than ${MAX_DEPTH} levels, so it could not be sent.`,
);

/**
 * A reader of the answer failed as it read it (answer-scan.ts's ScanFault): this server's fault, said as
 * such, never as the service's; `cause`, what the reader threw, is logged by its type and frames where the
 * failure is answered (http-reply.ts's sendFailure).
 */
export function scanFaultFailure(fault: unknown): ApiFailure {
  const failure = new ApiFailure(
    'internal_error',
    "Candidate Lookup failed while reading the KYC service's answer (its own fault, recorded in its log). Try again; if it keeps happening, tell whoever runs Candidate Lookup.",
  );
  failure.cause = fault;
  return failure;
}

/** What the answer's readers use of the service's response: its body, status, headers, and whether it came whole. */
export type UpstreamBody = Readable & Pick<http.IncomingMessage, 'headers' | 'statusCode' | 'complete'>;
