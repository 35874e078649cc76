import { isStatusLevelField } from '../../kyc/contract/schema.ts';
import { type JsonPath, QuietReader, type ScannedBody, scanOf } from './answer-scan.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { NOT_A_RECORD } from '../http/http-reply.ts';
import { JsonIncompleteError } from './json-tokens.ts';
import type { ScalarKind } from './json-bytes.ts';
import { type KeySearch, KeyWatch } from './key-watch.ts';
import { KEY_IN_ANSWER } from './upstream-body.ts';

/**
 * A support user's record read without holding the body, from the answer's one scan (answer-scan.ts):
 * only the envelope's `status` and the status-level fields of `data` are built into values; everything
 * else (identities, pictures, certificates, custom fields) is passed over as it arrives, so a 15 MB record
 * costs a few kilobytes here, however many are read at once. The whole body is still read as JSON: a body
 * that is not JSON is refused. The value equals `statusLevelValue(JSON.parse(body))`.
 */
export type Streamed = { ok: true; value: unknown } | { ok: false; failure: ApiFailure };

/** What a status-level record may hold in kept text and values at most: it is a few hundred bytes. */
const MAX_KEPT = 64 * 1024;

type Container = unknown[] | Record<string, unknown>;

/** JSON.parse's way of setting a member: an own property, `__proto__` included. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The envelope reduced as the reader below reduces it: `status`, and the status-level fields of an object `data`. */
export function statusLevelValue(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === 'status') setMember(out, key, value);
    else if (key === 'data' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      setMember(out, key, Object.fromEntries(Object.entries(value).filter(([field]) => isStatusLevelField(field))));
    }
  }
  return out;
}

export class StatusLevelReader extends QuietReader {
  private root: Record<string, unknown> | undefined;
  private data: Record<string, unknown> | undefined;
  /** The kept value being built, innermost container last, with the key each object is at. */
  private readonly building: Array<{ container: Container; key?: string }> = [];
  private pieces: string[] | undefined;
  /** Where a kept value starting here goes; undefined where it is not kept. */
  private place: ((value: unknown) => void) | undefined;
  private kept = 0;
  tooLarge = false;

  constructor(private readonly path: JsonPath) {
    super();
  }

  /** The reduced envelope once the body was read whole (undefined when it was not an object). */
  value(): unknown {
    return this.root;
  }

  override open(bracket: '{' | '['): void {
    if (this.building.length === 0 && this.path.depth <= 1 && this.openTop(bracket)) return;
    const target = this.target();
    if (!target) return;
    const container: Container = bracket === '{' ? {} : [];
    target(container);
    this.building.push({ container });
  }

  /** Once a value is kept, every container opened inside it is too: the innermost open one is the one closing. */
  override close(): void {
    this.building.pop();
  }

  override key(name: string): void {
    const top = this.building.at(-1);
    if (top) top.key = name;
  }

  override startString(): void {
    this.place = this.target();
    if (this.place) this.pieces = [];
  }

  override text(piece: string, inKey: boolean): void {
    if (inKey || !this.pieces) return;
    this.pieces.push(piece);
    this.count(piece.length);
  }

  override endString(): void {
    if (this.pieces && this.place) this.place(this.pieces.join(''));
    this.pieces = this.place = undefined;
  }

  override scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void {
    const target = this.target();
    if (!target) return;
    this.count(to - from);
    if (kind === 'number') target(Number(bytes.toString('latin1', from, to)));
    else target(kind === 'null' ? null : kind === 'true');
  }

  /**
   * The root object, and `data` when it is an object (a later `data`, as JSON.parse keeps the last,
   * replaces it). False for any other value at the top, which is opened as any other.
   */
  private openTop(bracket: '{' | '['): boolean {
    if (this.path.depth === 0) {
      if (bracket === '{') this.root = {};
      return true;
    }
    if (!(this.root && this.path.at(['data']))) return false;
    this.data = bracket === '{' ? {} : undefined;
    if (this.data) setMember(this.root, 'data', this.data);
    else Reflect.deleteProperty(this.root, 'data');
    return true;
  }

  /** Where a value starting here goes: inside a kept value, or at a kept place; undefined when it is passed over. */
  private target(): ((value: unknown) => void) | undefined {
    const top = this.building.at(-1);
    if (top) {
      const { container } = top;
      return Array.isArray(container) ? (value) => container.push(value) : (value) => setMember(container, top.key!, value);
    }
    const root = this.root;
    if (root && this.path.at(['status'])) return (value) => setMember(root, 'status', value);
    if (root && this.path.at(['data'])) return () => Reflect.deleteProperty(root, 'data');
    const data = this.data;
    if (data && this.path.at(['data', '*']) && isStatusLevelField(this.path.keys[1]!)) {
      return (value) => setMember(data, this.path.keys[1]!, value);
    }
    return undefined;
  }

  private count(size: number): void {
    this.kept += size;
    if (this.kept > MAX_KEPT) this.tooLarge = true;
  }
}

const broken = (message: string) => new ApiFailure('upstream_error', message);
const NOT_JSON = NOT_A_RECORD;
const INCOMPLETE = broken('The response of the KYC service is incomplete JSON.');
const TOO_LARGE_FIELDS = broken(
  'The response of the KYC service holds more in its status-level fields than a record does, so it was refused.',
);
const TOO_LARGE = new ApiFailure(
  'response_too_large',
  "The KYC service's response is larger than this server accepts (limits.maxResponseBytes).",
);

/** The body read to its end through its scan (fed here unless it is fed where it is received), reduced as it comes. */
export function readStatusLevelStreamed(body: ScannedBody, maxResponseBytes: number, keys: KeySearch): Promise<Streamed> {
  return new Promise((resolve) => {
    const { scan, fed } = scanOf(body);
    const reader = new StatusLevelReader(scan.path);
    const keyWatch = new KeyWatch(keys, scan.path, { raw: true });
    scan.add(reader);
    scan.add(keyWatch);
    let settled = false;
    const settle = (result: Streamed) => {
      if (settled) return;
      settled = true;
      scan.remove(reader);
      scan.remove(keyWatch);
      if (!result.ok) body.destroy();
      resolve(result);
    };
    /** What the scan has shown so far refuses the answer. */
    const refusal = (): ApiFailure | undefined => {
      if (keyWatch.found) return KEY_IN_ANSWER;
      if (scan.failure) return scan.failure instanceof JsonIncompleteError ? INCOMPLETE : NOT_JSON;
      return reader.tooLarge ? TOO_LARGE_FIELDS : undefined;
    };
    let received = 0;
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxResponseBytes) return settle({ ok: false, failure: TOO_LARGE });
      if (!fed) scan.write(chunk);
      const refused = refusal();
      if (refused) settle({ ok: false, failure: refused });
    });
    body.once('end', () => {
      if (!fed) scan.end();
      const refused = refusal() ?? (scan.ended ? undefined : INCOMPLETE);
      settle(refused ? { ok: false, failure: refused } : { ok: true, value: reader.value() });
    });
    const breakOff = () => settle({ ok: false, failure: broken('The response of the KYC service broke off.') });
    body.once('error', breakOff);
    body.once('aborted', breakOff);
    body.once('close', () => {
      if (!body.complete) breakOff();
    });
  });
}
