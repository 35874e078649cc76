import { shapeWords } from '../../kyc/contract/shape-words.ts';
import { candidateApiPath } from '../../kyc/contract/api.ts';
import { checkId, encodeIdSegment, type LookupKind } from '../../kyc/contract/lookup.ts';
import { willArchiveAtDateOf } from '../../kyc/contract/archiving.ts';
import { candidateEnvelopeSchema, type CandidateRecord } from '../../kyc/contract/schema.ts';
import { parseJsonKeepingNumbers } from '../../kyc/contract/number-text.ts';
import { PARTS_ACCEPT, PARTS_MEDIA_TYPE } from '../../kyc/contract/picture-parts.ts';
import { ApiError, INTERRUPTED_MESSAGE } from './api-error.ts';
import { apiResponse } from './api-request.ts';
import { attachPictureParts, PictureParts } from './picture-parts.ts';
import { type PartsStart, readFirstPart, takeReferences } from './read-parts.ts';
import { attachPendingRecord, PendingRecord } from './pending-record.ts';
import { noteServerClock } from './server-clock.ts';
import { noteListedRecordId } from './listed-record-id.ts';

/** Bytes received of a response still downloading, for the loading indicator. */
export interface DownloadProgress {
  received: number;
  total?: number;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** The environment named in the URL; undefined for the default one. */
  environment?: string;
  onProgress?: (progress: DownloadProgress) => void;
  /**
   * The whole record, when the call resolved with its status level first (an answer in parts whose
   * status part came before the record): the caller puts it in the status level's place.
   */
  onRecord?: (record: CandidateRecord) => void;
}

/** The previous lookup's steps off the performance timeline, which keeps every mark for the life of the tab. */
function clearLookupMarks(): void {
  for (const step of ['fetch', 'body-read', 'parsed']) performance.clearMarks(`candidate-lookup:${step}`);
}

/**
 * One lookup through the proxy: fetch, read the body (reporting progress), parse the JSON, validate it
 * with the shared schema. Every failure becomes an ApiError that says what happened.
 */
export async function fetchCandidate(kind: LookupKind, id: string, options: FetchOptions = {}): Promise<CandidateRecord> {
  const check = checkId(id);
  if (!check.ok) throw new ApiError('invalid_id', check.message);

  clearLookupMarks();
  performance.mark('candidate-lookup:fetch');
  // The pictures' download may outlive this call (the page renders from the first part): it ends with
  // the query's signal, or once no page shows the pictures.
  const download = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, download.signal]) : download.signal;
  const response = await apiResponse(candidateApiPath(kind, encodeIdSegment(id), options.environment), {
    signal,
    headers: { accept: PARTS_ACCEPT },
    cache: 'no-store',
  });
  const receivedAt = Date.now();

  if (response.headers.get('content-type')?.startsWith(PARTS_MEDIA_TYPE)) {
    const clocked = (record: CandidateRecord) => noteListedRecordId(noteServerClock(record, response, receivedAt), response);
    return clocked(
      await readInParts(response, { ...options, onRecord: (record) => options.onRecord?.(clocked(record)) }, () => download.abort()),
    );
  }
  const text = await readBody(response, options);
  performance.mark('candidate-lookup:body-read');
  const record = parseCandidateBody(text);
  performance.mark('candidate-lookup:parsed');
  return noteListedRecordId(noteServerClock(record, response, receivedAt), response);
}

/**
 * The body of a successful lookup: JSON, in the shape of the shared schema, or an ApiError saying why not.
 * Its numbers keep the text they were sent as, where the browser tells it (number-text.ts).
 */
export function parseCandidateBody(text: string): CandidateRecord {
  let json: unknown;
  try {
    json = parseJsonKeepingNumbers(text);
  } catch {
    throw new ApiError(
      'not_json',
      'The KYC service sent a response that is not JSON. It may be encrypted (KYC Connect can encrypt responses for some clients) or come from something other than the KYC service.',
      { detail: text.slice(0, 200) },
    );
  }
  return parseCandidateValue(json);
}

/**
 * An answer in parts: the status level from its first part, returned at once, the record from the next
 * (handed to `onRecord`), its pictures still coming (picture-parts.ts follows them); from a server that
 * sends no status part, the record from the first. The first part's bytes count toward the loading
 * indicator.
 */
async function readInParts(response: Response, options: FetchOptions, cancel: () => void): Promise<CandidateRecord> {
  const total = Number(response.headers.get('content-length')) || undefined;
  try {
    // The skeleton's progress, until the first part is in; then the page and each picture's card show their own.
    let firstIn = false;
    const start = await readFirstPart(response, (received) => {
      if (!firstIn) options.onProgress?.({ received, total });
    });
    firstIn = true;
    performance.mark('candidate-lookup:body-read');
    const status = start.first.kind === 'status' ? statusLevelOf(start.first.envelope) : undefined;
    if (!status) return withPictures(start, start.first.kind === 'record' ? start.first.envelope : await start.record(), cancel);
    const pending = new PendingRecord();
    attachPendingRecord(status, pending);
    start
      .record()
      .then((envelope) => options.onRecord?.(withPictures(start, envelope, cancel)))
      .catch((error: unknown) => {
        cancel();
        pending.fail(error instanceof ApiError ? error : new ApiError('interrupted', INTERRUPTED_MESSAGE));
      });
    return status;
  } catch (error) {
    cancel();
    if (error instanceof ApiError || options.signal?.aborted) throw error;
    throw new ApiError('interrupted', INTERRUPTED_MESSAGE);
  }
}

/** The status part's record; undefined when it does not pass the contract (the record part will say why). */
function statusLevelOf(envelope: unknown): CandidateRecord | undefined {
  const parsed = candidateEnvelopeSchema.safeParse(envelope);
  return parsed.success ? parsed.data.data : undefined;
}

/** The record part checked, its pictures following it. */
function withPictures(start: PartsStart, envelope: unknown, cancel: () => void): CandidateRecord {
  const references = takeReferences(envelope, start.boundary);
  const record = parseCandidateValue(envelope);
  const parts = new PictureParts(references, cancel);
  attachPictureParts(record, parts);
  void start.rest(parts);
  performance.mark('candidate-lookup:parsed');
  return record;
}

function parseCandidateValue(json: unknown): CandidateRecord {
  const parsed = candidateEnvelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError('malformed', "The KYC service's response does not have the expected shape.", {
      detail: shapeWords(parsed.error.issues, json),
      willArchiveAtDate: willArchiveAtDateOf(json),
    });
  }
  return parsed.data.data;
}

async function readBody(response: Response, options: FetchOptions): Promise<string> {
  // Content-Length counts compressed bytes when the body is encoded; what is read here is decoded.
  const encoding = response.headers.get('content-encoding');
  const length = encoding && encoding !== 'identity' ? NaN : Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  try {
    if (!response.body || !options.onProgress) return await response.text();
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let received = 0;
    let reportedAt = performance.now();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      parts.push(decoder.decode(value, { stream: true }));
      // At most every 100 ms: a smooth bar on a slow link, few renders on a fast one.
      const now = performance.now();
      if (now - reportedAt >= 100) {
        reportedAt = now;
        options.onProgress({ received, total });
      }
    }
    parts.push(decoder.decode());
    options.onProgress({ received, total });
    return parts.join('');
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError('interrupted', INTERRUPTED_MESSAGE);
  }
}
