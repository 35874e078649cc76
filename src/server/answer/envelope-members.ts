import { type JsonPath, QuietReader } from './answer-scan.ts';
import { setMember, ValueBuilder } from './answer-value.ts';
import type { TextPiece } from './text-piece.ts';

/**
 * The envelope's own members, `status` and `data`, as both levels read them. A member given twice reads
 * two ways: JSON.parse (the status level) keeps the last, a reader of the opening bytes (the answer
 * guard) the first; so `{"status":"error","status":"success",…}` was a record at one level and an error
 * at the other. Such an answer is refused at both (http-reply.ts, repeatedMember); with one `status`,
 * "error" makes it the service's error envelope at both, wherever it stands (after `data` too).
 */
const ENVELOPE_MEMBERS: readonly string[] = ['status', 'data'];

/** Notes the envelope's members as their keys are read; its `repeated` names the first one given twice. */
export class EnvelopeKeys {
  private readonly seen = new Set<string>();
  repeated: string | undefined;

  constructor(private readonly path: JsonPath) {}

  /** A key, once the scan has set it in the path (answer-scan.ts): only the root object's count. */
  key(name: string): void {
    if (this.path.depth !== 1 || this.path.kinds[0] !== '{' || !ENVELOPE_MEMBERS.includes(name)) return;
    if (this.seen.has(name)) this.repeated ??= name;
    this.seen.add(name);
  }
}

/** Long enough to tell "error" from a longer text that starts with it. */
const STATUS_READ = 'error'.length + 1;

/**
 * The answer guard's reader of the envelope: its repeated members, and whether its `status` (the last
 * read) is "error". It reads keys of the root object and the one short `status` text: nothing per byte.
 */
export class EnvelopeWatch extends QuietReader {
  readonly keys: EnvelopeKeys;
  /** The envelope's `status` says "error" (the last one read: a repeated one is refused anyway). */
  statedError = false;
  /** The `status` text being read; undefined outside it. */
  private status: string | undefined;

  constructor(private readonly path: JsonPath) {
    super();
    this.keys = new EnvelopeKeys(path);
  }

  override key(name: string): void {
    this.keys.key(name);
  }

  override startString(): void {
    if (this.path.at(['status'])) this.status = '';
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (this.status !== undefined && !inKey && this.status.length < STATUS_READ) this.status += piece.head(STATUS_READ);
  }

  override endString(): void {
    if (this.status === undefined) return;
    this.statedError = this.status === 'error';
    this.status = undefined;
  }

  override open(): void {
    if (this.path.at(['status'])) this.statedError = false;
  }

  override scalar(): void {
    if (this.path.at(['status'])) this.statedError = false;
  }
}

/**
 * The members of the service's error envelope, `{"status":"error","message":…,"code":404}`, kept beside
 * `status` (and `extra.retryAfter`, a 429's wait, which `retryAfter` beside them gives too): a successful
 * answer that is one is read as the error it states, and a record never shows them.
 */
export const ENVELOPE_ERROR_MEMBERS: readonly string[] = ['message', 'code', 'retryAfter'];

/**
 * Where a member of the error envelope starting at `path` goes in `root` (the envelope read so far):
 * `status`, `message`, `code`, `retryAfter`, `extra.retryAfter`, `error.message` (a message nested in an `error`
 * object); an `extra` that is no object holds no wait, an `error` that is none no message. Undefined
 * for any other place.
 */
export function errorMemberPlace(path: JsonPath, root: Record<string, unknown>): ((value: unknown) => void) | undefined {
  if (path.at(['status'])) return (value) => setMember(root, 'status', value);
  const member = ENVELOPE_ERROR_MEMBERS.find((name) => path.at([name]));
  if (member) return (value) => setMember(root, member, value);
  if (path.at(['extra'])) return () => Reflect.deleteProperty(root, 'extra');
  if (path.at(['extra', 'retryAfter'])) return (value) => setMember(root, 'extra', { retryAfter: value });
  if (path.at(['error'])) return () => Reflect.deleteProperty(root, 'error');
  if (path.at(['error', 'message'])) return (value) => setMember(root, 'error', { message: value });
  return undefined;
}

/**
 * A container a reader of the envelope's members opens outside what it keeps: the envelope itself (a new
 * root when it is an object) and an `extra` or `error` object (a later one replaces it, as JSON.parse keeps
 * the last: only its retryAfter, or its message, is kept, errorMemberPlace). Undefined at any other place.
 */
export function openedEnvelopePlace(
  path: JsonPath,
  bracket: '{' | '[',
  root: Record<string, unknown> | undefined,
): { root: Record<string, unknown> | undefined } | undefined {
  if (path.depth === 0) return { root: bracket === '{' ? {} : root };
  if (root && (path.at(['extra']) || path.at(['error']))) {
    Reflect.deleteProperty(root, path.at(['extra']) ? 'extra' : 'error');
    return { root };
  }
  return undefined;
}

/**
 * The error envelope's own members read from the answer's tokens, for an error stated after the record
 * (`{"data":{…},"status":"error","message":"Resource not Found","code":404}`): its bytes have passed by
 * then, and without these the reviewer was told "answered with an error" and not which. It keeps at most
 * `maxKept` characters (`tooLarge` past them, as an error body read in part is `cut`); `data` is passed over.
 */
export class ErrorMembers extends ValueBuilder {
  private root: Record<string, unknown> | undefined;

  value(): Record<string, unknown> | undefined {
    return this.root;
  }

  protected override openOutside(bracket: '{' | '['): boolean {
    const opened = openedEnvelopePlace(this.path, bracket, this.root);
    if (opened) this.root = opened.root;
    return opened !== undefined;
  }

  protected outside(): ((value: unknown) => void) | undefined {
    return this.root && errorMemberPlace(this.path, this.root);
  }
}
