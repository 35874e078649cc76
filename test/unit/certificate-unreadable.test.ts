import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificatesOutcome, needsAttention } from '../../src/kyc/contract/certificate-triage.ts';
import { KNOWN_OUTCOMES, outcomeTone } from '../../src/kyc/contract/outcome.ts';

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

type Kind = 'pass' | 'flag' | 'cut' | 'garbage' | 'no-result' | 'unknown-word';
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
