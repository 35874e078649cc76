import { keyNeedles, MIN_SEARCHED_KEY_LENGTH, NeedleWatch } from './needle-watch.ts';
import { type JsonPath, QuietReader } from './answer-scan.ts';

/**
 * The key-reflection check as a reader of the one scan (answer-scan.ts). The raw bytes are searched as
 * they come (answer-guard.ts's NeedleWatch), but a browser reads more than the bytes: `JSON.parse` turns
 * `\u006c\u0069…` into the key, and the viewer decodes an identity value from base64 (as the parts do).
 * So the decoded text of every string and key is searched too, piece by piece with an overlap of one key
 * length less one, and every identity value is decoded the forgiving way the browser's `atob` does
 * (whitespace skipped, a `data:` prefix dropped) and its bytes searched likewise. Memory: the overlaps
 * and at most three undecoded characters per value, whatever the answer's size.
 */

/** A set of keys in the forms they are searched in. */
export interface KeySearch {
  /** As they would stand in the raw bytes: as sent, and as JSON would escape them. */
  needles: Buffer[];
  /** As a decoded string holds them. */
  texts: string[];
  /** As decoded bytes hold them. */
  bytes: Buffer[];
}

export function keySearch(keys: readonly (string | undefined)[]): KeySearch {
  const texts = [...new Set(keys.filter((key): key is string => key !== undefined && key.length >= MIN_SEARCHED_KEY_LENGTH))];
  return { needles: keyNeedles(texts), texts, bytes: texts.map((text) => Buffer.from(text)) };
}

/** The identity values a browser decodes from base64: `data.identities.<name>.value`. */
const IDENTITY_VALUE = ['data', 'identities', '*', 'value'] as const;
/** A `data:` URL's head is at most this long: past it, the value is read as it is. */
const MAX_PREFIX = 256;

/** The length of the `data:…,` the value opens with (0: none), or undefined while it cannot be told yet. */
function dataPrefix(text: string): number | undefined {
  if (text.length < 5) return 'data:'.startsWith(text) ? undefined : 0;
  if (!text.startsWith('data:')) return 0;
  const comma = text.indexOf(',');
  if (comma >= 0 && comma < MAX_PREFIX) return comma + 1;
  return text.length < MAX_PREFIX ? undefined : 0;
}
const NOT_BASE64 = /[^A-Za-z0-9+/]/g;

export class KeyWatch extends QuietReader {
  found = false;
  /**
   * Whether identity values are decoded here; off when the answer's own reader decodes them anyway (the
   * parts' picture decoder) and hands their bytes to `bytesSearch` and their text, when it is not
   * canonical, to `textSearch`: so a picture is decoded once.
   */
  decodesPictures = true;
  private readonly raw: NeedleWatch | undefined;
  private readonly longest: number;
  private textTail = '';
  private picture: LooseBase64 | undefined;
  private pictureSearch: (bytes: Buffer) => void = () => {};

  /** `raw`: also search the raw bytes (a reader that passes no bytes on itself; the guard searches them as it passes them). */
  constructor(
    private readonly keys: KeySearch,
    private readonly path: JsonPath,
    options: { raw: boolean },
  ) {
    super();
    this.raw = options.raw && keys.needles.length > 0 ? new NeedleWatch(keys.needles) : undefined;
    this.longest = Math.max(0, ...keys.texts.map((text) => text.length));
  }

  override bytes(chunk: Buffer): void {
    if (this.raw && this.raw.push(chunk) === 'found') this.found = true;
  }

  override startString(): void {
    this.textTail = '';
    if (this.longest > 0 && this.decodesPictures && this.path.at(IDENTITY_VALUE)) {
      this.picture = new LooseBase64();
      this.pictureSearch = this.bytesSearch();
    }
  }

  override text(piece: string, inKey: boolean, verbatim: boolean): void {
    if (this.longest === 0 || this.found) return;
    // A verbatim piece was searched as bytes already; only its seam with what came before is new.
    const searched = verbatim ? this.textTail + piece.slice(0, this.longest - 1) : this.textTail + piece;
    if (this.keys.texts.some((text) => searched.includes(text))) this.found = true;
    this.textTail = (this.textTail + piece.slice(-(this.longest - 1))).slice(-(this.longest - 1));
    if (this.picture && !inKey) this.pictureSearch(this.picture.push(piece));
  }

  override key(_name: string): void {
    this.textTail = '';
  }

  override endString(): void {
    this.textTail = '';
    if (this.picture) this.pictureSearch(this.picture.end());
    this.picture = undefined;
  }

  /** A search of one value's text, decoded the forgiving way (`LooseBase64`), piece after piece. */
  textSearch(pieces: readonly string[]): void {
    const search = this.bytesSearch();
    const decoder = new LooseBase64();
    for (const piece of pieces) search(decoder.push(piece));
    search(decoder.end());
  }

  /** A search of one value's decoded bytes, given in order: each with the end of the last, for a key cut between them. */
  bytesSearch(): (bytes: Buffer) => void {
    let tail = Buffer.alloc(0);
    return (bytes) => {
      if (this.found || bytes.length === 0 || this.longest === 0) return;
      const window = tail.length > 0 ? Buffer.concat([tail, bytes.subarray(0, this.longest - 1)]) : undefined;
      if (this.keys.bytes.some((needle) => bytes.includes(needle) || window?.includes(needle))) this.found = true;
      tail = Buffer.from(Buffer.concat([tail, bytes.subarray(-(this.longest - 1))]).subarray(-(this.longest - 1)));
    };
  }
}

/**
 * An identity value decoded as the browser's `atob` would read it, as it comes: canonical base64 decoded
 * at once (Node's decoder), anything else first reduced to the base64 letters (the browser skips
 * whitespace; a value it would refuse is decoded anyway, as the safer guess).
 */
class LooseBase64 {
  private carry = '';
  private first = true;

  push(piece: string): Buffer {
    let text = this.carry + piece;
    if (this.first) {
      const prefix = dataPrefix(text);
      if (prefix === undefined) {
        this.carry = text;
        return Buffer.alloc(0);
      }
      this.first = false;
      text = text.slice(prefix);
    }
    const whole = text.length - (text.length % 4);
    const bytes = Buffer.from(text.slice(0, whole), 'base64');
    if (bytes.length === (whole / 4) * 3) {
      this.carry = text.slice(whole);
      return bytes;
    }
    const letters = text.replace(NOT_BASE64, '');
    const aligned = letters.length - (letters.length % 4);
    this.carry = letters.slice(aligned);
    return Buffer.from(letters.slice(0, aligned), 'base64');
  }

  end(): Buffer {
    const rest = this.carry.replace(NOT_BASE64, '');
    this.carry = '';
    return Buffer.from(rest, 'base64');
  }
}
