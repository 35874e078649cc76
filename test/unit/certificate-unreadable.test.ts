import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificatesOutcome, needsAttention } from '../../src/kyc/contract/certificate-triage.ts';
import { KNOWN_OUTCOMES, outcomeTone } from '../../src/kyc/contract/outcome.ts';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { certificateOutcome } from '../../src/kyc/view/certificate-review.ts';
import { candidateSummary } from '../../src/kyc/view/summary.ts';

/**
 * A record's queue word (and so "Certificate needs attention") is a pass only when every one of its
 * certificates parses and states a pass: a certificate this tool cannot read (not JSON, or JSON stating no
 * result it knows) is something for a reviewer to look at, never left out beside a green one.
 */

const words = (tone: string) => Object.keys(KNOWN_OUTCOMES).filter((w) => KNOWN_OUTCOMES[w]!.tone === tone && w !== 'unconfirmed');
const PASSES = words('positive');
const FLAGS = [...words('caution'), ...words('negative')];

const cert = (reviewBody: unknown, custom: Record<string, unknown> = {}) =>
  JSON.stringify({ '@context': ['https://w3id.org/identity/v1'], Claim: { _customFields: custom, reviewBody } });
const CLEAR = cert({ checks: [{ name: 'watchlist', result: 'clear' }] }, { result: 'clear' });

type Kind = 'pass' | 'flag' | 'cut' | 'cut-inside' | 'garbage' | 'no-result' | 'unknown-word';
const checks = (pool: string[]) =>
  fc.array(fc.record({ name: fc.constantFrom('identity', 'watchlist'), result: fc.constantFrom(...pool) }), { minLength: 1, maxLength: 3 });
const passing = fc
  .tuple(checks(PASSES), fc.constantFrom(...PASSES), fc.boolean())
  .map(([list, custom, asText]) => cert(asText ? JSON.stringify({ checks: list }) : { checks: list }, { result: custom }));
const flagged = fc
  .tuple(checks([...PASSES, ...FLAGS]), fc.constantFrom(...FLAGS))
  .map(([list, custom]) => cert({ checks: list }, { result: custom }));

/** Each certificate with what it is, by construction: the oracle the property checks the reading against. */
const certificate: fc.Arbitrary<{ kind: Kind; raw: string }> = fc.oneof(
  passing.map((raw) => ({ kind: 'pass' as const, raw })),
  flagged.map((raw) => ({ kind: 'flag' as const, raw })),
  fc.tuple(fc.oneof(passing, flagged), fc.nat()).map(([raw, n]) => ({ kind: 'cut' as const, raw: raw.slice(0, n % raw.length) })),
  // Parses, but its reviewBody is text holding JSON cut off anywhere, a pass in _customFields beside it.
  fc.tuple(fc.oneof(checks(PASSES), checks(FLAGS)), fc.nat(), fc.constantFrom(...PASSES)).map(([list, n, pass]) => {
    const text = JSON.stringify({ checks: list });
    return { kind: 'cut-inside' as const, raw: cert(text.slice(0, 1 + (n % (text.length - 1))), { result: pass }) };
  }),
  fc
    .string()
    .filter((text) => !parses(text))
    .map((raw) => ({ kind: 'garbage' as const, raw })),
  fc
    .constantFrom(cert(undefined, { note: 'x' }), JSON.stringify({ issueDate: '2026-01-01' }), '{}', '[]', '"clear"', 'null', '7')
    .map((raw) => ({ kind: 'no-result' as const, raw })),
  fc
    .constantFrom('pending', 'in_progress', 'n/a', '', 'clear-ish')
    .map((w) => ({ kind: 'unknown-word' as const, raw: cert({ result: w }) })),
);

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("a record's queue word with a certificate this tool cannot read", () => {
  it('is a pass only if every certificate parses and states a pass (property)', () => {
    fc.assert(
      fc.property(fc.array(certificate, { maxLength: 5 }), (certs) => {
        const word = certificatesOutcome(certs.map((c) => c.raw));
        const allPass = certs.length > 0 && certs.every((c) => c.kind === 'pass');
        expect(word !== undefined && outcomeTone(word) === 'positive').toBe(allPass);
        // Any certificate: needs attention unless every one passes.
        if (certs.length > 0) expect(needsAttention(word)).toBe(!allPass);
      }),
      { numRuns: 400 },
    );
  });

  it('says "unreadable", and needs attention, for a certificate that is not JSON and states no result beside a clear one', () => {
    expect(certificatesOutcome([CLEAR])).toBe('clear');
    for (const unreadable of ['{"Claim":,,', 'not json at all', '{"Claim":{"issueDate":"2026-']) {
      expect(certificatesOutcome([unreadable, CLEAR])).toBe('unreadable');
      expect(certificatesOutcome([CLEAR, unreadable])).toBe('unreadable');
      expect(needsAttention(certificatesOutcome([unreadable]))).toBe(true);
    }
  });

  it('reads JSON that states no result this tool knows as unreadable, beside a clear one', () => {
    expect(certificatesOutcome([cert({ result: 'pending' }), CLEAR])).toBe('unreadable');
    expect(certificatesOutcome([JSON.stringify({ issueDate: '2026-01-01' }), CLEAR])).toBe('unreadable');
  });

  it('lets evidence stand: a failure or a caution beside an unreadable certificate is still the word', () => {
    expect(certificatesOutcome(['{"Claim":,,', cert({ result: 'potential_match' })])).toBe('potential_match');
    expect(certificatesOutcome(['{"Claim":,,', cert({ result: 'match' })])).toBe('match');
    expect(certificatesOutcome([])).toBeUndefined();
  });
});

