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

/** What the answer's readers use of the service's response: its body, status, headers, and whether it came whole. */
export type UpstreamBody = Readable & Pick<http.IncomingMessage, 'headers' | 'statusCode' | 'complete'>;
