import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { certificateOutcome } from '../../src/kyc/view/certificate-review.ts';
import { certificatesOutcome, needsAttention } from '../../src/kyc/contract/certificate-triage.ts';
import { KNOWN_OUTCOMES, knownOutcome } from '../../src/kyc/contract/outcome.ts';
import { sandboxCertificates } from '../../src/server/sandbox/candidates.ts';

/**
 * The rule a reviewer relies on: a certificate that states a known outcome anywhere outside its
 * signatures, hashes, issuer and context never reads as "no result", and reads the same wherever the
 * document keeps it.
 */

type Json = Record<string, unknown>;

const certificates = sandboxCertificates(new Date('2026-11-22T00:00:00.000Z')).flatMap(({ slug, raw }) => {
  try {
    return [{ slug, doc: JSON.parse(raw) as Json }];
  } catch {
    return []; // the sandbox's deliberately broken certificate: nothing to move
  }
});

const parseIfText = (value: unknown) => (typeof value === 'string' && /^\s*[[{]/.test(value) ? JSON.parse(value) : value);

/** Everything a certificate's Claim states, but its issue date: what the variants move around. */
function contentOf(doc: Json): Json {
  const { issueDate: _issued, ...claim } = (doc.Claim ?? {}) as Json;
  return { ...claim, reviewBody: parseIfText(claim.reviewBody) };
}

const CASES = {
  snake: (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
  camel: (key: string) => key.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase()),
  pascal: (key: string) => CASES.camel(key).replace(/^[a-z]/, (c) => c.toUpperCase()),
  upper: (key: string) => CASES.snake(key).toUpperCase(),
};

function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameKeys(item, rename)]));
}

type Move = (content: unknown) => unknown;
const MOVES: Record<string, Move> = {
  intoCustomFields: (content) => ({ _customFields: content }),
  intoReviewBodyText: (content) => ({ reviewBody: JSON.stringify(content) }),
  intoArrayOfChecks: (content) => ({ reviewBody: JSON.stringify([{ name: 'screening', ...(content as Json) }]) }),
  intoDataChecks: (content) => ({ reviewBody: { data: { checks: [content] } } }),
  oneLevelDeeper: (content) => ({ details: content }),
  threeLevelsDeeper: (content) => ({ report: { sections: [{ details: content }] } }),
  snakeCaseKeys: (content) => renameKeys(content, CASES.snake),
  camelCaseKeys: (content) => renameKeys(content, CASES.camel),
  pascalCaseKeys: (content) => renameKeys(content, CASES.pascal),
  upperCaseKeys: (content) => renameKeys(content, CASES.upper),
};

function variant(doc: Json, moves: string[]): string {
  let content: unknown = contentOf(doc);
  for (const move of moves) content = MOVES[move]!(content);
  const claim = { issueDate: (doc.Claim as Json | undefined)?.issueDate, ...(content as Json) };
  return JSON.stringify({ ...doc, Claim: claim });
}

describe('a certificate reads the same wherever it keeps its results', () => {
  it('has sandbox certificates to move, each with a known outcome', () => {
    expect(certificates.length).toBeGreaterThanOrEqual(3);
    // The shapes issue 19 names: a potential match kept in _customFields, checks in a reviewBody text.
    const of = (candidate: string, slug: string) => {
      const found = sandboxCertificates().find((c) => c.candidate === candidate && c.slug === slug)!;
      return certificateOutcome(slug, found.raw);
    };
    expect(of('acct-30291', 'complyadvantage-service-cert')).toMatchObject({ outcome: 'potential_match', path: '_customFields.result' });
    expect(of('acct-30291', 'onfido-service-cert')).toMatchObject({ outcome: 'consider', path: 'reviewBody[1].result' });
    for (const { slug, doc } of certificates) expect(certificateOutcome(slug, JSON.stringify(doc)).recognition).toBe('known');
  });

  it.each(Object.keys(MOVES))('each sandbox certificate moved %s keeps its chip', (move) => {
    for (const { slug, doc } of certificates) {
      const before = certificateOutcome(slug, JSON.stringify(doc));
      expect(certificateOutcome(slug, variant(doc, [move])).outcome, `${slug} ${move}`).toBe(before.outcome);
    }
  });

  it('keeps the chip for any sequence of moves (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...certificates),
        fc.array(fc.constantFrom(...Object.keys(MOVES)), { minLength: 1, maxLength: 5 }),
        ({ slug, doc }, moves) => {
          const before = certificateOutcome(slug, JSON.stringify(doc));
          const after = certificateOutcome(slug, variant(doc, moves));
          expect(after).toMatchObject({ outcome: before.outcome, recognition: 'known' });
        },
      ),
      { numRuns: 300 },
    );
  }, 30_000);
});

