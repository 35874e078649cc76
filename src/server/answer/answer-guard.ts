import { Transform, type TransformCallback } from 'node:stream';
import { scanOf, type AnswerScan, ScanFault, type ScannedBody } from './answer-scan.ts';
import { EnvelopeWatch, ErrorMembers } from './envelope-members.ts';
import { envelopeStart, MAX_ENVELOPE_PREFIX, type Opening } from './envelope-start.ts';
import { causeOfHead, type NotARecordCause } from './not-a-record.ts';
import { JsonIncompleteError, JsonTooDeepError } from './json-tokens.ts';
import { type AskedCandidate, AskedIdWatch } from './asked-id-watch.ts';
import type { NotAnId } from '../../kyc/contract/answered-id.ts';
import { type KeySearch, KeyWatch } from './key-watch.ts';
import { turns } from './turns.ts';

/**
 * Checks on a successful answer of the service before its bytes reach the browser, apart from how the
 * answer is then sent (streamed whole, or in parts): a candidate envelope, JSON throughout, and never the
 * key (an upstream, or a wrong KYC_BASE_URL such as an echo service, that reflects the Authorization
 * header would otherwise hand it to the browser).
 */

export type GuardProblem =
  | 'key_reflected'
  | 'other_candidate'
  | 'second_envelope'
  | 'not_an_envelope'
  | 'no_record'
  | 'repeated_member'
  | 'error_envelope'
  | 'not_json'
  | 'incomplete'
  | 'too_deep'
  | 'scan_fault';

const PROBLEMS: Record<GuardProblem, string> = {
  key_reflected: "the answer contains this server's API key",
  other_candidate: "the answer's record is another candidate's",
  second_envelope: "the answer's record came wrapped in a second envelope",
  not_an_envelope: 'the answer does not start as a candidate envelope',
  no_record: 'the answer holds no record (data is null)',
  repeated_member: "the answer gives its envelope's status or data twice",
  error_envelope: "the answer is the service's error envelope",
  not_json: 'the answer is not JSON',
  incomplete: 'the answer is incomplete JSON',
  too_deep: 'the answer is nested too deep',
  scan_fault: 'a reader of the answer failed here',
};

/**
 * What was read of an error envelope: at most the guard's bound of its bytes, or (its status read after
 * the record, its bytes gone by) its members as read from the tokens; `cut`: it went on past the bound.
 */
export type StatedError = { bytes: Buffer; cut: boolean } | { value: unknown; cut: boolean };

export class AnswerGuardError extends Error {
  override name = 'AnswerGuardError';
  constructor(
    readonly problem: GuardProblem,
    /** For `error_envelope`: the envelope's bytes, or its members read after the record, for the error it states. */
    readonly stated?: StatedError,
    /** For `repeated_member`: the member given twice. */
    readonly member?: string,
    /** For `other_candidate`: the id the record gave, or the kind of a value that is no id. */
    readonly answered?: string | NotAnId,
    /** For `not_an_envelope`: what the body is instead; for `second_envelope`, where the record was wrapped (not-a-record.ts). */
    readonly notARecord?: NotARecordCause,
  ) {
    super(PROBLEMS[problem]);
  }
}

/** Not JSON before the envelope opened is not a record at all (perhaps encrypted), rather than a broken one. */
function opens(start: Buffer | undefined, chunk: Buffer): boolean {
  return start === undefined || opening(start, chunk) === 'yes';
}

const opening = (start: Buffer, chunk: Buffer) => envelopeStart(Buffer.concat([start, chunk]).subarray(0, MAX_ENVELOPE_PREFIX));

/**
 * The bytes of an error envelope, at most `max` of them: its error once the body has ended, or at once
 * when it goes on past `max` (`cut`), the rest never read (the guard's error ends the body).
 */
function statedCollector(max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk: Buffer): AnswerGuardError | undefined {
      if (size + chunk.length <= max) {
        chunks.push(chunk);
        size += chunk.length;
        return undefined;
      }
      chunks.push(chunk.subarray(0, max - size));
      return new AnswerGuardError('error_envelope', { bytes: Buffer.concat(chunks), cut: true });
    },
    ended: () => new AnswerGuardError('error_envelope', { bytes: Buffer.concat(chunks), cut: false }),
  };
}

