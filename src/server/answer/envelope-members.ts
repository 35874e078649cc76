import { type JsonPath, QuietReader } from './answer-scan.ts';
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
