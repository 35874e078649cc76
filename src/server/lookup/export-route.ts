import { type ExportRequest, exportRequestSchema } from '../../kyc/contract/api.ts';
import { batchExportRequestSchema, type BatchExportRequest } from '../../kyc/contract/batch-handoff.ts';
import { z } from '../../kyc/contract/zod.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { auditTrail, auditWritable, refuse, writeLine } from '../audit/audit-trail.ts';
import type { ExportAuditEntry } from '../audit/audit.ts';
import { exportLine, requestLine } from '../audit/audit-lines.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { methodNotAllowed, STORE_UNAVAILABLE, sendFailure, sendJson } from '../http/http-reply.ts';
import { readJsonBody } from '../http/request-body.ts';
import type { SignedInCall } from '../http/routes.ts';
import { StoreUnavailableError } from '../state/store.ts';
import { checkedId, type LookupDeps, takeToken } from './lookup-steps.ts';
import { batchExport } from './batch-export-route.ts';
import { NOT_LOOKED_UP, NOT_LOOKED_UP_FILE } from './opened-candidates.ts';

/**
 * `POST /api/export` (`/api/e/<name>/export`): the browser says a summary, reply or certificate was
 * copied, the page printed or a document file saved, and the audit log gets a line `kind: "export"`. The
 * copy (and the file) waits for this answer: an
 * export that cannot be recorded does not happen (503), as a lookup would not. It goes through the
 * lookup's steps that apply to it (lookup-steps.ts): the request's environment (composition/api-environments.ts),
 * the limit, the audit log writable, the id; then whether this user opened that candidate (a lookup of it
 * answered lately: opened-candidates.ts), its line, and the answer. Nothing is asked of the service, so
 * the archiving gate, the upstream slot, the fetch and the read have nothing to do.
 *
 * A print is not stopped by the page (the browser's dialog does not wait for this answer): the paper exists
 * whatever the answer, so a print that a copy's checks would refuse is written all the same, marked with
 * why: `notLookedUp` (not opened lately), `openedUnknown` (the shared store could not say). With the store
 * down in a mode with sessions, the session itself cannot be read: a print is then written under the user
 * this instance last knew for the session (`identityFromCache` on the call and on every line it writes),
 * never asking the store again, and anything else is refused 503.
 */
export async function exportRoute(deps: LookupDeps, call: SignedInCall): Promise<void> {
  const { req, res, identity } = call;
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Use POST.');
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    throw new ApiFailure('unsupported_media_type', 'Send the export as JSON.');
  }
  const audit = auditTrail(deps, res, 'export', requestLine(deps.environment, call, 'export'));
  // Each export writes a line, so it costs a token of the user's limit as a lookup does, before its
  // body is read; refused over the limit, it is counted, not written. With the shared store down neither
  // the limit nor the opened candidates can be asked: only the body says whether it was a print.
  // An identity from this instance's memory (identifyCall) comes only while the store cannot be asked.
  const limited = call.identityFromCache ? STORE_UNAVAILABLE : await takeToken(deps, req, identity, 'export');
  if (limited && limited !== STORE_UNAVAILABLE) return refuse(res, audit, limited, { counted: true });
  const stuck = auditWritable(deps);
  if (stuck) return sendFailure(res, stuck);
  // A body that is not an export is refused unaudited, as a batch's is. 128 KiB: a batch's names up to
  // 100 ids of 256 characters, each up to 4 bytes in UTF-8.
  const body = await readJsonBody(call, 128 * 1024, anyExportSchema, 'export', {
    shape:
      "The export must say what (summary, reply, print, certificate or file), kind and id; a reply's template a status, a certificate's slug and a file's attribute up to 64 letters, digits, '.', '_' or '-', a file's type one the page names; a batch's (batch_csv or batch_copy) its kind, up to 100 ids (each a string, or {id, foundBy} for a row found by the other kind) and how many candidates it holds.",
  });
  // Its refusals from here name what was refused (a lead reads which hand-off), never the id.
  const refused = auditTrail(deps, res, 'export', requestLine(deps.environment, call, 'export', { what: body.what }));
  if (isBatchExport(body)) return batchExport(deps, call, body, refused, limited);
  // The id of a candidate shown, so one the lookup's rule would have refused is no candidate's.
  const asked = checkedId(body.id);
  if (!asked.ok) return refuse(res, refused, asked.failure);
  // Only a candidate this user was answered a lookup of lately (opened-candidates.ts): else the line would
  // show a hand-off of someone never opened. The refusal's line names no id, so it plants nothing either.
  const opened = limited ?? (await openedBy(deps, identity.user, body.kind, asked.id));
  const mark = markOf(opened, body.what);
  if (!mark) {
    const failure = opened === NOT_LOOKED_UP && body.what === 'file' ? NOT_LOOKED_UP_FILE : (opened as ApiFailure);
    return refuse(res, refused, failure, { counted: opened === STORE_UNAVAILABLE });
  }
  const written = await writeLine(
    deps,
    res,
    'export',
    exportLine(deps.environment, call, body.what, body.kind, asked.id, lineExtra(body, mark)),
  );
  if (written) sendJson(res, 200, JSON.stringify({ status: 'success', ...mark }));
}

/** A candidate's hand-off, or a batch's (batch-export-route.ts). */
const anyExportSchema = z.union([exportRequestSchema, batchExportRequestSchema]);
const isBatchExport = (body: ExportRequest | BatchExportRequest): body is BatchExportRequest => 'ids' in body;

type PrintMark = Pick<ExportAuditEntry, 'notLookedUp' | 'openedUnknown'>;

/** What the line and answer say of the opened check: nothing (opened), a print's mark, or undefined when the export is refused. */
function markOf(opened: true | ApiFailure, what: ExportRequest['what']): PrintMark | undefined {
  if (opened === true) return {};
  if (what !== 'print') return undefined;
  if (opened === NOT_LOOKED_UP) return { notLookedUp: true };
  return opened === STORE_UNAVAILABLE ? { openedUnknown: true } : undefined;
}

/** The line's extra fields: each only on the export it belongs to. */
function lineExtra({ what, template, masked, slug, attribute, fileType }: ExportRequest, mark: PrintMark) {
  return {
    ...(what === 'reply' && template ? { template } : {}),
    // Only a print can be masked: the line says the paper showed no masked value.
    ...(what === 'print' && masked ? { masked: true as const } : {}),
    ...(what === 'certificate' && slug ? { slug } : {}),
    // A saved file's attribute and type, on its line only: never its bytes.
    ...(what === 'file' && attribute ? { attribute } : {}),
    ...(what === 'file' && fileType ? { fileType } : {}),
    ...mark,
  };
}

/** Whether `user` opened the candidate lately, or the refusal: 409 not_looked_up, or 503 while the shared store cannot be asked. */
async function openedBy(deps: LookupDeps, user: string, kind: LookupKind, id: string): Promise<true | ApiFailure> {
  try {
    return (await deps.opened.wasOpened(deps.environment, user, kind, id)) || NOT_LOOKED_UP;
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
}
