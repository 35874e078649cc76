import { describe, expect, it } from 'vitest';
import { KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';
import { STATUS_TONES, statusTone, UNKNOWN_STATUS_TONE } from '../../src/kyc/view/status-tone.ts';

/** The colour classes of a chip or marker (bg-red-50, ring-amber-300 …), without the shared shape classes. */
const colours = (classes: string) => classes.split(' ').filter((name) => /-(\d{2,3}|white)$/.test(name));

describe('status tones', () => {
  it('puts rejected and blocked in the negative family, in red, told apart by icon and fill', () => {
    for (const status of ['rejected', 'blocked'] as const) {
      expect(STATUS_TONES[status].family).toBe('negative');
      expect(STATUS_TONES[status].chip).toMatch(/\bbg-red-\d+/);
      expect(STATUS_TONES[status].dot).toMatch(/\bbg-red-\d+/);
      expect(STATUS_TONES[status].colour).toMatch(/^red/);
    }
    expect(STATUS_TONES.rejected.icon).not.toBe(STATUS_TONES.blocked.icon);
    expect(STATUS_TONES.rejected.chip).not.toBe(STATUS_TONES.blocked.chip);
  });

  it.each(['inreview', 'review_requested', 'incomplete'] as const)('tells %s apart from waiting by family, colour and icon', (status) => {
    const [tone, waiting] = [STATUS_TONES[status], STATUS_TONES.waiting];
    expect(tone.family).not.toBe(waiting.family);
    expect(colours(tone.chip)).not.toEqual(colours(waiting.chip));
    expect(tone.dot).not.toBe(waiting.dot);
    expect(tone.icon).not.toBe(waiting.icon);
    expect(tone.colour).not.toBe(waiting.colour);
  });

  it('gives every other documented status a family, colour and icon of its own, none neutral', () => {
    const others = KNOWN_STATUSES.filter((status) => status !== 'blocked').map((status) => STATUS_TONES[status]);
    for (const key of ['family', 'colour', 'icon', 'chip', 'dot'] as const) {
      expect(new Set(others.map((tone) => tone[key])).size).toBe(others.length);
    }
    for (const status of KNOWN_STATUSES) {
      expect(statusTone(status)).toBe(STATUS_TONES[status]);
      expect(statusTone(status).family).not.toBe('neutral');
      expect(statusTone(status).chip).not.toBe(UNKNOWN_STATUS_TONE.chip);
    }
  });

  it('shows a status it does not know neutrally, even one named like a property of every object', () => {
    for (const status of ['on_hold', 'constructor', 'toString', '__proto__', 'Approved', '']) {
      expect(statusTone(status)).toBe(UNKNOWN_STATUS_TONE);
    }
    expect(UNKNOWN_STATUS_TONE.family).toBe('neutral');
  });
});
