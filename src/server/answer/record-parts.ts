import { partName, type PictureReference } from '../../kyc/contract/picture-parts.ts';
import { SNIFF_BYTES, sniffImageType } from '../../kyc/contract/picture-type.ts';
import { QuietReader } from './answer-scan.ts';
import { Base64Collector } from './base64-collector.ts';
import { JsonOut, type Slot } from './json-out.ts';
import type { KeyWatch } from './key-watch.ts';
import type { TextPiece } from './text-piece.ts';

/**
 * A candidate record split for an answer in parts, from the answer's tokens (answer-scan.ts): the JSON text
 * of the first part, written anew from the tokens with every picture's base64 value replaced by a
 * reference, and each picture's bytes, decoded as they arrive. Nothing else is checked or changed here:
 * the first part parses to the plain answer once its references are put back.
 */

export interface PicturePart {
  reference: PictureReference;
  /** The part's Content-Type: the sniffed type for a raster image, octets for anything else. */
  contentType: string;
  chunks: Buffer[];
}

export interface SplitRecord {
  /** The first part's bytes: ASCII only (every other character escaped), so any reader decodes it alike. */
  first: Buffer[];
  pictures: PicturePart[];
}

/** More pictures than this in one record are left in the first part, as text. */
const MAX_PICTURES = 1000;

type Frame = {
  kind: 'object' | 'array';
  empty: boolean;
  key?: string;
  /** An identity attribute (`data.identities.<name>`): its `value` may become a part. */
  attribute?: { valueSlots: Array<{ slot: Slot; collector: Base64Collector }>; type?: unknown };
};

const NON_ASCII = /[\u007f-\uffff]/g;
const jsonText = (value: string) =>
  JSON.stringify(value).replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** A piece of a string's text as it stands between the quotes of the first part. */
const escaped = (piece: string) => jsonText(piece).slice(1, -1);

const QUOTE = 0x22;
/** The longest `type` kept: enough to tell "base64". */
const TYPE_CHARS = 16;

/**
 * A reader of the answer's scan (answer-scan.ts) that writes the first part as the tokens come, in bytes
 * (json-out.ts), strings piece by piece: what it holds is the part's length, plus the pictures, all taken
 * from the answer's share of the memory for answers in parts (`take`). Once that share is refused it stops
 * (`refused`), and the answer is refused with it.
 */
export class RecordSplitter extends QuietReader {
  private readonly out: JsonOut;
  private readonly stack: Frame[] = [];
  private readonly pictures: PicturePart[] = [];
  private collector: Base64Collector | undefined;
  /** The text of an attribute's `type` being read. */
  private typeText: string | undefined;
  private inString = false;
  private rootDone = false;
  private overBudget = false;

  /**
   * `boundary`: the answer's, part of every part's name (picture-parts.ts). `take`: as JsonOut's.
   * `keyWatch`: the answer's, given every identity value as decoded here (key-watch.ts), so it decodes none.
   */
  constructor(
    private readonly boundary: string,
    private readonly take: (bytes: number) => boolean = () => true,
    private readonly keyWatch?: KeyWatch,
    /** Each picture part the moment its bytes are all in (its preview can be made while the rest is read). */
    private readonly onPicture: (picture: PicturePart) => void = () => {},
  ) {
    super();
    this.out = new JsonOut(take);
    if (keyWatch) keyWatch.decodesPictures = false;
  }

  /** Whether one whole JSON value has been read. */
  get done(): boolean {
    return this.rootDone;
  }

  /** Whether the answer's share of memory was refused (nothing more is read then). */
  get refused(): boolean {
    return this.overBudget || this.out.refused;
  }

  result(): SplitRecord {
    return { first: this.out.chunks(), pictures: this.pictures };
  }

  override open(bracket: '{' | '['): void {
    this.beforeValue();
    this.out.byte(bracket.charCodeAt(0));
    this.stack.push({ kind: bracket === '{' ? 'object' : 'array', empty: true, attribute: this.opensAttribute() });
  }

  override close(bracket: '}' | ']'): void {
    const frame = this.stack.pop()!;
    if (frame.attribute) this.settleAttribute(frame.attribute);
    this.out.byte(bracket.charCodeAt(0));
    if (this.stack.length === 0) this.rootDone = true;
  }

  override key(name: string): void {
    const top = this.stack.at(-1)!;
    if (!top.empty) this.out.byte(0x2c);
    this.out.write(jsonText(name));
    this.out.byte(0x3a);
    top.empty = false;
    top.key = name;
    // JSON.parse keeps the last `type`: one that is not a string undoes an earlier "base64".
    if (top.attribute && name === 'type') top.attribute.type = undefined;
  }

