import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificatesOutcome, UNCONFIRMED, UNREADABLE } from '../../src/kyc/contract/certificate-triage.ts';
import { KNOWN_OUTCOMES } from '../../src/kyc/contract/outcome.ts';
import { certificateOutcome, NOT_RECOGNISED } from '../../src/kyc/view/certificate-review.ts';
import { parseCertificate } from '../../src/kyc/view/certificate.ts';

/**
 * A certificate encoded twice: text holding JSON text of the document (`JSON.stringify` once too often).
 * Read once, it was a string, and its chip said "result not recognised" with no notice and no raw text,
 * while the queue's triage called it unreadable. Read once more it is the document, in the panel, the chip
 * and the queue alike; text that still does not read is shown raw with a notice, its text's results read.
 */

const SLUG = 'complyadvantage-service-cert';
const doc = (result: string) => ({
  '@context': ['https://w3id.org/identity/v1'],
  Claim: { reviewBody: { checks: [{ name: 'watchlist', result }] } },
});
const twice = (text: string) => JSON.stringify(text);

describe('a certificate encoded twice', () => {
  it('attack: a certificate encoded twice reads its result (it read "result not recognised"), in the chip and the queue alike, and says it came so', () => {
    const raw = twice(JSON.stringify(doc('potential_match')));
    const parsed = parseCertificate(raw);
    expect(parsed).toMatchObject({ ok: true, encodedTwice: JSON.stringify(doc('potential_match')) });
    expect(certificateOutcome(SLUG, raw)).toMatchObject({ outcome: 'potential_match', recognition: 'known' });
    expect(certificateOutcome(SLUG, raw).outcome).not.toBe(NOT_RECOGNISED);
    expect(certificatesOutcome([raw])).toBe('potential_match');
  });

  it('a certificate encoded twice whose text is cut off is not read: a notice says so, and its text states its results, a pass never', () => {
    const cut = '{"Claim":{"reviewBody":{"result":"consider","x":,,';
    const parsed = parseCertificate(twice(cut));
    if (parsed.ok) throw new Error('read');
    expect(parsed.raw).toBe(twice(cut));
    expect(parsed.text).toBe(cut);
    expect(parsed.problem).toMatch(/^This certificate came as JSON text holding text, and that text is not valid JSON \(.+\)\.$/);
    expect(certificateOutcome(SLUG, twice(cut))).toMatchObject({ outcome: 'consider', path: 'result', recognition: 'unreadable' });
    expect(certificatesOutcome([twice(cut)])).toBe('consider');
    const passCut = '{"Claim":{"reviewBody":{"result":"clear",,';
    expect(certificateOutcome(SLUG, twice(passCut))).toMatchObject({ outcome: UNCONFIRMED, stated: 'clear' });
    expect(certificatesOutcome([twice(passCut)])).toBe(UNCONFIRMED);
  });

  it('text that is no JSON, or still text when read twice, is no document: shown raw with a notice, unreadable', () => {
    for (const [raw, problem] of [
      [twice('clear'), /^This certificate came as JSON text holding text, and that text is not valid JSON/],
      [twice(twice(JSON.stringify(doc('clear')))), /^This certificate came encoded more than twice/],
    ] as const) {
      const parsed = parseCertificate(raw);
      expect(parsed).toMatchObject({ ok: false, raw, problem: expect.stringMatching(problem) });
      expect(certificateOutcome(SLUG, raw).outcome).toBe(UNREADABLE);
      expect(certificatesOutcome([raw])).toBe(UNREADABLE);
    }
  });

  it('property: any certificate encoded twice reads as the same certificate encoded once, in the chip and the queue', () => {
    const word = fc.constantFrom(...Object.keys(KNOWN_OUTCOMES), 'pending', '');
    const raw = fc.oneof(
      word.map((result) => JSON.stringify(doc(result))),
      fc
        .jsonValue({ maxDepth: 3 })
        .filter((value) => typeof value === 'object' && value !== null)
        .map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(raw, (once) => {
        const { label, outcome, path, recognition } = certificateOutcome(SLUG, once);
        expect(certificateOutcome(SLUG, twice(once))).toEqual({ label, outcome, path, recognition });
        expect(certificatesOutcome([twice(once)])).toBe(certificatesOutcome([once]));
      }),
      { numRuns: 300 },
    );
  });
});
