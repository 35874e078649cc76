import type http from 'node:http';
import type { Readable } from 'node:stream';
import { ApiFailure } from '../http/api-failure.ts';

/** An answer holding this server's API key: an echo service, or something reflecting the Authorization header. */
export const KEY_IN_ANSWER = new ApiFailure(
  'upstream_error',
  "The KYC service's answer contained this server's API key, so it was refused. An administrator must check KYC_BASE_URL.",
);

/** What the answer's readers use of the service's response: its body, status, headers, and whether it came whole. */
export type UpstreamBody = Readable & Pick<http.IncomingMessage, 'headers' | 'statusCode' | 'complete'>;
