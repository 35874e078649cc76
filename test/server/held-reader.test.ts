import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldWords } from '../../src/kyc/contract/audit-held.ts';
import type { IdentityAttribute } from '../../src/kyc/contract/schema.ts';
import { sortAttributes } from '../../src/kyc/view/attributes.ts';
import { HeldReader } from '../../src/server/answer/answer-held.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';

/**
 * The audit's "held" line counts what the page shows: a picture of another type than `base64` whose value
 * sniffs as one (attributes.ts's isPictureOfOtherType, shown "sent as type file") is a picture, and
 * identities or certificates sent as JSON text are said to be, never "no identity data" or "no certificates".
 */

const bytes = (head: number[]) => Buffer.concat([Buffer.from(head), Buffer.alloc(96, 7)]).toString('base64');
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0]);
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const SVG = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(80)}</svg>`).toString('base64');

function heldOf(body: string, cut = 1 << 20) {
  const scan = new AnswerScan();
  const reader = new HeldReader(scan.path);
  scan.add(reader);
  const buf = Buffer.from(body);
  for (let at = 0; at < buf.length; at += cut) scan.write(buf.subarray(at, at + cut));
  expect(scan.end()).toBe(true);
  return reader.held();
}

const answer = (identities: unknown) => JSON.stringify({ status: 'success', data: { refId: 'A1', identities, certs: {} } });

describe('what a full answer held: pictures as the page shows them', () => {
  it('counts a JPEG sent as type file as a picture, by name (the reviewer saw Pictures → Selfie)', () => {
    const held = heldOf(answer({ selfie: { type: 'file', value: JPEG }, given_name: { type: 'string', value: 'Ana' } }));
    expect(held).toEqual({ identities: 2, pictures: 1, pictureNames: ['selfie'], certificates: 0 });
    expect(heldWords(held)).toBe('held: 2 identity attributes, 1 picture (selfie), no certificates');
  });

  it('says identities sent as JSON text were sent as text and not counted, never "no identity data"', () => {
    const text = JSON.stringify({ given_name: { type: 'string', value: 'Ana' }, passport: { type: 'base64', value: JPEG } });
    const held = heldOf(answer(text));
    expect(held).toMatchObject({ identities: 0, identitiesAsText: true });
    expect(heldWords(held)).toBe('held: identity data sent as text, not counted, no certificates');
  });

  it('says certificates sent as JSON text were sent as text and not counted, never "no certificates" (the page reads them)', () => {
    const certs = JSON.stringify({ 'onfido-service-cert': JSON.stringify({ Claim: { reviewBody: { result: 'clear' } } }) });
    const body = JSON.stringify({
      status: 'success',
      data: { refId: 'A1', identities: { given_name: { type: 'string', value: 'Ana' } }, certs },
    });
    for (const cut of [1, 7, 1 << 20]) {
      const held = heldOf(body, cut);
      expect(held).toEqual({ identities: 1, pictures: 0, pictureNames: [], certificates: 0, certificatesAsText: true });
      expect(heldWords(held)).toBe('held: 1 identity attribute, no pictures, certificates sent as text, not counted');
    }
  });

  it('counts, for any identities however the answer is cut, the pictures the page shows (sortAttributes)', () => {
    const attribute = fc.record(
      {
        type: fc.constantFrom('base64', 'file', 'string', 'image', 'document'),
        value: fc.oneof(fc.constantFrom(JPEG, PNG, SVG, `data:image/jpeg;base64,${JPEG}`, 'Ana'), fc.string({ maxLength: 120 })),
      },
      { requiredKeys: ['type', 'value'] },
    );
    const identities = fc.dictionary(fc.constantFrom('selfie', 'passport', 'given_name', 'proof', 'x'), attribute, { maxKeys: 5 });
    fc.assert(
      fc.property(identities, fc.integer({ min: 1, max: 50 }), (attributes, cut) => {
        const held = heldOf(answer(attributes), cut);
        const shown = sortAttributes(attributes as Record<string, IdentityAttribute>).pictures.map(([name]) => name);
        expect(held.identities).toBe(Object.keys(attributes).length);
        expect(held.pictures).toBe(shown.length);
        expect([...held.pictureNames].sort()).toEqual([...shown].sort());
      }),
    );
  });
});
