import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeToAscii } from '../../src/server/audit/audit-line.ts';
import { foldCase, includesFolded, userNeedle } from '../../src/server/trail/audit-match.ts';

/**
 * The audit files' search by user reads a line's bytes before parsing it (audit-file-search.ts): the
 * test it makes there must never pass over a line whose user the filter names, whatever the capitals,
 * the escapes or the other `"user":` keys of the line (an audit search's line names a user in its filter).
 */

/** A line as the writer writes one (JSON, escaped to ASCII), with the user first or after a filter naming another. */
function lineOf(user: string, filterUser: string | undefined, userFirst: boolean): Buffer {
  const filter = filterUser === undefined ? {} : { filter: { user: filterUser } };
  const fields = userFirst ? { user, kind: 'audit', ...filter } : { kind: 'audit', ...filter, user };
  return Buffer.from(escapeToAscii(JSON.stringify({ time: '2026-11-29T10:00:00.000Z', ...fields })), 'latin1');
}

const name = fc.string({
  unit: fc.constantFrom('a', 'A', 'z', 'Z', 'n', 'N', '@', '.', '"', '\\', 'é', 'É', '\n', '😀', ' '),
  maxLength: 8,
});
/** The same name with its capitals A to Z changed at random: what a provider may send another day. */
const respelled = (text: string, flips: boolean[]) =>
  [...text]
    .map((c, i) => (/[a-z]/i.test(c) && flips[i % flips.length] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c))
    .join('');

describe('the audit files: a line by the user a search names', () => {
  it('is never passed over, whatever the capitals A to Z of either, the escapes, or another user named in the line', () => {
    fc.assert(
      fc.property(
        name,
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.option(name, { nil: undefined }),
        fc.boolean(),
        (user, flips, other, first) => {
          const asked = respelled(user, flips);
          expect(foldCase(asked)).toBe(foldCase(user));
          expect(includesFolded(lineOf(user, other, first), userNeedle({ user: asked })!)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is told from other users: a longer name, a shorter one, another letter, É for é', () => {
    const line = lineOf('Ana.Smith@Example.org', 'ben', false);
    const passes = (user: string) => includesFolded(line, userNeedle({ user })!);
    expect(passes('ana.smith@example.org')).toBe(true);
    expect(passes('ANA.SMITH@EXAMPLE.ORG')).toBe(true);
    expect(passes('ana.smith@example.or')).toBe(false);
    expect(passes('ana.smith@example.org.evil')).toBe(false);
    expect(passes('ana.smyth@example.org')).toBe(false);
    // The other `"user":` of the line (its filter's) passes this test too: the parsed row decides (matches).
    expect(passes('ben')).toBe(true);
    expect(includesFolded(lineOf('Émile', undefined, true), userNeedle({ user: 'émile' })!)).toBe(false);
    expect(foldCase('ÉMILE Ana')).toBe('Émile ana');
  });
});
