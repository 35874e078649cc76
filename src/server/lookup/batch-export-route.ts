import { type BatchExportRequest, namedAs } from '../../kyc/contract/batch-handoff.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { type Audit, writeLine } from '../audit/audit-trail.ts';
import { refuse } from '../audit/audit-trail.ts';
import { batchExportLine } from '../audit/audit-lines.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { STORE_UNAVAILABLE, sendJson } from '../http/http-reply.ts';
import type { SignedInCall } from '../http/routes.ts';
import { StoreUnavailableError } from '../state/store.ts';
import { checkedId, type LookupDeps } from './lookup-steps.ts';

/** A batch's file or copy whose rows this user was not answered lately (or never): nothing is saved or copied. */
export const BATCH_NOT_LOOKED_UP = new ApiFailure(
  'not_looked_up',
  "This batch's lookups are too old to record what it hands over: press Look up all again, then download or copy it.",
);

const INVALID_BATCH_EXPORT = new ApiFailure('bad_request', 'The export names more candidates than it counts.');

/**
 * A batch's CSV downloaded or its table copied (`what: "batch_csv" | "batch_copy"`), after export-route.ts's
 * steps up to its body (the environment, the rate limit's token, the audit log writable). Its line names
 * the candidates the file holds, and is written only when each of them is one this user was answered a
 * lookup of lately (opened-candidates.ts): a batch's row found opens its candidate by the kind that found
 * it (the batch's, or the other one it was tried as), which is the kind the page names it by, so the batch
 * just run passes, on any instance, at one GET of the shared store per candidate named (at most 100, asked
 * at once); and nobody can plant a line naming ids they never looked up by the kind named. Refused, its
 * line names what was refused and no candidate, as a copy's does. `refused`: the audit of a refusal once
 * the body is read.
 */
export async function batchExport(
  deps: LookupDeps,
  call: SignedInCall,
  body: BatchExportRequest,
  refused: Audit,
  limited: ApiFailure | undefined,
): Promise<void> {
  if (body.count < body.ids.length) return refuse(call.res, refused, INVALID_BATCH_EXPORT);
  const named: Named[] = [];
  for (const each of body.ids) {
    const { kind, id } = namedAs(body.kind, each);
    const asked = checkedId(id);
    if (!asked.ok) return refuse(call.res, refused, asked.failure);
    named.push({ kind, id: asked.id });
  }
  const opened = limited ?? (await allOpened(deps, call.identity.user, named));
  if (opened !== true) return refuse(call.res, refused, opened, { counted: opened === STORE_UNAVAILABLE });
  const line = batchExportLine(deps.environment, call, body.what, body.kind, named, body.count);
  if (await writeLine(deps, call.res, 'export', line)) sendJson(call.res, 200, JSON.stringify({ status: 'success' }));
}

/** A candidate named, by the kind and id it was looked up by. */
type Named = { kind: LookupKind; id: string };

/** Whether `user` opened every candidate named, each by its kind, or the refusal: 409 not_looked_up, or 503 while the shared store cannot be asked. */
async function allOpened(deps: LookupDeps, user: string, named: readonly Named[]): Promise<true | ApiFailure> {
  try {
    const each = await Promise.all(named.map(({ kind, id }) => deps.opened.wasOpened(deps.environment, user, kind, id)));
    return each.every(Boolean) || BATCH_NOT_LOOKED_UP;
  } catch (error) {
    if (error instanceof StoreUnavailableError) return STORE_UNAVAILABLE;
    throw error;
  }
}
