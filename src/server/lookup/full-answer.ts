import type http from 'node:http';
import { Transform } from 'node:stream';
import { type AnswerGuard, AnswerGuardError, firstOutput, type StatedError } from '../answer/answer-guard.ts';
import { charsetLabel } from '../answer/answer-charset.ts';
import type { AuditHeld } from '../../kyc/contract/audit-held.ts';
import type { AnswerCut } from '../audit/audit.ts';
import { ApiFailure, brokenOff, otherCandidate } from '../http/api-failure.ts';
import type { AskedCandidate } from '../answer/asked-id-watch.ts';
import { countBytes, NO_RECORD, repeatedMember } from '../http/http-reply.ts';
import { notARecord, type ServiceSettings } from '../answer/not-a-record.ts';
import { responseTooLarge } from '../answer/too-large.ts';
import { logUnexpected, requestLog } from '../log/log.ts';
import { type Audit, refuse } from '../audit/audit-trail.ts';
import { newBoundary, type Split, splitRecord } from '../answer/multipart-answer.ts';
import { LookupPreviews, PartsWriter } from '../answer/parts-writer.ts';
import { StatusPart } from '../answer/status-part.ts';
import type { PartsHolding } from '../answer/parts-budget.ts';
import { KEY_IN_ANSWER, scanFaultFailure, TOO_DEEP, type UpstreamBody } from '../answer/upstream-body.ts';
import { errorBodyValue } from '../upstream/error-body.ts';
import { type AnswerEnd, refuseAfterLine, watchAnswerEnd } from './answer-end.ts';
import { noteListedRecordId } from './listed-record-id.ts';
import type { LookupDeps } from './lookup-steps.ts';

/**
 * A compliance user's answer: the service's body streamed on as it comes, once its start is checked
 * (answer-guard.ts: a candidate envelope, and no key) and its audit line written.
 */

/** The upstream's response headers that reach the browser, no other. Always typed JSON: personal data is never served as what a browser renders. */
const FORWARDED_RESPONSE_HEADERS = ['content-length'] as const;

export interface FullAnswer {
  upstreamRes: UpstreamBody;
  /** The body passes through it (answer-guard.ts): an envelope, JSON, and never the key. */
  guard: AnswerGuard;
  audit: Audit;
  upstreamStatus: number;
  /** The error a body that is the service's error envelope states (statedErrorOf), and the settings one that is no record names (not-a-record.ts). */
  stated: (value: unknown, cut: boolean) => ApiFailure;
  settings?: ServiceSettings | undefined;
  /** The browser's request when it asked for the answer in parts (multipart-answer.ts). */
  inParts?: http.IncomingMessage;
  /** Whose answer it is (the rate limit's key): one in parts holds its bytes in their share and its previews' slot in their name. */
  owner: string;
  /** The recordId the queue index holds for the refId asked, sent as a header beside the answer (listed-record-id.ts). */
  listed?: Promise<string | undefined>;
  /** The candidate asked for: a record of another is refused (the guard's `other_candidate`), named in the refusal. */
  asked: AskedCandidate;
  /** What the record held, once the scan has read it whole (answer-held.ts): the request's closing line. */
  held: () => AuditHeld | undefined;
}