describe('a certificate that parses, with text in it holding JSON cut off', () => {
  const SLUG = 'complyadvantage-service-cert';
  const cutBody = (body: string) => cert(body, { result: 'clear' });
  const summaryOf = (raw: string) => {
    const record: CandidateRecord = { status: 'waiting', refId: 'cut-2', isArchived: false, blockPassID: 'bp', certs: { [SLUG]: raw } };
    return candidateSummary({ record, environment: 'Sandbox', role: 'compliance', now: new Date(), timeZone: 'UTC' });
  };

  it('never shows the clear beside it as a pass: the chip, Copy summary and the queue read what the cut text states', () => {
    // Cut inside the watchlist result, after a clear identity check: the pass found is unconfirmed.
    const afterPass = cutBody('{"checks":[{"name":"identity","result":"clear"},{"name":"watchlist","res');
    expect(certificateOutcome(SLUG, afterPass)).toMatchObject({ outcome: 'unconfirmed', path: 'reviewBody', recognition: 'known' });
    expect(certificatesOutcome([afterPass])).toBe('unconfirmed');
    expect(summaryOf(afterPass)).toContain('  ComplyAdvantage: unconfirmed (at reviewBody)\n');
    // Cut before any result: unreadable.
    const beforeAny = cutBody('{"checks":[{"na');
    expect(certificateOutcome(SLUG, beforeAny)).toMatchObject({ outcome: 'unreadable', path: 'reviewBody' });
    expect(certificatesOutcome([beforeAny])).toBe('unreadable');
    expect(summaryOf(beforeAny)).toContain('  ComplyAdvantage: unreadable (at reviewBody)\n');
    // A failure the cut text states stands as found.
    const failed = cutBody('{"checks":[{"name":"watchlist","result":"match"},{"name":"id');
    expect(certificateOutcome(SLUG, failed)).toMatchObject({ outcome: 'match', path: 'reviewBody' });
    expect(certificatesOutcome([failed, CLEAR])).toBe('match');
  });

  it('reads text holding whole JSON as before, and text that is not JSON-like as text', () => {
    expect(certificatesOutcome([cutBody('{"checks":[{"name":"watchlist","result":"no_match"}]}')])).toBe('clear');
    expect(certificatesOutcome([cutBody('checked by hand, all fine')])).toBe('clear');
    expect(certificatesOutcome([cutBody('{{name}} [sic]'), cutBody('[sic] fine')])).toBe('clear');
  });
});
