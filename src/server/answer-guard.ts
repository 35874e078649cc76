import { Transform, type TransformCallback } from 'node:stream';

/**
 * Checks on a successful answer of the service before its bytes reach the browser, apart from how the
 * answer is then sent (streamed whole, or in parts): an upstream, or a wrong KYC_BASE_URL such as an
 * echo service, that reflects the Authorization header would otherwise hand the key to the browser.
 */

/** Keys shorter than this are not searched for: they would match ordinary text, and no issued key is this short. */
export const MIN_SEARCHED_KEY_LENGTH = 8;

/** The byte strings that give a key away: as sent, and as a JSON string would escape it. */
export function keyNeedles(keys: readonly (string | undefined)[]): Buffer[] {
  const forms = new Set<string>();
  for (const key of keys) {
    if (!key || key.length < MIN_SEARCHED_KEY_LENGTH) continue;
    const escaped = JSON.stringify(key).slice(1, -1);
    for (const form of [key, escaped, escaped.replaceAll('/', '\\/')]) forms.add(form);
  }
  return [...forms].map((form) => Buffer.from(form));
}

/**
 * Finds any needle in a stream of chunks, also one split across chunks. `push` returns the bytes that
 * are safe to pass on: it holds back the last (longest needle - 1) bytes until the next chunk shows
 * they do not start a needle, so not even part of a key is passed on ahead of the check.
 */
export class NeedleWatch {
  private held: Buffer = Buffer.alloc(0);
  private readonly keep: number;

  constructor(private readonly needles: readonly Buffer[]) {
    this.keep = Math.max(0, ...needles.map((needle) => needle.length - 1));
  }

  /** The bytes now safe to pass on, in order, or `found` when a needle was seen (nothing more may be passed on). */
  push(chunk: Buffer): Buffer[] | 'found' {
    if (this.needles.length === 0) return [chunk];
    if (chunk.length < this.keep) {
      const window = Buffer.concat([this.held, chunk]);
      if (this.needles.some((needle) => window.includes(needle))) return 'found';
      const safe = Math.max(0, window.length - this.keep);
      this.held = window.subarray(safe);
      return safe > 0 ? [window.subarray(0, safe)] : [];
    }
    // Across the seam (what was held and the start of this chunk), then the chunk itself: no copy of it.
    const seam = Buffer.concat([this.held, chunk.subarray(0, this.keep)]);
    if (this.needles.some((needle) => seam.includes(needle) || chunk.includes(needle))) return 'found';
    const out = [this.held, chunk.subarray(0, chunk.length - this.keep)].filter((part) => part.length > 0);
    this.held = Buffer.from(chunk.subarray(chunk.length - this.keep));
    return out;
  }

  /** At the end of the body: what was held back. */
  end(): Buffer {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    return rest;
  }
}

/** The ways a candidate envelope opens, part by part (JSON whitespace may stand between the parts). */
const OPENINGS = [
  ['{', '"status"', ':', '"success"'],
  ['{', '"data"', ':', '{'],
];

/** Whether the body's first bytes open a candidate envelope: `{"status":"success"` or `{"data":{`. */
export function envelopeStart(prefix: Buffer): 'yes' | 'no' | 'more' {
  const text = prefix.toString('latin1').replace(/^\xef\xbb\xbf/, '');
  let verdict: 'no' | 'more' = 'no';
  for (const parts of OPENINGS) {
    let rest = text;
    let opening: 'yes' | 'no' | 'more' = 'yes';
    for (const part of parts) {
      rest = rest.replace(/^[ \t\r\n]+/, '');
      if (rest.startsWith(part)) {
        rest = rest.slice(part.length);
        continue;
      }
      opening = part.startsWith(rest) ? 'more' : 'no';
      break;
    }
    if (opening === 'yes') return 'yes';
    if (opening === 'more') verdict = 'more';
  }
  return verdict;
}

/** The longest start of a body read to decide that it opens an envelope (whitespace included). */
const MAX_ENVELOPE_PREFIX = 256;

export type GuardProblem = 'key_reflected' | 'not_an_envelope';

export class AnswerGuardError extends Error {
  override name = 'AnswerGuardError';
  constructor(readonly problem: GuardProblem) {
    super(problem === 'key_reflected' ? "the answer contains this server's API key" : 'the answer does not start as a candidate envelope');
  }
}

/**
 * A transform for a successful answer's body: passes nothing on until the body is seen to start as a
 * candidate envelope, and never a byte of a key (NeedleWatch). Fails with AnswerGuardError otherwise.
 * Its first output (see `firstOutput`) means both checks passed on what has arrived so far.
 */
export function createAnswerGuard(needles: readonly Buffer[]): Transform {
  const watch = new NeedleWatch(needles);
  let start: Buffer | undefined = Buffer.alloc(0);
  const pass = (guard: Transform, chunk: Buffer, done: TransformCallback) => {
    const safe = watch.push(chunk);
    if (safe === 'found') return done(new AnswerGuardError('key_reflected'));
    for (const part of safe) guard.push(part);
    done();
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (start === undefined) return pass(this, chunk, done);
      start = Buffer.concat([start, chunk]);
      const verdict = envelopeStart(start.subarray(0, MAX_ENVELOPE_PREFIX));
      if (verdict === 'no' || (verdict === 'more' && start.length >= MAX_ENVELOPE_PREFIX)) {
        return done(new AnswerGuardError('not_an_envelope'));
      }
      if (verdict === 'more') return done();
      const opened = start;
      start = undefined;
      pass(this, opened, done);
    },
    flush(done) {
      if (start !== undefined) return done(new AnswerGuardError('not_an_envelope'));
      const rest = watch.end();
      if (rest.length > 0) this.push(rest);
      done();
    },
  });
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
