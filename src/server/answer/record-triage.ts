import { certificatesOutcome } from '../../kyc/contract/certificate-triage.ts';
import { mapFromText } from '../../kyc/contract/map-text.ts';
import { type CandidateRecord, candidateEnvelopeSchema } from '../../kyc/contract/schema.ts';
import { type AnswerScan, type JsonPath, QuietReader } from './answer-scan.ts';
import { type Place, ValueBuilder } from './answer-value.ts';
import type { ScalarKind } from './json-bytes.ts';
import { BoundedText, type TextPiece } from './text-piece.ts';
import { StatusLevelReader } from './status-level-stream.ts';

/**
 * What the queue index may learn of a compliance user's lookup (issue 32), read from the answer's one
 * scan while it is passed on, never from a request of its own: the record's status level (as a support
 * user's answer reads it), and for the queue's triage whether its identities hold a picture and the
 * worst outcome of its certificates, as the decision summary reads them. Nothing personal is kept: a
 * certificate's text is held only until the answer ends (at most CERT_TEXT each, MAX_CERTS of them),
 * then reduced to one outcome word; one past them is not read, and the word is then never a pass. `certs`
 * sent as text holding the map's JSON is read as that map, as the page reads it (map-text.ts): held as text
 * up to the certificates' bound together, its entries then read as theirs; text that holds no map (or is
 * past the bound) counts as a certificate not read. A certificate sent as the document itself (an object,
 * not its text) is read as the page reads it, as that document's JSON (record-reading.ts), within the same
 * bounds; one sent as a number, true, false or null, which the page names unread, counts as not read.
 */

const CERT_TEXT = 64 * 1024;
const MAX_CERTS = 16;

export interface RecordTriage {
  certificate?: string;
  pictures?: boolean;
}

/** Tells `learn` the record and its triage once the answer was read whole, when `trusted` (no key seen in it). */
export function watchRecord(
  scan: AnswerScan,
  learn: (record: CandidateRecord, triage: RecordTriage) => void,
  trusted: () => boolean,
): void {
  const status = new StatusLevelReader(scan.path);
  const triage = new TriageReader(scan.path);
  scan.add(status);
  scan.add(triage);
  scan.add(
    new (class extends QuietReader {
      override end(): void {
        if (status.tooLarge || !trusted()) return;
        const parsed = candidateEnvelopeSchema.safeParse(status.value());
        if (parsed.success) learn(parsed.data.data, triage.result());
      }
    })(),
  );
}

class TriageReader extends QuietReader {
  private pictures: boolean | undefined;
  private readonly certs: string[] = [];
  /** A certificate past MAX_CERTS, not read: it counts as one that states no known result (UNREADABLE). */
  private unread = false;
  /** The string being read: an identity's `type`, a certificate's text, or the certificates' map as text. */
  private reading: { kind: 'type' | 'cert' | 'certs'; text: BoundedText } | undefined;

  /** The certificates sent as documents, built from their tokens alone: a reader of the scan's own would be called for every token of the record. */
  private readonly documents: CertDocuments;
  /** The containers open inside a certificate sent as a document: while any is, the tokens are the document's. */
  private inDocument = 0;

  constructor(private readonly path: JsonPath) {
    super();
    this.documents = new CertDocuments(path);
  }

  result(): RecordTriage {
    // The documents sent as objects, after the texts: together at most MAX_CERTS, one past them not read.
    for (const document of this.documents.found) this.addCert(JSON.stringify(document));
    if (this.documents.tooLarge) this.unread = true;
    const certificate = certificatesOutcome(this.unread ? [...this.certs, ''] : this.certs);
    return { ...(certificate ? { certificate } : {}), ...(this.pictures === undefined ? {} : { pictures: this.pictures }) };
  }

