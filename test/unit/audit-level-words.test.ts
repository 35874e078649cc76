import { describe, expect, it } from 'vitest';
import { LEVEL_LABELS, LEVEL_MEANINGS, levelTitle } from '../../src/kyc/view/audit-labels.ts';

/**
 * What the audit page tells a compliance lead a level meant. A lookup line records the key used, not what
 * the answer held: a key without pictures, or an archived record, is read at the same level "full".
 */
describe('the audit levels in words', () => {
  it('attack on the trail: the full level does not claim document pictures a key without pictures, or an archived record, never sent', () => {
    const words = `${LEVEL_LABELS.full}: ${LEVEL_MEANINGS.full}`;
    expect(words).not.toMatch(/pictures included/);
    expect(words).toMatch(/full key/);
    expect(words).toMatch(/not recorded/);
    expect(levelTitle({ level: 'full', action: 'lookup', status: 200 } as Parameters<typeof levelTitle>[0])).toBe(words);
  });

  it('says of the status levels that no identity data or picture was seen', () => {
    expect(LEVEL_MEANINGS.status).toMatch(/no identity data, no pictures/);
    expect(LEVEL_MEANINGS.stripped).toMatch(/no identity data or pictures left the server/);
  });
});
