import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { type RecordTriage, watchRecord } from '../../src/server/answer/record-triage.ts';
import { certificatesOutcome } from '../../src/kyc/contract/certificate-triage.ts';
import { readCandidateRecord } from '../../src/kyc/contract/record-reading.ts';

/**
 * The queue's word for a record's certificates is the page's: whatever form each certificate came in (its
 * JSON text, the document itself, a number or null), and whether the map came as itself or as its text, the
 * row says the worst outcome of what the page reads, and never a pass where the page names a certificate
 * unread. Before, a certificate sent as the document itself was passed over, and the row kept its neighbour's
 * clear while the page showed a match.
 */

const result = fc.constantFrom('clear', 'consider', 'potential_match', 'no_match', 'match', 'rejected');
const document = result.map((word) => ({ Claim: { _customFields: { result: word } } }));
const certificate = fc.oneof(
  document.map((value) => JSON.stringify(value)),
  document,
  fc.constantFrom(7, true, null),
  fc.constantFrom('{"Claim": {"_customFields": {"result": "clear"}},,'),
);

/** The certificates: a map of them (the contract's form), or a list, a number, true or null in its place. */
const certsOf = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom('a-cert', 'b-cert', 'c-cert', 'd-cert'), certificate, { minKeys: 1 }) },
  { weight: 1, arbitrary: fc.array(certificate, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(7, true, null) },
);

function triageOf(certs: unknown): RecordTriage | undefined {
  const scan = new AnswerScan();
  let learnt: RecordTriage | undefined;
  watchRecord(
    scan,
    (_record, triage) => (learnt = triage),
    () => true,
  );
  const body = { status: 'success', data: { status: 'waiting', refId: 'r-1', blockPassID: 'bp', isArchived: false, certs } };
  scan.write(Buffer.from(JSON.stringify(body)));
  scan.end();
  return learnt;
}

/** The page's word: its reading of the record, one more certificate it cannot vouch for per entry it names unread. */
function pageWord(certs: unknown): string | undefined {
  const reading = readCandidateRecord({ status: 'waiting', refId: 'r-1', certs });
  if (!reading.ok) throw new Error(reading.message);
  const unread = reading.unread.filter((field) => field.field.startsWith('certs'));
  return certificatesOutcome([...Object.values(reading.record.certs ?? {}), ...unread.map(() => '')]);
}

describe("the queue's word for a record's certificates (property)", () => {
  it("is the page's, whatever form each certificate and the certificates came in", () => {
    fc.assert(
      fc.property(certsOf, fc.boolean(), (map, asText) => {
        const certs = asText && map !== null && typeof map === 'object' ? JSON.stringify(map) : map;
        expect(triageOf(certs)?.certificate).toBe(pageWord(certs));
      }),
      { numRuns: 300 },
    );
  });
});
