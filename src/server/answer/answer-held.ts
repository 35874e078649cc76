import { type AuditHeld, MAX_HELD_NAME, MAX_HELD_NAMES } from '../../kyc/contract/audit-held.ts';
import { isPictureText, PICTURE_TEXT_LETTERS } from '../../kyc/contract/picture-text.ts';
import { type JsonPath, QuietReader } from './answer-scan.ts';
import type { ScalarKind } from './json-bytes.ts';
import { BoundedText, type TextPiece } from './text-piece.ts';

/**
 * What a full answer held, for its request's closing audit line (audit-held.ts): counted from the tokens
 * the answer's one scan already reads, a key or a short `type` string at a time, never its bytes again.
 * Names of picture attributes only, never a value. A picture is counted by the page's rule: `type: "base64"`,
 * or another type whose value's first letters sniff as a picture (picture-text.ts; only those are kept).
 * Identities or certificates sent as JSON text (which the page reads: map-text.ts) are not counted: that they
 * were is recorded (`identitiesAsText`, `certificatesAsText`), never said as none.
 */
export class HeldReader extends QuietReader {
  private identities = 0;
  private pictures = 0;
  private readonly pictureNames: string[] = [];
  private certificates = 0;
  private archived = false;
  private identitiesAsText = false;
  private certificatesAsText = false;
  /** The identity attribute being read: its `type`, and its `value`'s first letters, each while it is read and once it was. */
  private type: BoundedText | undefined;
  private value: BoundedText | undefined;
  private reading: BoundedText | undefined;

  constructor(private readonly path: JsonPath) {
    super();
  }

  held(): AuditHeld {
    const { identities, pictures, pictureNames, certificates } = this;
    const flags = {
      ...(this.archived ? { archived: true as const } : {}),
      ...(this.identitiesAsText ? { identitiesAsText: true as const } : {}),
      ...(this.certificatesAsText ? { certificatesAsText: true as const } : {}),
    };
    return { identities, pictures, pictureNames: [...pictureNames], certificates, ...flags };
  }

  override open(bracket: '{' | '['): void {
    if (bracket === '{' && this.path.at(['data', 'identities', '*'])) this.type = this.value = undefined;
  }

  /** An identity attribute's end: a picture when its type is `base64` or its value sniffs as one. */
  override close(bracket: '}' | ']'): void {
    if (bracket !== '}' || !this.path.at(['data', 'identities', '*'])) return;
    const type = this.type?.text();
    const value = this.value?.text();
    this.type = this.value = undefined;
    if (type !== 'base64' && (value === undefined || !isPictureText(type, value))) return;
    this.pictures++;
    const name = this.path.keys[2];
    if (name !== undefined && this.pictureNames.length < MAX_HELD_NAMES) this.pictureNames.push(name.slice(0, MAX_HELD_NAME));
  }

  override key(_name: string): void {
    if (this.path.at(['data', 'identities', '*'])) this.identities++;
    else if (this.path.at(['data', 'certs', '*'])) this.certificates++;
  }

  override startString(): void {
    if (this.path.at(['data', 'identities'])) this.identitiesAsText = true;
    else if (this.path.at(['data', 'certs'])) this.certificatesAsText = true;
    else if (this.path.at(['data', 'identities', '*', 'type'])) this.reading = this.type = new BoundedText(16);
    else if (this.path.at(['data', 'identities', '*', 'value'])) this.reading = this.value = new BoundedText(PICTURE_TEXT_LETTERS);
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (!inKey) this.reading?.add(piece);
  }

  override endString(): void {
    this.reading = undefined;
  }

  override scalar(kind: ScalarKind): void {
    if (this.path.at(['data', 'isArchived'])) this.archived = kind === 'true';
  }
}
