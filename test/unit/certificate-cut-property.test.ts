import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificatesOutcome, needsAttention, UNCONFIRMED } from '../../src/kyc/contract/certificate-triage.ts';
import { KNOWN_OUTCOMES, knownOutcome, outcomeTone } from '../../src/kyc/contract/outcome.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { certificateOutcome } from '../../src/kyc/view/certificate-review.ts';
import { candidateSummary } from '../../src/kyc/view/summary.ts';

/**
 * The real service's published certificates are cut off and hold invalid JSON (`,,`): a certificate that
 * does not parse may have said anything after the cut. A failure or a caution its text states is evidence
 * and stands; a pass it states is never shown as a pass (the chips, Copy summary, the queue's triage), as
 * a compliance decision must not rest on a green tick the document does not support.
 */

const SLUG = 'complyadvantage-service-cert';
const PASSES = Object.keys(KNOWN_OUTCOMES).filter((word) => KNOWN_OUTCOMES[word]!.tone === 'positive');

const word = fc.constantFrom(...Object.keys(KNOWN_OUTCOMES)).chain((w) => fc.constantFrom(w, w.toUpperCase(), w.replace(/_/g, ' ')));
const check = fc.record({ name: fc.constantFrom('identity', 'watchlist', 'document', 'face'), result: word });

/** A certificate as the service shapes it, its results in a list of checks and in `_customFields`, any noise around them. */
const certificate = fc
  .record({
    checks: fc.array(check, { minLength: 1, maxLength: 4 }),
    custom: fc.dictionary(fc.constantFrom('result', 'match_status', 'riskLevel', 'note'), word, { maxKeys: 3 }),
    noise: fc.dictionary(fc.constantFrom('x', 'issueDate', 'comment'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
    asText: fc.boolean(),
    indent: fc.constantFrom(undefined, 2),
  })
  .map(({ checks, custom, noise, asText, indent }) => {
    const reviewBody = { checks };
    const doc = {
      '@context': ['https://w3id.org/identity/v1'],
      Claim: { ...noise, _customFields: custom, reviewBody: asText ? JSON.stringify(reviewBody) : reviewBody },
      Organization: { legalName: 'ComplyAdvantage Ltd' },
    };
    return JSON.stringify(doc, null, indent);
  });

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Every reading of a certificate that does not parse: none is a pass, and a pass found makes it "needs attention". */
function expectNoPass(raw: string, beside: string) {
  const chip = certificateOutcome(SLUG, raw);
  expect(chip.recognition).toBe('unreadable');
  expect(outcomeTone(chip.outcome)).not.toBe('positive');
  if (chip.stated !== undefined) {
    expect(chip.outcome).toBe(UNCONFIRMED);
    expect(knownOutcome(chip.stated)!.tone).toBe('positive');
  }
  // The queue's word, alone and beside a certificate that parses and passes: never a pass, always a look
  // (one that states no result is `unreadable`, certificate-unreadable.test.ts).
  for (const certs of [[raw], [beside, raw]]) {
    const word = certificatesOutcome(certs);
    expect(outcomeTone(word!)).not.toBe('positive');
    expect(needsAttention(word)).toBe(true);
  }
}

describe('a certificate that does not parse never reads as a pass', () => {
  it('any strict prefix of a certificate (property)', () => {
    fc.assert(
      fc.property(
        certificate,
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.constantFrom(...PASSES),
        (text, at, pass) => {
          const cut = text.slice(0, Math.floor(at * text.length));
          fc.pre(!parses(cut));
          expectNoPass(cut, JSON.stringify({ Claim: { reviewBody: { result: pass } } }));
        },
      ),
      { numRuns: 500 },
    );
  }, 30_000);

  it('any certificate with `,,` inserted where it breaks the JSON (property)', () => {
    fc.assert(
      fc.property(certificate, fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...PASSES), (text, at, pass) => {
        const index = Math.floor(at * text.length);
        const broken = `${text.slice(0, index)},,${text.slice(index)}`;
        // Inside a string `,,` is text, and the certificate still parses: it reads as it states.
        fc.pre(!parses(broken));
        expectNoPass(broken, JSON.stringify({ Claim: { reviewBody: { result: pass } } }));
      }),
      { numRuns: 500 },
    );
  }, 30_000);

  it('the published shape cut inside its watchlist result: unconfirmed, and Copy summary says what was found and that the rest is unknown', () => {
    const raw =
      '{"@context":["https://w3id.org/identity/v1"],"Claim":{"issueDate":"2026-10-24T00:01:00.000Z","reviewBody":{"checks":[{"name":"identity","result":"clear"},{"name":"watchlist","res';
    expect(certificateOutcome(SLUG, raw)).toEqual({
      label: 'ComplyAdvantage',
      outcome: 'unconfirmed',
      path: 'result',
      stated: 'clear',
      recognition: 'unreadable',
    });
    expect(needsAttention(certificatesOutcome([raw]))).toBe(true);
    const record: CandidateRecord = { status: 'waiting', refId: 'cut-1', isArchived: false, blockPassID: 'bp', certs: { [SLUG]: raw } };
    const text = candidateSummary({ record, environment: 'Sandbox', role: 'compliance', now: new Date(), timeZone: 'UTC' });
    expect(text).toContain(
      '  ComplyAdvantage: clear found in the text — certificate incomplete or not valid JSON, the rest unknown (at result)\n',
    );
    // A failure in the same text stands as found.
    const failed = raw.replace('"result":"clear"', '"result":"match"');
    expect(certificateOutcome(SLUG, failed)).toMatchObject({ outcome: 'match', stated: undefined });
  });
});
