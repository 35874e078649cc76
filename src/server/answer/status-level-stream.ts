import { isStatusLevelField } from '../../kyc/contract/schema.ts';
import type { JsonPath, ScannedBody } from './answer-scan.ts';
import { readValue, setMember, ValueBuilder, type ValueRead } from './answer-value.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { NOT_A_RECORD } from '../http/http-reply.ts';
import type { KeySearch } from './key-watch.ts';

/**
 * A support user's record read without holding the body, from the answer's one scan (answer-scan.ts,
 * answer-value.ts): only the envelope's `status` and the status-level fields of `data` are built into
 * values; everything else (identities, pictures, certificates, custom fields) is passed over as it
 * arrives, so a 15 MB record costs a few kilobytes here, however many are read at once. The whole body
 * is still read as JSON: a body that is not JSON is refused. The value equals
 * `statusLevelValue(JSON.parse(body))`.
 */

/** What a status-level record may hold in kept text and values at most: it is a few hundred bytes. */
const MAX_KEPT = 64 * 1024;

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

export class StatusLevelReader extends ValueBuilder {
  private root: Record<string, unknown> | undefined;
  private data: Record<string, unknown> | undefined;

  constructor(path: JsonPath) {
    super(path, MAX_KEPT);
  }

  /** The reduced envelope once the body was read whole (undefined when it was not an object). */
  value(): unknown {
    return this.root;
  }

  /**
   * The root object, and `data` when it is an object (a later `data`, as JSON.parse keeps the last,
   * replaces it). False for any other value at the top, which is opened as any other.
   */
  protected override openOutside(bracket: '{' | '['): boolean {
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

  /** Where a value starting outside every kept one goes: `status`, a status-level field of `data`; undefined when it is passed over. */
  protected outside(): ((value: unknown) => void) | undefined {
    const root = this.root;
    if (root && this.path.at(['status'])) return (value) => setMember(root, 'status', value);
    if (root && this.path.at(['data'])) return () => Reflect.deleteProperty(root, 'data');
    const data = this.data;
    if (data && this.path.at(['data', '*']) && isStatusLevelField(this.path.keys[1]!)) {
      return (value) => setMember(data, this.path.keys[1]!, value);
    }
    return undefined;
  }
}

const broken = (message: string) => new ApiFailure('upstream_error', message);
const FAILURES = {
  notJson: NOT_A_RECORD,
  incomplete: broken('The response of the KYC service is incomplete JSON.'),
  tooLarge: broken('The response of the KYC service holds more in its status-level fields than a record does, so it was refused.'),
};

/** The body read to its end through its scan, reduced as it comes. */
export function readStatusLevelStreamed(body: ScannedBody, maxResponseBytes: number, keys: KeySearch): Promise<ValueRead> {
  return readValue(body, { maxResponseBytes, keys }, (path) => new StatusLevelReader(path), FAILURES);
}
