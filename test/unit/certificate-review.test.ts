import { describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { parseCertificate } from '../../src/kyc/view/certificate.ts';
import { certificateOutcome, MAX_ROWS, NOT_RECOGNISED, reviewOf } from '../../src/kyc/view/certificate-review.ts';
import { HOSTILE_ISSUE_DATE, HOSTILE_REVIEW_BODY, PAYLOADS } from '../fixtures/hostile-candidate.mjs';

const samples = (await sampleCandidates({ now: new Date('2026-11-22T00:00:00.000Z') })).map((c) => c.record);
const certOf = (refId: string, slug: string) => {
  const parsed = parseCertificate(samples.find((r) => r.refId === refId)!.certs![slug]!);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.json;
};
const rowsOf = (review: ReturnType<typeof reviewOf>) => review.rows.map((row) => [row.label, row.value, row.kind]);
/** The sandbox puts the candidate's own custom fields in every certificate's `_customFields`. */
const CUSTOM_FIELD_ROWS = [
  ['Risk level', 'high', 'text'],
  ['Screening case', 'CA-2026-00917', 'text'],
];

describe('certificate review rows', () => {
  it("read the sandbox's Onfido document check", () => {
    const review = reviewOf(certOf('user-7781', 'onfido-service-cert'), 'onfido-service-cert');
    expect(review.provider).toBe('Onfido Ltd');
    expect(review.outcome).toBe('clear');
    expect(review.outcomePath).toBe('reviewBody.result');
    expect(rowsOf(review)).toEqual([
      ['Provider', 'Onfido Ltd', 'text'],
      ['Check type', 'document', 'text'],
      ['Result', 'clear', 'outcome'],
      ['Sub results › Visual authenticity', 'clear', 'outcome'],
      ['Sub results › Data consistency', 'clear', 'outcome'],
      ...CUSTOM_FIELD_ROWS,
      ['Issued', expect.stringMatching(/^2026-10-2\dT/), 'date'],
    ]);
    expect(review.rows.filter((row) => row.kind === 'outcome').map((row) => row.path)).toEqual([
      'reviewBody.result',
      'reviewBody.subResults.visualAuthenticity',
      'reviewBody.subResults.dataConsistency',
    ]);
  });

  it("read the sandbox's ComplyAdvantage screening with its sources and match status", () => {
    const review = reviewOf(certOf('user-7781', 'complyadvantage-service-cert'), 'complyadvantage-service-cert');
    expect(review.outcome).toBe('potential_match');
    expect(rowsOf(review)).toEqual([
      ['Provider', 'ComplyAdvantage Ltd', 'text'],
      ['Check type', 'aml_screening', 'text'],
      ['Match status', 'potential_match', 'outcome'],
      ...CUSTOM_FIELD_ROWS,
      ['Fuzziness', '0.6', 'text'],
      ['Sources', 'sanctions, pep, adverse-media', 'list'],
      ['Issued', expect.any(String), 'date'],
    ]);
  });

  it('find the results in a document of an unknown shape', () => {
    const doc = {
      issuer: 'did:example:kyc-vendor',
      credentialSubject: {
        id: 'did:example:person',
        verification: {
          vendor: 'Acme Screening',
          outcome: 'caution',
          breakdown: { document: { result: 'clear' }, face: 'suspected' },
          completedAt: '2026-11-01T10:00:00Z',
          lists: ['OFAC', 'UN'],
          reviewer: { name: 'Jo', note: 'Looked twice' },
        },
      },
    };
    const review = reviewOf(doc, 'acme-screening-cert');
    expect(review.provider).toBe('Acme Screening');
    // The worst of the three, not the first: one suspected sub-result makes the certificate red.
    expect(review).toMatchObject({ outcome: 'suspected', outcomePath: 'credentialSubject.verification.breakdown.face' });
    expect(rowsOf(review)).toEqual([
      ['Provider', 'Acme Screening', 'text'],
      ['Verification', 'caution', 'outcome'],
      ['Verification › Breakdown › Document', 'clear', 'outcome'],
      ['Verification › Breakdown › Face', 'suspected', 'outcome'],
      ['Issuer', 'did:example:kyc-vendor', 'text'],
      ['Id', 'did:example:person', 'text'],
      ['Verification › Completed at', '2026-11-01T10:00:00Z', 'date'],
      ['Verification › Lists', 'OFAC, UN', 'list'],
      ['Verification › Reviewer › Name', 'Jo', 'text'],
      ['Verification › Reviewer › Note', 'Looked twice', 'text'],
    ]);
  });

  it('name the provider from the slug when the document has no results at all', () => {
    const review = reviewOf({ hello: 'world' }, 'some-new-provider-cert');
    expect(review.provider).toBe('Some new provider');
    expect(review).toMatchObject({ outcome: NOT_RECOGNISED, recognition: 'none' });
    // Never an empty card: every plain field, labelled and with its path.
    expect(review.rows).toEqual([
      { label: 'Provider', value: 'Some new provider', kind: 'text' },
      { label: 'Hello', value: 'world', kind: 'text', path: 'hello' },
    ]);
    expect(reviewOf(['not', 'an', 'object'], 'x-cert').rows.slice(1)).toEqual([
      { label: 'Value', value: 'not, an, object', kind: 'list', path: '' },
    ]);
  });

  it('keep hostile content as plain strings and cap the number of rows', () => {
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, '<img src=x onerror=alert(1)>']));
    const review = reviewOf({ Claim: { reviewBody: { result: '<script>alert(1)</script>', ...many } } }, 'evil-cert');
    expect(review.rows).toHaveLength(MAX_ROWS);
    expect(review.omitted).toBeGreaterThan(0);
    expect(review.outcome).toBe('<script>alert(1)</script>');
    for (const row of review.rows) expect(typeof row.value).toBe('string');
  });

  it("read the hostile fixture's review body verbatim, its __proto__ and constructor keys as rows of their own", () => {
    // As the page gets it: through JSON, where `__proto__` is a key like any other.
    const doc = JSON.parse(JSON.stringify({ Claim: { issueDate: HOSTILE_ISSUE_DATE, reviewBody: HOSTILE_REVIEW_BODY } }));
    const review = reviewOf(doc, 'evil-cert');
    const row = (label: string) => review.rows.filter((r) => r.label === label).map((r) => [r.value, r.kind]);
    expect(row('Check type')).toEqual([
      [PAYLOADS[0], 'text'],
      [PAYLOADS[4], 'text'],
    ]);
    expect(row('Result')).toEqual([[PAYLOADS[2], 'outcome']]);
    expect(row('Match status')).toEqual([[PAYLOADS[3], 'outcome']]);
    expect(row('Sub results › Visual authenticity')).toEqual([[PAYLOADS[5], 'outcome']]);
    // A key that means nothing to this tool stays text, however it is spelled: nothing reached a prototype.
    expect(row('Sub results › Proto › Polluted')).toEqual([[PAYLOADS[0], 'text']]);
    expect(row('Sub results › Constructor › Prototype › Polluted')).toEqual([[PAYLOADS[1], 'text']]);
    expect(row(`Breakdown › ${PAYLOADS[6]}`)).toEqual([[PAYLOADS[4], 'outcome']]);
    expect(review.rows.find((r) => r.label === `Breakdown › ${PAYLOADS[6]}`)?.path).toBe('reviewBody.breakdown[0].result');
    expect(row('Sources')).toEqual([[`${PAYLOADS[0]}, ${PAYLOADS[3]}, ${PAYLOADS[5]}, ${'W'.repeat(100_000)}`, 'list']]);
    expect(row('Issued')).toEqual([[HOSTILE_ISSUE_DATE, 'date']]);
    expect(row('Completed date')).toEqual([[`2026-01-01T00:00:00.000Z${PAYLOADS[1]}`, 'date']]);
    expect(row('Proto')).toEqual([[PAYLOADS[0], 'text']]);
    expect(row('Constructor')).toEqual([[PAYLOADS[1], 'text']]);
    expect(review.outcome).toBe(PAYLOADS[2]);
    // Nothing reached a prototype.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('survive deep nesting', () => {
    let deep: unknown = 'clear';
    for (let i = 0; i < 1000; i++) deep = { result: deep };
    const review = reviewOf({ Claim: { reviewBody: deep } }, 'deep-cert');
    expect(review.rows.length).toBeGreaterThan(1);
  });

  it('finds a potential match kept in Claim._customFields (the issue-19 report), and says where', () => {
    const doc = { Claim: { _customFields: { result: 'potential_match' }, issueDate: '2026-11-01T00:00:00.000Z', reviewBody: {} } };
    expect(reviewOf(doc, 'complyadvantage-service-cert')).toMatchObject({
      outcome: 'potential_match',
      outcomePath: '_customFields.result',
      recognition: 'known',
    });
  });

  it('reads a stated result it does not know as written, in neutral, rather than "not recognised"', () => {
    const review = reviewOf({ Claim: { reviewBody: { result: 'awaiting_data' } } }, 'x-cert');
    expect(review).toMatchObject({ outcome: 'awaiting_data', recognition: 'unknown' });
  });
});

describe('certificate outcome for the chip, the summary and Copy summary', () => {
  it('reads the worst result stated in the text of a certificate that is not valid JSON', () => {
    const raw = '{"Claim":{"_customFields":{"Result":"clear","match_status":"potential_match"},,"reviewBody":';
    expect(certificateOutcome('complyadvantage-service-cert', raw)).toEqual({
      label: 'ComplyAdvantage',
      outcome: 'potential_match',
      path: 'match_status',
      recognition: 'unreadable',
    });
    expect(certificateOutcome('onfido-service-cert', '{"Claim":,,')).toMatchObject({ outcome: 'unreadable', recognition: 'unreadable' });
  });
});