const RESULT_KEYS = ['result', 'Result', 'RESULT', 'match_status', 'matchStatus', 'MatchStatus', 'outcome', 'decision', 'status'];
const MORE_RESULT_KEYS = ['verdict', 'review_result', 'reviewResult', 'overall_result', 'screeningStatus', 'sub_result', 'Outcome'];
const EXCLUDED = new Set(['signature', 'proof', 'Entity', 'Organization', '@context']);

const word = fc.constantFrom(...Object.keys(KNOWN_OUTCOMES)).chain((w) =>
  fc.constantFrom(
    w,
    w.toUpperCase(),
    ` ${w} `,
    w.replace(/_/g, ' '),
    w.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
  ),
);
const pathKey = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('Claim', '_customFields', 'reviewBody', 'data', 'checks', 'hits', 'x'),
);

/** Where the word goes: a chain of keys and list positions, any of which may be text holding JSON. */
const step = fc.record({ key: pathKey, list: fc.boolean(), asText: fc.boolean() });

function place(steps: Array<{ key: string; list: boolean; asText: boolean }>, leaf: Json): unknown {
  let value: unknown = leaf;
  for (const { key, list, asText } of steps.toReversed()) {
    const inner = list ? [value] : value;
    value = { [key]: asText ? JSON.stringify(inner) : inner };
  }
  return value;
}

describe('a known outcome word under a result-like key never reads as "no result"', () => {
  it('whatever else the document holds, wherever the word is (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(pathKey, fc.jsonValue({ maxDepth: 3 })),
        fc.array(step, { minLength: 0, maxLength: 8 }).filter((steps) => !steps.some((s) => EXCLUDED.has(s.key))),
        fc.constantFrom(...RESULT_KEYS, ...MORE_RESULT_KEYS),
        word,
        (noise, steps, resultKey, value) => {
          const placed = place(steps, { [resultKey]: value }) as Json;
          const doc = steps.length === 0 ? { ...noise, ...placed } : { ...noise, [steps[0]!.key]: placed[steps[0]!.key] };
          const chip = certificateOutcome('acme-cert', JSON.stringify(doc));
          expect(chip.recognition).toBe('known');
          // The chip shows the worst known word: never better than the one placed.
          expect(knownOutcome(chip.outcome)!.severity).toBeGreaterThanOrEqual(knownOutcome(value)!.severity);
          expect(chip.path).toBeTruthy();
        },
      ),
      { numRuns: 1000 },
    );
    // A thousand generated documents: seconds when other suites share the cores.
  }, 30_000);

  it('also as an entry of a list or map of checks', () => {
    fc.assert(
      fc.property(fc.constantFrom('checks', 'breakdown', 'results', 'hits', 'subResults'), fc.boolean(), word, (key, asMap, value) => {
        const doc = { Claim: { reviewBody: { [key]: asMap ? { face: value } : [value] } } };
        expect(certificateOutcome('acme-cert', JSON.stringify(doc))).toMatchObject({ outcome: value, recognition: 'known' });
      }),
    );
  });

  it('reads a result after a quote that a misread pair ends on, in a certificate that does not parse (the property below found it)', () => {
    // Seed 1863162302: `":":null` let a pair run across the issueDate's closing quote and take the next one's.
    const raw = '{"Claim":{"issueDate":{":":null},"reviewBody":"match",,}}';
    expect(certificateOutcome('acme-cert', raw)).toMatchObject({ outcome: 'match', recognition: 'unreadable' });
  });

  it('also as the reviewBody itself, or any wrapper of results, parsed or in a certificate that does not parse', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('reviewBody', 'review_body', 'ReviewBody', 'data', 'report', 'payload'),
        word,
        fc.dictionary(fc.constantFrom('issueDate', '_customFields', 'x'), fc.jsonValue({ maxDepth: 2 })),
        fc.boolean(),
        (key, value, noise, broken) => {
          const text = JSON.stringify({ Claim: { ...noise, [key]: value } });
          // `,,` as in the published examples: read from the text.
          const raw = broken ? `${text.slice(0, -2)},,}}` : text;
          expect(certificateOutcome('acme-cert', raw).recognition).toBe(broken ? 'unreadable' : 'known');
          expect(knownOutcome(certificateOutcome('acme-cert', raw).outcome)!.severity).toBeGreaterThanOrEqual(
            knownOutcome(value)!.severity,
          );
          // The queue's triage reads it too: a potential match is never left out of "needs attention".
          if (knownOutcome(value)!.tone !== 'positive') expect(needsAttention(certificatesOutcome([raw]))).toBe(true);
        },
      ),
    );
  });

  it('but not inside the signatures, the hashes, the issuer or the context', () => {
    for (const key of EXCLUDED) {
      const doc = { [key]: { result: 'match' }, Claim: { reviewBody: { result: 'clear' } } };
      expect(certificateOutcome('acme-cert', JSON.stringify(doc)).outcome).toBe('clear');
    }
  });
});