/** Compliance users: the body streamed on as it comes, once its start is checked and its audit line written. */
export async function answerFull(
  res: http.ServerResponse,
  answer: FullAnswer,
  deps: Pick<LookupDeps, 'settings' | 'partsBudget' | 'previews'>,
) {
  const { upstreamRes, guard, audit, upstreamStatus } = answer;
  // Whatever breaks from now on is noticed: while the start is checked, and while the line is written.
  let broken: ApiFailure | undefined;
  const breakOff = (error?: unknown) => {
    // 'aborted' and 'close' come with nothing: what the body was cut with is already its `errored`.
    broken ??= brokenOff(error ?? upstreamRes.errored);
    guard.destroy(broken);
  };
  upstreamRes.once('error', breakOff);
  upstreamRes.once('aborted', breakOff);
  upstreamRes.once('close', () => {
    if (!upstreamRes.complete) breakOff();
  });
  let received = 0;
  upstreamRes.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > deps.settings.limits.maxResponseBytes) upstreamRes.destroy(new Error('response too large'));
  });
  const { maxResponseBytes } = deps.settings.limits;
  // The failure of an answer over the limit, once it is: its words name the limit.
  const tooLarge = () => (received > maxResponseBytes ? responseTooLarge(maxResponseBytes) : undefined);
  // Watched from the moment the answer's 200 line is written: a cut from then on is audited (answer-end.ts).
  let end: AnswerEnd | undefined;
  const began = () => {
    end = watchAnswerEnd(res, audit, upstreamStatus);
    return end;
  };
  // What the guard failed with: answered before the status line, or what the cut line says after it.
  let failed: Error | undefined;
  guard.on('error', (error) => {
    failed ??= error;
    if (error instanceof AnswerGuardError && error.problem === 'key_reflected') requestLog(res).warn(KEY_REFLECTED_WARNING);
    upstreamRes.destroy();
    // Before the status line the failure is answered (below; a reader's fault logged there); after it, cutting is the only signal left.
    if (!res.headersSent) return;
    if (error instanceof AnswerGuardError && error.problem === 'scan_fault') logUnexpected(res, error.cause);
    // Closed with no fault named, the cut line says the client left (answer-end.ts).
    if (!end || (!answer.inParts && stalledByBrowser(res, error, tooLarge))) return void res.destroy();
    end.cut(...cutOf({ ok: false, error }, tooLarge, answer));
  });
  upstreamRes.pipe(guard);

  if (answer.inParts) {
    const holding = deps.partsBudget.hold(answer.owner);
    const previews = new LookupPreviews(holding, deps.previews, answer.owner);
    try {
      return await answerInParts(res, answer, {
        req: answer.inParts,
        tooLarge,
        began,
        stallMs: deps.settings.browserStallMs,
        holding,
        previews,
      });
    } finally {
      previews.abandon();
      holding.release();
    }
  }
  // Listened to before anything is awaited: the guard may fail at its first chunk.
  const first = await firstOutput(guard);
  if (!first.ok) return refuse(res, audit, guardFailure(first.error, answer), { upstreamStatus, reached: true });
  // Bounded and never rejecting (listed-record-id.ts); set only on an answer that starts, never on a refusal.
  const listed = await answer.listed;
  if (!(await audit(200, null, { upstreamStatus, reached: true }))) return void upstreamRes.destroy();
  if (broken || guard.destroyed) {
    const error = failed ?? broken ?? brokenOff();
    return refuseAfterLine(res, audit, cutOf({ ok: false, error }, tooLarge, answer), upstreamStatus);
  }
  began();
  noteListedRecordId(res, listed);
  streamBody(res, upstreamRes, guard, () => closeWith(res, answer));
}

/**
 * The request's closing line, once the answer was read whole and its last byte passed on, and before its
 * end reaches the client (answer-end.ts): a client that has the whole answer finds it in the trail. A line
 * the log cannot take (or a log not answering) delays nothing further: the 200 line stands alone.
 */
async function closeWith(res: http.ServerResponse, answer: Pick<FullAnswer, 'audit' | 'upstreamStatus' | 'held'>): Promise<void> {
  const { audit, upstreamStatus, held } = answer;
  // A client gone before the end: its cut line (answer-end.ts) closes the request instead.
  const read = res.destroyed ? undefined : held();
  if (read) await audit(200, null, { upstreamStatus, reached: true, held: read });
}

/**
 * The same body in parts. Its status level goes out as soon as it has been read (status-part.ts), before
 * the identities: the audit line first, then the status line and the status part. Every fault of the
 * service found before that is answered with its code (a body cut or stalled: upstream_error; too large:
 * response_too_large; not JSON; the key); one found after it can only cut the answer short, as the plain
 * answer's are, and the browser sees no closing delimiter. The rest is read whole (the service is near,
 * the browser's link is the slow one), then written: the record, the previews, the pictures.
 */
