import type http from 'node:http';
import { ApiFailure } from '../http/api-failure.ts';
import type { UpstreamBody } from '../answer/upstream-body.ts';
import { noContent } from '../upstream/redirect.ts';

/** The read step's first check: why an answer cannot be checked (no content, a 204; no framing; compressed although none was asked for). */
export function unreadableAnswer(upstreamRes: UpstreamBody): ApiFailure | undefined {
  if (upstreamRes.statusCode === 204 || upstreamRes.statusCode === 205) return noContent(upstreamRes.statusCode);
  if (!isFramed(upstreamRes)) {
    return new ApiFailure('upstream_error', 'The KYC service sent a response without a length, so it could not be checked to be complete.');
  }
  const compressed = 'The KYC service sent a compressed answer although none was asked for, so it could not be checked.';
  return isEncoded(upstreamRes) ? new ApiFailure('upstream_error', compressed) : undefined;
}

/** Without a length or chunked framing, a body cut short would look complete: such a body is not passed on. */
function isFramed(upstreamRes: Pick<http.IncomingMessage, 'headers'>): boolean {
  return upstreamRes.headers['content-length'] !== undefined || /\bchunked\b/i.test(upstreamRes.headers['transfer-encoding'] ?? '');
}

/** Whether the body is compressed: this server asks for none, and could not check what it cannot read. */
function isEncoded(upstreamRes: Pick<UpstreamBody, 'headers'>): boolean {
  const encoding = upstreamRes.headers['content-encoding'];
  return encoding !== undefined && encoding.trim().toLowerCase() !== 'identity';
}
