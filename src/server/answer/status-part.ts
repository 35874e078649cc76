import { candidateEnvelopeSchema, statusLevelOf } from '../../kyc/contract/schema.ts';
import type { AnswerScan } from './answer-scan.ts';
import { StatusLevelReader } from './status-level-stream.ts';

/**
 * The first part of an answer in parts: the status-level fields of the record (status, ids, dates, the
 * archive flag), read from the answer's one scan as a support user's answer is (status-level-stream.ts,
 * at most 64 KiB kept), and checked against the contract. A record whose status level does not pass gets
 * no status part: its record part follows, for the browser to name what is wrong with it.
 */
export class StatusPart {
  private readonly reader: StatusLevelReader;

  /** Added to the scan before its first byte, as every reader is. */
  constructor(scan: AnswerScan) {
    this.reader = new StatusLevelReader(scan.path);
    scan.add(this.reader);
  }

  /** The part's body, from the fields read so far; undefined when they do not pass the contract. */
  body(): Buffer | undefined {
    if (this.reader.tooLarge) return undefined;
    const parsed = candidateEnvelopeSchema.safeParse(this.reader.value());
    if (!parsed.success) return undefined;
    return Buffer.from(JSON.stringify({ status: 'success', data: statusLevelOf(parsed.data.data) }));
  }
}