  override scalar(_kind: string, bytes: Buffer, from: number, to: number): void {
    this.beforeValue();
    this.out.bytes(bytes, from, to);
    if (this.stack.length === 0) this.rootDone = true;
  }

  override startString(): void {
    this.beforeValue();
    this.inString = true;
    const top = this.stack.at(-1);
    if (top?.attribute && top.key === 'value') {
      const take = (bytes: number) => {
        if (!this.take(bytes)) this.overBudget = true;
      };
      // A value followed by another is never the one JSON.parse keeps: it is text, settled now, so that an
      // attribute of 300 000 values holds one at a time, not a slot and a decoder for each until it ends.
      for (const earlier of top.attribute.valueSlots.splice(0)) this.settleValue(earlier.slot, earlier.collector, false);
      this.collector = new Base64Collector(take, this.keyWatch?.bytesSearch());
      top.attribute.valueSlots.push({ slot: this.out.slot(), collector: this.collector });
      return;
    }
    if (top?.attribute && top.key === 'type') this.typeText = '';
    this.out.byte(QUOTE);
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (inKey || !this.inString) return;
    if (this.collector) {
      this.collector.push(piece.text, piece.verbatim);
      return;
    }
    if (this.typeText !== undefined) this.typeText = (this.typeText + piece.head(TYPE_CHARS)).slice(0, TYPE_CHARS);
    // Verbatim: written as it stands in the answer, as its text would be (ASCII, nothing escaped).
    if (piece.verbatim) this.out.bytes(piece.buffer!, piece.from, piece.to);
    else this.out.write(escaped(piece.text));
  }

  override endString(): void {
    this.inString = false;
    if (this.collector) {
      this.collector = undefined;
      return;
    }
    this.out.byte(QUOTE);
    const top = this.stack.at(-1);
    if (this.typeText !== undefined && top?.attribute) top.attribute.type = this.typeText;
    this.typeText = undefined;
    if (this.stack.length === 0) this.rootDone = true;
  }

  private beforeValue(): void {
    const top = this.stack.at(-1);
    if (top?.kind === 'array') {
      if (!top.empty) this.out.byte(0x2c);
      top.empty = false;
    }
  }

  /** An object opened at `data.identities.<name>` of the envelope. */
  private opensAttribute(): Frame['attribute'] {
    const [root, data, identities] = this.stack;
    if (this.stack.length !== 3 || root?.kind !== 'object' || root.key !== 'data') return undefined;
    if (data?.kind !== 'object' || data.key !== 'identities' || identities?.kind !== 'object') return undefined;
    return { valueSlots: [] };
  }

  /**
   * At the attribute's end its type is known, whatever the order of its members: the last `value` (the
   * one JSON.parse keeps) becomes a part when the type is `base64` and the text canonical base64.
   */
  private settleAttribute(attribute: NonNullable<Frame['attribute']>): void {
    // Only the last is left: those before it were settled as text when the next began (startString).
    for (const { slot, collector } of attribute.valueSlots.splice(0)) this.settleValue(slot, collector, attribute.type === 'base64');
  }

  /** A value's slot filled: with a part's reference when it may be one and is canonical base64, else with its text. */
  private settleValue(slot: Slot, collector: Base64Collector, mayBePicture: boolean): void {
    const collected = collector.end();
    if (collected.kind === 'bytes' && mayBePicture && this.pictures.length < MAX_PICTURES) {
      this.out.fill(slot, [Buffer.from(JSON.stringify(this.addPicture(collected.chunks, collected.size)), 'latin1')]);
      return;
    }
    const pieces = collected.kind === 'text' ? collected.pieces : [Buffer.concat(collected.chunks).toString('base64')];
    // Not a part: the browser may still decode it, more forgivingly.
    if (collected.kind === 'text') this.keyWatch?.textSearch(pieces);
    this.out.fill(slot, [Buffer.from('"'), ...pieces.map((piece) => Buffer.from(escaped(piece), 'latin1')), Buffer.from('"')]);
  }

  private addPicture(chunks: Buffer[], size: number): PictureReference {
    const head = Buffer.concat(chunks.slice(0, 2)).subarray(0, SNIFF_BYTES);
    const sniffed = sniffImageType(head);
    const reference: PictureReference = { part: partName(this.pictures.length, this.boundary), type: sniffed.mime, size };
    const picture = { reference, contentType: sniffed.raster ? sniffed.mime : 'application/octet-stream', chunks };
    this.pictures.push(picture);
    this.onPicture(picture);
    return reference;
  }
}
