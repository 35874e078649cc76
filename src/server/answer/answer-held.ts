import { type AuditHeld, MAX_HELD_NAME, MAX_HELD_NAMES } from '../../kyc/contract/audit-held.ts';
import { type JsonPath, QuietReader } from './answer-scan.ts';
import type { ScalarKind } from './json-bytes.ts';
import { BoundedText, type TextPiece } from './text-piece.ts';

/**
 * What a full answer held, for its request's closing audit line (audit-held.ts): counted from the tokens
 * the answer's one scan already reads, a key or a short `type` string at a time, never its bytes again.
 * Names of picture attributes only, never a value.
 */
export class HeldReader extends QuietReader {
  private identities = 0;
  private pictures = 0;
  private readonly pictureNames: string[] = [];
  private certificates = 0;
  private archived = false;
  /** An identity's `type` being read. */
  private type: BoundedText | undefined;

  constructor(private readonly path: JsonPath) {
    super();
  }

  held(): AuditHeld {
    const { identities, pictures, pictureNames, certificates } = this;
    return { identities, pictures, pictureNames: [...pictureNames], certificates, ...(this.archived ? { archived: true } : {}) };
  }

  override key(_name: string): void {
    if (this.path.at(['data', 'identities', '*'])) this.identities++;
    else if (this.path.at(['data', 'certs', '*'])) this.certificates++;
  }

  override startString(): void {
    if (this.path.at(['data', 'identities', '*', 'type'])) this.type = new BoundedText(16);
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (!inKey) this.type?.add(piece);
  }

  override endString(): void {
    const type = this.type;
    this.type = undefined;
    if (type?.text() !== 'base64') return;
    this.pictures++;
    const name = this.path.keys[2];
    if (name !== undefined && this.pictureNames.length < MAX_HELD_NAMES) this.pictureNames.push(name.slice(0, MAX_HELD_NAME));
  }

  override scalar(kind: ScalarKind): void {
    if (this.path.at(['data', 'isArchived'])) this.archived = kind === 'true';
  }
}