/** What the answer's readers have seen wrong so far, the worst first. */
function problemSeen(scan: AnswerScan, keyWatch: KeyWatch, envelope: EnvelopeWatch, ids?: AskedIdWatch): AnswerGuardError | undefined {
  if (keyWatch.found) return new AnswerGuardError('key_reflected');
  if (ids?.other !== undefined) return new AnswerGuardError('other_candidate', undefined, undefined, ids.other);
  if (ids?.wrapped)
    return new AnswerGuardError('second_envelope', undefined, undefined, undefined, { cause: 'second_envelope', at: ids.wrapped });
  const repeated = envelope.keys.repeated;
  if (repeated) return new AnswerGuardError('repeated_member', undefined, repeated);
  if (!scan.failure) return undefined;
  if (scan.failure instanceof ScanFault) return Object.assign(new AnswerGuardError('scan_fault'), { cause: scan.failure.cause });
  if (scan.failure instanceof JsonTooDeepError) return new AnswerGuardError('too_deep');
  return new AnswerGuardError(scan.failure instanceof JsonIncompleteError ? 'incomplete' : 'not_json');
}

/**
 * An answer that opened as a record whose `status`, read after it, says "error": the error envelope all
 * the same, not a record. Its bytes are past (only its opening's are gathered): the error is read from its
 * members as the tokens gave them (envelope-members.ts), once the body has ended (`error`) or
 * `maxErrorBytes` more have come (`read`: its members after the status are read as an error body's are),
 * nothing more passed on meanwhile. After the status line it can only cut the answer short, as any late
 * fault does.
 */
function lateStatus(scan: AnswerScan, maxErrorBytes: number) {
  const envelope = new EnvelopeWatch(scan.path);
  scan.add(envelope);
  const members = new ErrorMembers(scan.path, maxErrorBytes);
  scan.add(members);
  /** Bytes read after the chunk in which the status said "error". */
  let after: number | undefined;
  const error = (cut = false) =>
    envelope.statedError ? new AnswerGuardError('error_envelope', { value: members.value(), cut: cut || members.tooLarge }) : undefined;
  return {
    envelope,
    error,
    /** A chunk read once the status said "error": held back; the error once past the bound. */
    read(chunk: Buffer): AnswerGuardError | undefined {
      after = after === undefined ? 0 : after + chunk.length;
      return after > maxErrorBytes ? error(true) : undefined;
    },
  };
}

/**
 * A guard, and the answer's one scan (answer-scan.ts): a reader of the answer in parts adds itself to it;
 * `askedId`, the record's id of the kind asked as read so far (asked-id-watch.ts).
 */
export type AnswerGuard = Transform & { scan: AnswerScan; keyWatch: KeyWatch; askedId?: AskedIdWatch };

/**
 * How much of an answer is held back until the record's id of the kind asked is read: the service writes
 * its ids before the identities, within the first few hundred bytes. An answer that gives it later is
 * passed on past this and cut if the id is another candidate's: the browser never reads a cut answer.
 */
export const ASKED_ID_HOLD_BYTES = 64 * 1024;

/** Found wrong wherever it is found: the answer is refused at once (or, once begun, cut), never read on. */
const FATAL: ReadonlySet<GuardProblem> = new Set(['key_reflected', 'repeated_member', 'other_candidate', 'second_envelope']);

/**
 * A transform for a successful answer's body: passes nothing on until the body is seen to start as a
 * candidate envelope, never a byte of a key, and nothing past the first byte that is not JSON; the last
 * bytes only once the whole body was read as JSON and the key was not in any decoded string or picture
 * (key-watch.ts): a browser never parses a body cut short, so what only a parse would reveal never
 * reaches it. Fails with AnswerGuardError otherwise. Its first output (see `firstOutput`) means every
 * check passed on what has arrived so far. The body is tokenized once: by the scan fed where it is
 * received (archive-watch.ts), or here; the key is searched for in that scan too, raw bytes and decoded
 * text alike. What the search has cleared is passed on at once; the last bytes it has read (one less than
 * the longest needle: the bytes after them could end a key they start) only with the next chunk, or at
 * the end.
 */
/**
 * The most of an error answer's body read (upstream/error-body.ts, and an error envelope inside a 200
 * here): the service's envelope is well under 200 bytes. Of a longer body (a gateway's HTML page, an
 * envelope carrying a stack trace) only these first bytes are read, and the rest is dropped unread.
 */
export const ERROR_BODY_MAX_BYTES = 4 * 1024;

