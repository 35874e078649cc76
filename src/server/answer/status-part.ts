import { candidateEnvelopeSchema, statusLevelEnvelope } from '../../kyc/contract/schema.ts';
import { type AnswerScan, QuietReader } from './answer-scan.ts';
import { StatusLevelReader } from './status-level-stream.ts';

/**
 * The first part of an answer in parts: the status-level fields of the record (status, ids, dates, the
 * archive flag), read from the answer's one scan as a support user's answer is (status-level-stream.ts,
 * at most 64 KiB kept), and checked against the contract. A record whose status level does not pass gets
 * no status part: its record part follows, for the browser to name what is wrong with it.
 *
 * `early` resolves with the part's body the moment the scan reaches `data.identities` (the pictures, the
 * megabytes of the answer) or the end of `data`, when the fields read by then pass the contract. Where
 * the service puts a status field after the identities, the fields before them may not pass (the contract
 * needs the status and an id): then the status part goes with the record, once it is
 * whole. So it does when the envelope's `status` was not read by then: one after the record may still
 * make the answer the service's error envelope (envelope-members.ts), which is never shown as a record.
 */
export class StatusPart {
  private readonly reader: StatusLevelReader;
  private reached = false;
  private resolveEarly: (body: Buffer) => void = () => {};
  /** Never settles when the status level is not whole before the identities (see above). */
  readonly early = new Promise<Buffer>((resolve) => {
    this.resolveEarly = resolve;
  });

  /** Added to the scan before its first byte, as every reader is. */
  constructor(scan: AnswerScan) {
    this.reader = new StatusLevelReader(scan.path);
    scan.add(this.reader);
    scan.add(new StatusReached(scan, () => this.reach()));
  }

  /** The part's body, from the fields read so far; undefined when they do not pass the contract. */
  partBytes(): Buffer | undefined {
    if (this.reader.tooLarge || this.reader.refused) return undefined;
    const parsed = candidateEnvelopeSchema.safeParse(this.reader.value());
    if (!parsed.success) return undefined;
    return Buffer.from(statusLevelEnvelope(parsed.data.data));
  }

  private reach(): void {
    if (this.reached) return;
    this.reached = true;
    if ((this.reader.value() as { status?: unknown } | undefined)?.status !== 'success') return;
    const body = this.partBytes();
    if (body) this.resolveEarly(body);
  }
}

/** Calls `onReached` at the key `data.identities`, or as `data` closes, whichever comes first. */
class StatusReached extends QuietReader {
  constructor(
    private readonly scan: AnswerScan,
    private readonly onReached: () => void,
  ) {
    super();
  }

  override key(name: string): void {
    if (name === 'identities' && this.scan.path.at(['data', 'identities'])) this.onReached();
  }

  override close(): void {
    // The scan pops its path before its readers see the close: at `data` means `data` itself closed.
    if (this.scan.path.at(['data'])) this.onReached();
  }
}
