import type http from 'node:http';
import { auditQuerySchema, MAX_AUDIT_EXPORT_ROWS } from '../../kyc/contract/audit-search.ts';
import { downloadName } from '../../kyc/contract/download-name.ts';
import { drained } from '../answer/multipart-answer.ts';
import { writeLine } from '../audit/audit-trail.ts';
import { auditReadLine } from '../audit/audit-lines.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { countBytes } from '../http/http-reply.ts';
import type { SignedInCall } from '../http/routes.ts';
import type { Limit } from '../ops/metrics.ts';
import { csvHeader, csvRow } from './audit-csv.ts';
import { asLogged, readerFilter } from './audit-match.ts';
import { askerOf, leadsOnly, otherIdOf, postOnly, readJson, takeSearch, type TrailDeps } from './trail-calls.ts';

/** The filtered rows as CSV, streamed as they are read; the export's line is written before the first byte. */
export async function exportRoute(deps: TrailDeps, exporting: ExportsUnderWay, call: SignedInCall): Promise<void> {
  leadsOnly(call.identity);
  postOnly(call, 'export');
  const lead = deps.rateLimitKey(call.req, call.identity);
  const done = exporting.start(lead);
  if (!done) {
    deps.metrics.rateLimited.inc({ limit: 'audit' satisfies Limit });
    // Said apart from the searches' limit (`reason`): the page then holds only Download CSV, not Search.
    throw new ApiFailure(
      'rate_limited',
      `You already have ${EXPORTS_AT_ONCE} downloads of the audit trail under way: wait for them to finish. Try again in ${EXPORT_WAIT_SECONDS} s.`,
      { retryAfterSeconds: EXPORT_WAIT_SECONDS, reason: 'exports_under_way' },
    );
  }
  try {
    await takeSearch(deps, call);
    await writeExport(deps, call);
  } finally {
    done();
  }
}

async function writeExport(deps: TrailDeps, call: SignedInCall): Promise<void> {
  const { cursor: _cursor, limit: _limit, ...filter } = await readJson(call, auditQuerySchema, 'export');
  if (!(await writeLine(deps, call.res, 'export of the audit trail', auditReadLine(call, 'export', filter)))) return;
  const also = await otherIdOf(deps, filter);
  const { res } = call;
  // The rows the table shows for the same filters (readerFilter): not this export's own line, nor the search's before it.
  const rows = deps.store
    .exportRows(readerFilter(asLogged({ ...filter, ...also }), call.identity.user), MAX_AUDIT_EXPORT_ROWS, askerOf(deps, call))
    [Symbol.asyncIterator]();
  // The first page read before the head: a trail too busy to read now is answered 503 with its wait, not a
  // download cut short (the pages after it keep their turn: trail-reads.ts).
  const first = await rows.next();
  res.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    // A fallback for scripts (curl -OJ), by the server's clock and offset. No browser user ever gets this name:
    // the route answers only a POST of JSON with the app's header, which no address typed, link or form can
    // send (http/request-guard.ts), so only the page's fetch reads it, and the page saves the body as a Blob
    // (which carries no header) under the reviewer's clock and offset (app/audit/audit-queries.ts).
    'content-disposition': `attachment; filename="${downloadName('audit', new Date())}"`,
    'cache-control': 'no-store',
  });
  try {
    await send(res, csvHeader(), deps.stallMs);
    for (let row = first; !row.done; row = await rows.next()) {
      if (res.destroyed) break;
      await send(res, csvRow(row.value), deps.stallMs);
    }
    if (res.destroyed) await rows.return(undefined);
    else res.end();
  } catch {
    // Half a file must not pass for a whole one: the download fails.
    res.destroy();
  }
}

/**
 * Writes, waiting for the socket when its buffer is full: a slow download holds a page of rows, not the
 * whole export, and one that takes nothing for `stallMs` is cut off (its page let go). Without the cut, 64
 * exports that were never read held 2 to 3.5 GB and the process ran out of memory (red team).
 */
async function send(res: http.ServerResponse, text: string, stallMs: number): Promise<void> {
  // The browser went away (before the first byte, or since): nothing to write, nothing to wait for.
  if (res.destroyed) return;
  countBytes(res, Buffer.byteLength(text));
  if (!res.write(text)) await drained(res, stallMs);
}

/** Exports one lead may have under way at once on this instance: each holds a page of rows while its download is slow. */
const EXPORTS_AT_ONCE = 2;

export interface ExportsUnderWay {
  /** Counts the lead's export as under way until the returned function is called; past EXPORTS_AT_ONCE, undefined. */
  start(lead: string): (() => void) | undefined;
}

export function exportsUnderWay(): ExportsUnderWay {
  const held = new Map<string, number>();
  return {
    start(lead) {
      const under = held.get(lead) ?? 0;
      if (under >= EXPORTS_AT_ONCE) return undefined;
      held.set(lead, under + 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        const left = (held.get(lead) ?? 1) - 1;
        if (left > 0) held.set(lead, left);
        else held.delete(lead);
      };
    },
  };
}

/** A wait worth saying for a download under way: most take seconds. */
const EXPORT_WAIT_SECONDS = 5;
