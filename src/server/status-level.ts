import type { NeedleWatch } from './answer-guard.ts';
import { type CandidateRecord, candidateEnvelopeSchema, statusLevelOf } from '../kyc/contract/schema.ts';
import { ApiFailure } from './api-failure.ts';
import { NOT_A_RECORD } from './http-reply.ts';
import { readStatusLevelStreamed } from './status-level-stream.ts';
import { readUpstreamBody, type UpstreamBody } from './upstream-body.ts';

/** `willArchiveAtDate` is kept in `record` too (a `…Date` field): the archiving guard reads it. */
export type Reduced = { ok: true; record: CandidateRecord; body: string } | { ok: false; failure: ApiFailure };

const broken = (message: string) => new ApiFailure('upstream_error', message);

/** Bodies declared at most this long are read whole (a status-level record is well under a kilobyte). */
const WHOLE_BODY_BYTES = 256 * 1024;

/**
 * For support users: the body is checked against the contract, and only the status-level fields are
 * kept (the allowlist in the contract). Whatever cannot be checked is refused, never passed on. A body
 * that is large or of unknown length (a record with pictures, asked with the full key) is read as a
 * stream, dropping everything else as it arrives (status-level-stream.ts); a small one is read whole.
 */
export async function reduceToStatusLevel(upstreamRes: UpstreamBody, maxResponseBytes: number, watch?: NeedleWatch): Promise<Reduced> {
  const declared = Number(upstreamRes.headers['content-length']);
  if (!(declared <= WHOLE_BODY_BYTES)) {
    const streamed = await readStatusLevelStreamed(upstreamRes, maxResponseBytes, watch);
    return streamed.ok ? reduceValue(streamed.value) : streamed;
  }
  const read = await readUpstreamBody(upstreamRes, maxResponseBytes, watch);
  return read.ok ? reduceBody(read.text) : read;
}

function reduceBody(text: string): Reduced {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, failure: NOT_A_RECORD };
  }
  return reduceValue(json);
}

function reduceValue(json: unknown): Reduced {
  const parsed = candidateEnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      failure: broken('The response of the KYC service does not have the expected shape, so it could not be reduced to status level.'),
    };
  }
  const record = statusLevelOf(parsed.data.data);
  return { ok: true, record, body: JSON.stringify({ status: 'success', data: record }) };
}
