import { partName, type PictureReference } from '../kyc/contract/picture-parts.ts';
import { SNIFF_BYTES, sniffImageType } from '../kyc/contract/picture-type.ts';
import { Base64Collector } from './base64-collector.ts';

/**
 * A candidate record split for an answer in parts, from the parser's tokens (json-tokens.ts): the JSON text
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
  /** The first part: ASCII only (every other character escaped), so any reader decodes it alike. */
  json: string;
  pictures: PicturePart[];
}

/** More pictures than this in one record are left in the first part, as text. */
const MAX_PICTURES = 1000;

export type Token = { name: string; value?: unknown };

type Frame = {
  kind: 'object' | 'array';
  empty: boolean;
  key?: string;
  /** An identity attribute (`data.identities.<name>`): its `value` may become a part. */
  attribute?: { valueSlots: Array<{ at: number; collector: Base64Collector }>; type?: unknown };
};

const NON_ASCII = /[\u007f-\uffff]/g;
const jsonText = (value: string) =>
  JSON.stringify(value).replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

export class RecordSplitter {
  private readonly out: string[] = [];
  private readonly stack: Frame[] = [];
  private readonly pictures: PicturePart[] = [];
  private pieces: string[] | undefined;
  private collector: Base64Collector | undefined;
  private rootDone = false;

  /** `boundary`: the answer's, part of every part's name (picture-parts.ts). */
  constructor(private readonly boundary: string) {}

  /** Whether one whole JSON value has been read. */
  get done(): boolean {
    return this.rootDone;
  }

  push(token: Token): void {
    const { name } = token;
    if (name === 'startObject' || name === 'startArray') this.open(name === 'startObject' ? 'object' : 'array');
    else if (name === 'endObject' || name === 'endArray') this.close(name === 'endObject' ? '}' : ']');
    else if (name === 'keyValue') this.key(String(token.value));
    else if (name === 'startString') this.startString();
    else if (name === 'stringChunk') {
      if (this.collector) this.collector.push(String(token.value));
      else this.pieces?.push(String(token.value));
    } else if (name === 'endString') this.endString();
    else if (name === 'numberValue' || name === 'nullValue' || name === 'trueValue' || name === 'falseValue') {
      this.scalar(String(token.value));
    }
  }

  result(): SplitRecord {
    return { json: this.out.join(''), pictures: this.pictures };
  }

  private open(kind: Frame['kind']): void {
    this.beforeValue();
    this.out.push(kind === 'object' ? '{' : '[');
    this.stack.push({ kind, empty: true, attribute: this.opensAttribute() });
  }

  private beforeValue(): void {
    const top = this.stack.at(-1);
    if (top?.kind === 'array') {
      if (!top.empty) this.out.push(',');
      top.empty = false;
    }
  }

  private key(name: string): void {
    const top = this.stack.at(-1)!;
    this.out.push(top.empty ? '' : ',', jsonText(name), ':');
    top.empty = false;
    top.key = name;
    // JSON.parse keeps the last `type`: one that is not a string undoes an earlier "base64".
    if (top.attribute && name === 'type') top.attribute.type = undefined;
  }

  private scalar(text: string): void {
    this.beforeValue();
    this.out.push(text);
    if (this.stack.length === 0) this.rootDone = true;
  }

  /** An object opened at `data.identities.<name>` of the envelope. */
  private opensAttribute(): Frame['attribute'] {
    const [root, data, identities] = this.stack;
    if (this.stack.length !== 3 || root?.kind !== 'object' || root.key !== 'data') return undefined;
    if (data?.kind !== 'object' || data.key !== 'identities' || identities?.kind !== 'object') return undefined;
    return { valueSlots: [] };
  }

  private startString(): void {
    this.beforeValue();
    const top = this.stack.at(-1);
    if (top?.attribute && top.key === 'value') {
      this.collector = new Base64Collector();
      top.attribute.valueSlots.push({ at: this.out.length, collector: this.collector });
      this.out.push('');
    } else this.pieces = [];
  }

  private endString(): void {
    if (this.collector) {
      this.collector = undefined;
      return;
    }
    const value = (this.pieces ?? []).join('');
    this.pieces = undefined;
    const top = this.stack.at(-1);
    if (top?.attribute && top.key === 'type') top.attribute.type = value;
    this.out.push(jsonText(value));
    if (this.stack.length === 0) this.rootDone = true;
  }

  private close(bracket: string): void {
    const frame = this.stack.pop()!;
    if (frame.attribute) this.settleAttribute(frame.attribute);
    this.out.push(bracket);
    if (this.stack.length === 0) this.rootDone = true;
  }

  /**
   * At the attribute's end its type is known, whatever the order of its members: the last `value` (the
   * one JSON.parse keeps) becomes a part when the type is `base64` and the text canonical base64.
   */
  private settleAttribute(attribute: NonNullable<Frame['attribute']>): void {
    const slots = attribute.valueSlots;
    slots.forEach((slot, index) => {
      const collected = slot.collector.end();
      const last = index === slots.length - 1;
      if (collected.kind === 'bytes' && last && attribute.type === 'base64' && this.pictures.length < MAX_PICTURES) {
        this.out[slot.at] = JSON.stringify(this.addPicture(collected.chunks, collected.size));
      } else {
        this.out[slot.at] = jsonText(collected.kind === 'text' ? collected.text : Buffer.concat(collected.chunks).toString('base64'));
      }
    });
  }

  private addPicture(chunks: Buffer[], size: number): PictureReference {
    const head = Buffer.concat(chunks.slice(0, 2)).subarray(0, SNIFF_BYTES);
    const sniffed = sniffImageType(head);
    const reference: PictureReference = { part: partName(this.pictures.length, this.boundary), type: sniffed.mime, size };
    this.pictures.push({ reference, contentType: sniffed.raster ? sniffed.mime : 'application/octet-stream', chunks });
    return reference;
  }
}