async function answerInParts(res: http.ServerResponse, answer: FullAnswer, options: PartsOptions) {
  const { audit, upstreamStatus, guard } = answer;
  // The record will hold about its declared length: admitted whole, or refused before a byte is read.
  if (!options.holding.reserve(Number(answer.upstreamRes.headers['content-length']) || 0)) {
    return refuse(res, audit, options.holding.refusal, { upstreamStatus, reached: true });
  }
  const boundary = newBoundary();
  const status = new StatusPart(guard.scan);
  const { previews } = options;
  const splitting = splitRecord(guard, boundary, options.holding, previews.add).finally(() => previews.close());
  const first = await Promise.race([splitting, status.early.then((body) => ({ early: body }))]);
  const writer = new PartsWriter({ req: options.req, res, stallMs: options.stallMs }, boundary);
  // The raw bytes' search (the guard's) and the decoded text's (the scan's) have both seen what was read,
  // and the ids the status part holds are the candidate's asked for (or none: then the record is checked
  // whole before its part, and an id of another's found after this part cuts the answer).
  if ('early' in first && !guard.keyWatch.found && !guard.scan.failure && !guard.destroyed && guard.askedId?.other === undefined) {
    if (!(await audit(200, null, { upstreamStatus, reached: true }))) {
      answer.upstreamRes.destroy();
      return void (await splitting);
    }
    const end = options.began();
    noteListedRecordId(res, await answer.listed);
    await writer.open(first.early);
    const read = await splitting;
    // Too late for an error's code: cut, so that the browser sees an answer that did not end.
    if (!read.ok) return end.cut(...cutOf(read, options.tooLarge, answer));
    const body = await writer.recordBody(read.split);
    if (!body) return end.cut(UNFRAMED, 'answer_fault');
    return writer.rest(read.split, body, previews, () => closeWith(res, answer));
  }
  const read = await splitting;
  if (!read.ok) return refuse(res, audit, cutOf(read, options.tooLarge, answer)[0], { upstreamStatus, reached: true });
  if (!(await audit(200, null, { upstreamStatus, reached: true }))) return;
  const body = await writer.recordBody(read.split);
  if (!body) return refuseAfterLine(res, audit, [UNFRAMED, 'answer_fault'], upstreamStatus);
  options.began();
  noteListedRecordId(res, await answer.listed);
  await writer.open(status.partBytes());
  await writer.rest(read.split, body, previews, () => closeWith(res, answer));
}

interface PartsOptions {
  req: http.IncomingMessage;
  tooLarge: () => ApiFailure | undefined;
  /** Called once the answer's 200 line is written: from then on a cut is audited (answer-end.ts). */
  began: () => AnswerEnd;
  stallMs: number;
  holding: PartsHolding;
  /** Made while the record is read (parts-writer.ts). */
  previews: LookupPreviews;
}

const UNFRAMED = new ApiFailure('upstream_error', "The KYC service's answer could not be sent in parts. Try again.");

/**
 * The failure a record that could not be read whole stands for, and, for an answer already begun, what
 * its cut line calls it: the service's error stated after the record began, or an answer not sent whole.
 */
function cutOf(
  read: Split & { ok: false },
  tooLarge: () => ApiFailure | undefined,
  answer: Pick<FullAnswer, 'stated' | 'asked'>,
): [ApiFailure, Exclude<AnswerCut, 'client_left'>] {
  if ('failure' in read) return [read.failure, 'answer_fault'];
  const large = tooLarge();
  if (large) return [large, 'answer_fault'];
  const { error } = read;
  return [
    guardFailure(error, answer),
    error instanceof AnswerGuardError && error.problem === 'error_envelope' ? 'service_error' : 'answer_fault',
  ];
}

/**
 * A plain answer's body that broke off while the browser had not taken what was already sent: the pipe
 * had paused the service's body for the browser, and the service's idle timeout, the plain answer's only
 * limit on a browser that stops reading, cut it. The browser stopped reading; the service did not fail.
 * A fault of the body's own (its content, its size) is the service's whoever was reading.
 */
