import { exportRequestSchema } from '../../kyc/contract/api.ts';
import { auditTrail, exportLine, refuse, requestLine, writeLine } from '../audit/audit-trail.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, readBody, sendJson } from '../http/http-reply.ts';
import { takeToken } from './lookup-steps.ts';
import type { LookupDeps } from './lookup-steps.ts';
import type { SignedInCall } from '../http/routes.ts';

/**
 * `POST /api/export` (`/api/e/<name>/export`): the browser says a summary or reply was copied, or the
 * page printed, and the audit log gets a line `kind: "export"`. The copy waits for this answer: an
 * export that cannot be recorded does not happen (503), as a lookup would not.
 */
export async function exportRoute(deps: LookupDeps, call: SignedInCall): Promise<void> {
  const { req, res, identity } = call;
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Use POST.');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new ApiFailure('unsupported_media_type', 'Send the export as JSON.');
  }
  // Each export writes a line, so it costs a token of the user's limit as a lookup does, before its
  // body is read; refused over the limit, it is counted, not written.
  const limited = await takeToken(deps, req, identity, 'export');
  if (limited) {
    const audit = auditTrail(deps, res, 'export', requestLine(deps.environment, call, 'export'));
    return refuse(res, audit, limited, null, false, true);
  }
  let json: unknown;
  try {
    json = JSON.parse(await readBody(req, 8 * 1024));
  } catch {
    throw new ApiFailure('bad_request', 'The export is not valid JSON.');
  }
  const parsed = exportRequestSchema.safeParse(json);
  if (!parsed.success) throw new ApiFailure('bad_request', 'The export must say what (summary, reply or print), kind and id.');
  const { what, kind, id } = parsed.data;
  const written = await writeLine(deps, res, 'export', exportLine(deps.environment, call, what, kind, id));
  if (written) sendJson(res, 200, '{"status":"success"}');
}
