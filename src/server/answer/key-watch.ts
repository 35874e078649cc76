import { keyNeedles, MIN_SEARCHED_KEY_LENGTH, NeedleWatch } from './needle-watch.ts';
import { type JsonPath, QuietReader } from './answer-scan.ts';
import { NeedleSet } from './needle-set.ts';
import { base64Runs, PictureKeySearch } from './picture-key-search.ts';
import type { TextPiece } from './text-piece.ts';

/**
 * The key-reflection check as a reader of the one scan (answer-scan.ts). The raw bytes are searched as they
 * come (`raw`: the guard passes on what `clearThrough` has cleared), but a browser reads more than the
 * bytes: `JSON.parse` turns `\u006c\u0069…` into the key, and the viewer decodes an identity value from
 * base64 (as the parts do). So the decoded text of every string and key is searched too, piece by piece
 * with an overlap of one key length less one, and every identity value is searched as the browser would
 * decode it (whitespace skipped, a `data:` prefix dropped): while it is plain letters, by the raw bytes'
 * search, whose needles include the key's base64 forms; by its decoded bytes otherwise
 * (picture-key-search.ts). Memory: the overlaps and a few dozen letters per value, whatever the answer's
 * size.
 */

/** A set of keys in the forms they are searched in. */
export interface KeySearch {
  /**
   * As they would stand in the raw bytes: as sent, as JSON would escape them, and as plain base64 letters
   * hold their bytes at each alignment (picture-key-search.ts), so that the one search of the raw bytes
   * also covers every identity value while it is plain letters.
   */
  needles: NeedleSet;
  /** As a decoded string holds them. */
  texts: string[];
  /** As decoded bytes hold them. */
  bytes: NeedleSet;
}

export function keySearch(keys: readonly (string | undefined)[]): KeySearch {
  const texts = [...new Set(keys.filter((key): key is string => key !== undefined && key.length >= MIN_SEARCHED_KEY_LENGTH))];
  const bytes = texts.map((text) => Buffer.from(text));
  const runs = bytes.flatMap(base64Runs).map((run) => Buffer.from(run));
  return { needles: new NeedleSet([...keyNeedles(texts), ...runs]), texts, bytes: new NeedleSet(bytes) };
}

/** The identity values a browser decodes from base64: `data.identities.<name>.value`. */
const IDENTITY_VALUE = ['data', 'identities', '*', 'value'] as const;

export class KeyWatch extends QuietReader {
  found = false;
  /**
   * Whether identity values are decoded here; off when the answer's own reader decodes them anyway (the
   * parts' picture decoder) and hands their bytes to `bytesSearch` and their text, when it is not
   * canonical, to `textSearch`: so a picture is decoded once.
   */
  decodesPictures = true;
  private readonly raw: NeedleWatch | undefined;
  /** The raw bytes searched so far, and how many at their end may still start a needle. */
  private searched = 0;
  private readonly keep: number;
  private readonly longest: number;
  private textTail = '';
  private picture: PictureKeySearch | undefined;

  /** `raw`: also search the raw bytes (a reader that passes no bytes on itself; the guard searches them as it passes them). */
  constructor(
    private readonly keys: KeySearch,
    private readonly path: JsonPath,
    options: { raw: boolean },
  ) {
    super();
    this.raw = options.raw && keys.needles.size > 0 ? new NeedleWatch(keys.needles) : undefined;
    this.keep = Math.max(0, keys.needles.longest - 1);
    this.longest = Math.max(0, ...keys.texts.map((text) => text.length));
  }

  override bytes(chunk: Buffer, read: object): void {
    this.searched += chunk.length;
    if (this.raw?.push(chunk, read)) this.found = true;
  }

  /**
   * How many of the raw bytes, from the first, are known to hold no part of a key: all but the last
   * (longest needle - 1) searched, which may start one that the next chunk ends. Every byte without a
   * raw search, which a reader that passes bytes on then does itself.
   */
  get clearThrough(): number {
    return this.raw ? this.searched - this.keep : Number.POSITIVE_INFINITY;
  }

  override startString(): void {
    this.textTail = '';
    if (this.longest > 0 && this.decodesPictures && this.path.at(IDENTITY_VALUE)) {
      this.picture = this.pictureSearch();
    }
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (this.longest === 0 || this.found) return;
    const seam = this.longest - 1;
    // A verbatim piece was searched as bytes already; only its seam with what came before is new.
    const searched = this.textTail + (piece.verbatim ? piece.head(seam) : piece.text);
    if (this.keys.texts.some((text) => searched.includes(text))) this.found = true;
    this.textTail = (this.textTail + piece.tail(seam)).slice(-seam);
    if (this.picture && !inKey) this.picture.push(piece);
  }

  override key(_name: string): void {
    this.textTail = '';
  }

  override endString(): void {
    this.textTail = '';
    this.picture?.end();
    this.picture = undefined;
  }

  /** A search of one value's text, decoded the forgiving way, piece after piece. */
  textSearch(pieces: readonly string[]): void {
    const search = this.pictureSearch();
    for (const piece of pieces) search.decode(piece);
    search.end();
  }

  private pictureSearch(): PictureKeySearch {
    return new PictureKeySearch(this.keys.bytes.longest, this.bytesSearch());
  }

  /** A search of one value's decoded bytes, given in order: each with the end of the last, for a key cut between them. */
  bytesSearch(): (bytes: Buffer) => void {
    const keep = this.keys.bytes.longest - 1;
    let tail = Buffer.alloc(0);
    return (bytes) => {
      if (this.found || bytes.length === 0 || keep < 0) return;
      const window = tail.length > 0 ? Buffer.concat([tail, bytes.subarray(0, keep)]) : undefined;
      if (this.keys.bytes.in(bytes) || (window && this.keys.bytes.in(window))) this.found = true;
      tail = Buffer.from(Buffer.concat([tail, bytes.subarray(-keep)]).subarray(-keep));
    };
  }
}