function stalledByBrowser(res: http.ServerResponse, error: Error, tooLarge: () => ApiFailure | undefined): boolean {
  return res.writableNeedDrain && !(error instanceof AnswerGuardError) && !tooLarge();
}

const KEY_REFLECTED_WARNING =
  "The KYC service's answer contained this server's API key, so it was refused. Something between this server and the service, or a wrong KYC_BASE_URL, reflects the Authorization header.";

function guardFailure(error: Error, { stated, asked, settings }: Pick<FullAnswer, 'stated' | 'asked' | 'settings'>): ApiFailure {
  if (!(error instanceof AnswerGuardError)) return brokenOff(error);
  if (error.problem === 'key_reflected') return KEY_IN_ANSWER;
  if (error.problem === 'other_candidate') return otherCandidate(asked.kind, asked.id, error.answered ?? '');
  // `status` or `data` given twice: a record at one level and an error at the other, so neither here.
  if (error.problem === 'repeated_member') return repeatedMember(error.member ?? 'status');
  // The service's error envelope with a success status: the error it states, not an unreadable record.
  if (error.problem === 'error_envelope') return statedFailure(error.stated, stated);
  // Not a candidate envelope from its first bytes: not a readable record, said as what it is (not-a-record.ts).
  if (error.problem === 'not_an_envelope' || error.problem === 'second_envelope')
    return notARecord(error.notARecord ?? { cause: 'unknown' }, settings);
  if (error.problem === 'no_record') return NO_RECORD;
  if (error.problem === 'scan_fault') return scanFaultFailure(error.cause);
  return new ApiFailure('upstream_error', NOT_JSON[error.problem]);
}

/** The error an error envelope states: read from its bytes, or from its members when it was stated after the record. */
function statedFailure(read: StatedError | undefined, stated: FullAnswer['stated']): ApiFailure {
  if (read && 'value' in read) return stated(read.value, read.cut);
  return stated(errorBodyValue(read), read?.cut ?? false);
}

const NOT_JSON: Record<'not_json' | 'incomplete' | 'too_deep', string> = {
  not_json: "The KYC service's answer stops being JSON after its record began, so it could not be sent.",
  incomplete: "The KYC service's answer ended before the record was complete.",
  too_deep: TOO_DEEP.message,
};

/** Sends the checked body on, streamed, never buffered (megabytes), its bytes as sent: in the charset the service declared, else UTF-8. */
function streamBody(res: http.ServerResponse, upstreamRes: UpstreamBody, guard: AnswerGuard, closing: () => Promise<void>): void {
  const type = `application/json; charset=${charsetLabel(upstreamRes.headers['content-type']) ?? 'utf-8'}`;
  const outgoing: http.OutgoingHttpHeaders = { 'cache-control': 'no-store', 'content-type': type };
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    if (upstreamRes.headers[name] !== undefined) outgoing[name] = upstreamRes.headers[name];
  }
  res.writeHead(200, outgoing);
  // Once the status line is sent, a failure can only cut the connection (the guard's error): an incomplete body, never one that looks whole.
  guard.on('data', (chunk: Buffer) => countBytes(res, chunk.length));
  guard.pipe(lastAfter(closing)).pipe(res);
}

/**
 * The body passed on as it comes but its last byte, which leaves once `closing` (the closing line's write) is done: a client
 * that has the whole answer (by its Content-Length) finds the line in the trail, never leaves before the end. One byte, not a
 * chunk: a body that stalls or breaks off has passed on all it had but a byte (no copy). A guard that fails ends nothing.
 */
function lastAfter(closing: () => Promise<void>): Transform {
  let last: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (chunk.length === 0) return done();
      if (last) this.push(last);
      last = chunk.subarray(chunk.length - 1);
      done(null, chunk.length > 1 ? chunk.subarray(0, chunk.length - 1) : undefined);
    },
    flush(done) {
      void closing().finally(() => done(null, last));
    },
  });
}
