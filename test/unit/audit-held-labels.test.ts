import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AuditHeld, heldOf, heldText, MAX_HELD_NAMES } from '../../src/kyc/contract/audit-held.ts';
import type { AuditRow } from '../../src/kyc/contract/audit-search.ts';
import { levelText } from '../../src/kyc/view/audit-labels.ts';

/**
 * "Did ana see the passport picture?": a full lookup's row says what its answer held, by its request's
 * closing line, in words a lead reads at once; never a picture it did not hold, never a value.
 */

type LevelRow = Parameters<typeof levelText>[0];
const lookup = (more: Partial<AuditRow> = {}): LevelRow => ({ action: 'lookup', level: 'full', status: 200, ...more });

const NAME = fc.stringMatching(/^[a-z_]{1,20}$/);
const HELD: fc.Arbitrary<AuditHeld> = fc
  .record({
    identities: fc.nat(40),
    names: fc.uniqueArray(NAME, { maxLength: MAX_HELD_NAMES }),
    unnamed: fc.nat(3),
    certificates: fc.nat(5),
    archived: fc.boolean(),
  })
  .map(({ identities, names, unnamed, certificates, archived }) => {
    const pictures = identities === 0 ? 0 : Math.min(identities, names.length + unnamed);
    const pictureNames = names.slice(0, pictures);
    return { identities, pictures, pictureNames, certificates, ...(archived ? { archived: true as const } : {}) };
  });

describe("a full lookup's row: what its answer held", () => {
  it('reads as the compliance review asked', () => {
    const held = { identities: 5, pictures: 2, pictureNames: ['passport', 'selfie'], certificates: 1 };
    expect(levelText(lookup({ held }))).toBe('Full key; held: 5 identity attributes, 2 pictures (passport, selfie), 1 certificate');
    const noPictures = { identities: 5, pictures: 0, pictureNames: [], certificates: 2 };
    expect(levelText(lookup({ held: noPictures }))).toBe('Full key; held: 5 identity attributes, no pictures, 2 certificates');
    const archived = { identities: 0, pictures: 0, pictureNames: [], certificates: 2, archived: true as const };
    expect(levelText(lookup({ held: archived }))).toBe('Full key; archived: no identity data, 2 certificates');
  });

  it('an answer cut short held what it held, unknown; an older line claims nothing', () => {
    expect(levelText(lookup({ heldCut: true }))).toBe('Full key; cut short: what it held is not known');
    expect(levelText(lookup())).toBe('Full key; what it held was not recorded');
    // Refused, and the cut line's own row: as before.
    expect(levelText(lookup({ status: 502, code: 'upstream_error' } as Partial<AuditRow>))).toBe('Full key asked, nothing shown');
    expect(levelText({ action: 'cut', level: 'full', status: 499 })).toBe('Full key, cut short');
  });

  it('property: the words name every picture the line names and claim none it did not hold', () => {
    fc.assert(
      fc.property(HELD, (held) => {
        const words = heldText({ held });
        if (held.pictures === 0) expect(words).not.toMatch(/\d+ pictures?\b/);
        else expect(words).toContain(`${held.pictures} ${held.pictures === 1 ? 'picture' : 'pictures'}`);
        for (const name of held.pictureNames) expect(words).toContain(name);
        expect(words.startsWith(held.identities === 0 && held.archived ? 'archived: ' : 'held: ')).toBe(true);
        // Read back from a line as written and parsed: the same words.
        expect(heldText({ held: heldOf(JSON.parse(JSON.stringify(held))) })).toBe(words);
      }),
    );
  });

  it('property: a row without its closing line never claims pictures', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.anything(), (cut, value) => {
        const held = heldOf(value);
        const words = heldText({ ...(held ? { held } : {}), ...(cut ? { heldCut: true as const } : {}) });
        if (!held) expect(words).not.toMatch(/picture/);
      }),
    );
  });
});