export function createAnswerGuard(
  body: ScannedBody,
  keys: KeySearch,
  options: { asked?: AskedCandidate; maxErrorBytes?: number } = {},
): AnswerGuard {
  const { scan, fed } = scanOf(body);
  const maxErrorBytes = options.maxErrorBytes ?? ERROR_BODY_MAX_BYTES;
  const keyWatch = new KeyWatch(keys, scan.path, { raw: true });
  scan.add(keyWatch);
  const askedId = options.asked && new AskedIdWatch(scan.path, options.asked);
  if (askedId) scan.add(askedId);
  const late = lateStatus(scan, maxErrorBytes);
  const { envelope } = late;
  /** Bytes not yet passed on, in order, and how many were passed on before them. */
  const held: Buffer[] = [];
  let passed = 0;
  /** Passes on the held bytes that the key search has cleared (key-watch.ts, `clearThrough`) or, at the end, all. */
  const release = (guard: Transform, through: number) => {
    while (held.length > 0 && passed < through) {
      const chunk = held[0]!;
      const part = chunk.subarray(0, through - passed);
      if (part.length === chunk.length) held.shift();
      else held[0] = chunk.subarray(part.length);
      passed += part.length;
      guard.push(part);
    }
  };
  let start: Buffer | undefined = Buffer.alloc(0);
  let stated: ReturnType<typeof statedCollector> | undefined;
  const problem = () => problemSeen(scan, keyWatch, envelope, askedId);
  const turn = turns();
  let read = 0;
  const pass = (guard: Transform, chunk: Buffer, done: TransformCallback) => {
    if (envelope.statedError) return done(late.read(chunk));
    held.push(chunk);
    read += chunk.length;
    // Not a byte of the record until its id is known not to be another candidate's (asked-id-watch.ts), for
    // as long as the service's own order would give it: held longer, an answer without that id (by recordId,
    // often) would be held whole. Past it the record goes on, and another's id found later cuts it.
    if (!askedId || askedId.settled || read > ASKED_ID_HOLD_BYTES) release(guard, keyWatch.clearThrough);
    turn(done);
  };
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!fed) scan.write(chunk);
      const found = problem();
      if (found && FATAL.has(found.problem)) return done(found);
      if (stated) return done(stated.add(chunk));
      // The service's error envelope: gathered (its JSON need not hold) for the error it states to be read.
      if (start !== undefined && opening(start, chunk) === 'error') {
        stated = statedCollector(maxErrorBytes);
        return done(stated.add(Buffer.concat([start, chunk])));
      }
      if (found) return done(notJsonFound(found, start, chunk));
      if (start === undefined) return pass(this, chunk, done);
      start = Buffer.concat([start, chunk]);
      const verdict = envelopeStart(start.subarray(0, MAX_ENVELOPE_PREFIX));
      const refused = openingRefused(verdict, start);
      if (refused) return done(refused);
      if (verdict === 'more') return done();
      const opened = start;
      start = undefined;
      pass(this, opened, done);
    },
    flush(done) {
      if (stated) {
        if (!fed) scan.end();
        const found = problem();
        return done(found && FATAL.has(found.problem) ? found : stated.ended());
      }
      if (start !== undefined) return done(notAnEnvelope(start, true));
      if (!fed) scan.end();
      const found = problem() ?? late.error() ?? (scan.ended ? undefined : new AnswerGuardError('incomplete'));
      if (found) return done(found);
      release(this, Number.POSITIVE_INFINITY);
      done();
    },
  });
  return Object.assign(guard, { scan, keyWatch, ...(askedId ? { askedId } : {}) });
}

/** Why the body's opening is refused: it holds no record (`"data":null`), or opens no candidate envelope; undefined while it may. */
function openingRefused(verdict: Opening, start: Buffer): AnswerGuardError | undefined {
  if (verdict === 'empty') return new AnswerGuardError('no_record');
  if (verdict === 'no' || (verdict === 'more' && start.length >= MAX_ENVELOPE_PREFIX)) return notAnEnvelope(start, false);
  return undefined;
}

/** A body that stopped being JSON before it opened an envelope: not one, said as what it is; any other problem as itself. */
function notJsonFound(found: AnswerGuardError, start: Buffer | undefined, chunk: Buffer): AnswerGuardError {
  return found.problem === 'not_json' && start !== undefined && !opens(start, chunk)
    ? notAnEnvelope(Buffer.concat([start, chunk]), false)
    : found;
}

/** A body that opens no candidate envelope, with what it is instead, named from its first bytes (`ended`: all of it). */
function notAnEnvelope(start: Buffer, ended: boolean): AnswerGuardError {
  const cause = causeOfHead(start.subarray(0, MAX_ENVELOPE_PREFIX), ended) ?? { cause: 'unknown' };
  return new AnswerGuardError('not_an_envelope', undefined, undefined, undefined, cause);
}

/**
 * Resolves once the guard has passed its first bytes on (both checks passed so far) or ended, with
 * the error when it failed first. The guard's output is left unread, for the caller to pipe on.
 */
export function firstOutput(guard: Transform): Promise<{ ok: true } | { ok: false; error: Error }> {
  return new Promise((resolve) => {
    const settle = (result: { ok: true } | { ok: false; error: Error }) => {
      guard.off('readable', onReadable);
      guard.off('error', onError);
      resolve(result);
    };
    const onReadable = () => settle({ ok: true });
    const onError = (error: Error) => settle({ ok: false, error });
    guard.once('readable', onReadable);
    guard.once('error', onError);
  });
}