  override open(bracket: '{' | '['): void {
    if (this.inDocument > 0 || this.path.at(['data', 'certs', '*'])) {
      this.inDocument++;
      this.documents.open(bracket);
      return;
    }
    // An identities object: no picture unless one of its attributes is base64.
    if (bracket === '{' && this.path.at(['data', 'identities'])) this.pictures ??= false;
    // Certificates sent as a list, not a map: the page names them unread, and so none of them is vouched for.
    if (bracket === '[' && this.path.at(['data', 'certs'])) this.unread = true;
  }

  override close(): void {
    if (this.inDocument === 0) return;
    this.inDocument--;
    this.documents.close();
  }

  override key(name: string): void {
    if (this.inDocument > 0) this.documents.key(name);
  }

  override startString(): void {
    if (this.inDocument > 0) {
      this.documents.startString();
      return;
    }
    if (this.path.at(['data', 'identities', '*', 'type'])) this.reading = { kind: 'type', text: new BoundedText(16) };
    else if (this.path.at(['data', 'certs'])) this.reading = { kind: 'certs', text: new BoundedText(CERT_TEXT * MAX_CERTS + 1) };
    else if (!this.path.at(['data', 'certs', '*'])) return;
    else if (this.certs.length < MAX_CERTS) this.reading = { kind: 'cert', text: new BoundedText(CERT_TEXT) };
    else this.unread = true;
  }

  /** A certificate sent as a number, true, false or null, or the certificates as a number, true or false: named unread by the page. */
  override scalar(kind: ScalarKind, bytes: Buffer, from: number, to: number): void {
    if (this.inDocument > 0) {
      this.documents.scalar(kind, bytes, from, to);
      return;
    }
    if (this.path.at(['data', 'certs', '*']) || (kind !== 'null' && this.path.at(['data', 'certs']))) this.unread = true;
  }

  override text(piece: TextPiece, inKey: boolean): void {
    if (this.inDocument > 0) {
      this.documents.text(piece, inKey);
      return;
    }
    const reading = this.reading;
    if (inKey || !reading) return;
    reading.text.add(piece);
  }

  override endString(): void {
    if (this.inDocument > 0) {
      this.documents.endString();
      return;
    }
    const reading = this.reading;
    this.reading = undefined;
    if (!reading) return;
    const value = reading.text.text();
    if (reading.kind === 'cert') this.certs.push(value);
    else if (reading.kind === 'certs') this.readCertsText(value);
    else if (value === 'base64') this.pictures = true;
  }

  /** The certificates' map sent as its JSON text: each certificate's text as if sent in the map, within the same bounds. */
  private readCertsText(text: string): void {
    const map = text.length > CERT_TEXT * MAX_CERTS ? undefined : mapFromText(text);
    if (!map) {
      this.unread = true;
      return;
    }
    for (const value of Object.values(map)) {
      if (typeof value === 'string') this.addCert(value);
      else if (typeof value === 'object' && value !== null) this.addCert(JSON.stringify(value));
      else this.unread = true;
    }
  }

  private addCert(text: string): void {
    if (this.certs.length < MAX_CERTS) this.certs.push(text.slice(0, CERT_TEXT));
    else this.unread = true;
  }
}

/**
 * The certificates sent as the document itself (`"onfido-service-cert": {…}`, not its text), built as JSON.parse
 * would, at most as many characters as MAX_CERTS certificates' texts, member names included (`tooLarge` past
 * it). TriageReader hands it the tokens of such documents alone (certificates sent as text are its own).
 */
class CertDocuments extends ValueBuilder {
  readonly found: unknown[] = [];

  constructor(path: JsonPath) {
    super(path, CERT_TEXT * MAX_CERTS);
  }

  value(): unknown {
    return this.found;
  }

  protected outside(): Place | undefined {
    return this.path.at(['data', 'certs', '*']) ? (value) => this.found.push(value) : undefined;
  }

  /** A member of a kept document costs its name too (and a comma and a colon): long or many names count against the bound as text does. */
  override key(name: string): void {
    super.key(name);
    this.count(name.length + 2);
  }
}
