import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressParts, decodeAddress } from '../../src/kyc/view/address.ts';
import { candidateName } from '../../src/kyc/contract/candidate-name.ts';
import { attributeLabel, sortAttributes } from '../../src/kyc/view/attributes.ts';
import { certificateTitle, layOutCertificate, parseCertificate } from '../../src/kyc/view/certificate.ts';
import { certificateOutcome, NOT_RECOGNISED } from '../../src/kyc/view/certificate-review.ts';
import { countryName } from '../../src/kyc/view/countries.ts';
import { ageOn, formatDob, readDob } from '../../src/kyc/view/dob.ts';

/** A date of birth read, or undefined where the page says why it cannot. */
const parseDob = (raw: string) => {
  const reading = readDob(raw);
  return reading.ok ? reading.dob : undefined;
};
const addressLines = (address: Parameters<typeof addressParts>[0]) => addressParts(address).map((line) => line.text);
import { decodePhone } from '../../src/kyc/view/phone.ts';
import { numberText } from '../../src/kyc/contract/other-forms.ts';
import { UNREADABLE } from '../../src/kyc/contract/certificate-triage.ts';

describe('decodeAddress', () => {
  it('decodes the documented JSON into postal lines, skipping empty parts', () => {
    const decoded = decodeAddress(
      JSON.stringify({ address: '18 rue des Martyrs', extraInfo: '', city: 'Paris', state: '', postalCode: '75009', country: 'FRA' }),
    );
    expect(decoded.ok).toBe(true);
    if (decoded.ok) {
      expect(addressLines(decoded.value)).toEqual(['18 rue des Martyrs', '75009 Paris']);
      expect(decoded.value.country).toBe('FRA');
    }
  });

  it.each([
    ['not JSON', '12 Main St, Springfield', /not valid JSON/],
    ['a JSON array', '[1,2]', /expected fields/],
    ['a JSON string', '"18 rue des Martyrs"', /expected fields/],
    ['truncated JSON', '{"city":"Par', /not valid JSON/],
  ])('keeps the raw text of %s and says why', (_name, raw, problem) => {
    const decoded = decodeAddress(raw);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) {
      expect(decoded.raw).toBe(raw);
      expect(decoded.problem).toMatch(problem);
    }
  });
});

describe('decodeAddress and decodePhone, liberally', () => {
  it('read a part sent as a number as its digits, and a null part as absent', () => {
    const decoded = decodeAddress('{"address":"Invalidenstr. 117","postalCode":10115,"city":"Berlin","state":null,"country":"DEU"}');
    expect(decoded.ok && addressLines(decoded.value)).toEqual(['Invalidenstr. 117', '10115 Berlin']);
    expect(decoded.ok && decoded.unread).toEqual([]);
    const phone = decodePhone('{"countryCode":"DEU","countryCode2":null,"phoneNumber":"+4915112345678","number":15112345678}');
    expect(phone).toEqual({
      ok: true,
      value: { countryCode: 'DEU', phoneNumber: '+4915112345678', number: '15112345678' },
      unread: [],
      others: [],
    });
    // In all its digits, where String() wrote "1e+21".
    const long = decodePhone('{"countryCode":"DEU","number":1e21}');
    expect(long.ok && long.value.number).toBe('1000000000000000000000');
  });

  it('an odd part costs that part alone: the rest is decoded, the part named by its kind, never its value', () => {
    const decoded = decodeAddress('{"address":"18 rue des Martyrs","postalCode":["secret-75009"],"city":"Paris","state":{"x":1}}');
    expect(decoded.ok && addressLines(decoded.value)).toEqual(['18 rue des Martyrs', 'Paris']);
    expect(decoded.ok && decoded.unread).toEqual([
      { field: 'postalCode', expected: 'text', found: 'a list' },
      { field: 'state', expected: 'text', found: 'an object' },
    ]);
    expect(JSON.stringify(decoded)).not.toContain('secret');
  });

  const PARTS = ['address', 'extraInfo', 'city', 'state', 'postalCode', 'country'] as const;
  const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(null));
  it('an address object decodes whatever its parts hold: text and numbers shown, null absent, anything else named', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...PARTS, 'other', '__proto__'), anyValue), (fields) => {
        const decoded = decodeAddress(JSON.stringify(fields));
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        for (const part of PARTS) {
          const sent = Object.hasOwn(fields, part) ? fields[part] : undefined;
          const readable = typeof sent === 'string' || typeof sent === 'number';
          // A number in its digits (numberText), which read back as the number sent.
          expect(decoded.value[part], part).toBe(readable ? (typeof sent === 'number' ? numberText(sent).digits : sent) : undefined);
          if (typeof sent === 'number') expect(Number(decoded.value[part])).toBe(sent === 0 ? 0 : sent); // -0 is written "0"
          const named = sent !== undefined && sent !== null && !readable;
          expect(
            decoded.unread.some((entry) => entry.field === part),
            part,
          ).toBe(named);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a phone object decodes whenever its phoneNumber is text, whatever its other parts hold', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('countryCode', 'countryCode2', 'number', 'other'), anyValue),
        fc.string(),
        (fields, phoneNumber) => {
          const decoded = decodePhone(JSON.stringify({ ...fields, phoneNumber }));
          expect(decoded.ok && decoded.value.phoneNumber).toBe(phoneNumber);
          // Without a phoneNumber, its national number is enough (the card composes the rest); with neither, nothing is.
          const number = Object.hasOwn(fields, 'number') ? fields.number : undefined;
          expect(decodePhone(JSON.stringify(fields)).ok).toBe(typeof number === 'string' || typeof number === 'number');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property, never hides: every part of an address object the documentation does not name is listed among the other parts, as sent', () => {
    const name = fc.oneof(fc.constantFrom(...PARTS, 'county', 'addressLine2', '__proto__', 'constructor'), fc.string({ maxLength: 12 }));
    fc.assert(
      fc.property(fc.dictionary(name, anyValue, { minKeys: 1 }), (fields) => {
        const decoded = decodeAddress(JSON.stringify(fields));
        expect(decoded.ok).toBe(true);
        if (!decoded.ok) return;
        for (const [part, sent] of Object.entries(fields)) {
          const known = (PARTS as readonly string[]).includes(part);
          const other = decoded.others.find((entry) => entry.name === part);
          expect(other !== undefined, part).toBe(!known);
          // Text as sent; anything else as its JSON, a number in its digits (numberText: never "1e+21").
          if (other && typeof sent === 'string') expect(other.text).toBe(sent);
          else if (other) expect(JSON.parse(other.text)).toEqual(JSON.parse(JSON.stringify(sent)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the parts the documentation does not name, in name order, and the documented ones where they were', () => {
    const address = decodeAddress(
      JSON.stringify({ address: '1 High St', city: 'Canterbury', country: 'GBR', county: 'Kent', addressLine2: 'Flat 3', floor: 2 }),
    );
    expect(address.ok && addressLines(address.value)).toEqual(['1 High St', 'Canterbury']);
    expect(address.ok && address.others).toEqual([
      { name: 'addressLine2', text: 'Flat 3' },
      { name: 'county', text: 'Kent' },
      { name: 'floor', text: '2' },
    ]);
    const phone = decodePhone('{"countryCode":"GBR","phoneNumber":"+447700900123","extension":"42"}');
    expect(phone.ok && phone.others).toEqual([{ name: 'extension', text: '42' }]);
  });
});

describe('decodePhone', () => {
  it('decodes the documented JSON', () => {
    const decoded = decodePhone('{"countryCode":"SWE","countryCode2":"se","phoneNumber":"+46701234567","number":"701234567"}');
    expect(decoded).toEqual({
      ok: true,
      value: { countryCode: 'SWE', countryCode2: 'se', phoneNumber: '+46701234567', number: '701234567' },
      unread: [],
      others: [],
    });
  });

  it('decodes a phone with its national number but no phoneNumber (the card composes it), and never invents one', () => {
    const decoded = decodePhone('{"countryCode":"GBR","countryCode2":"gb","number":"7700900123"}');
    expect(decoded).toEqual({ ok: true, value: { countryCode: 'GBR', countryCode2: 'gb', number: '7700900123' }, unread: [], others: [] });
  });

  it('refuses JSON with neither a phoneNumber nor a number, and text that is not JSON', () => {
    expect(decodePhone('{"countryCode":"SWE"}')).toMatchObject({
      ok: false,
      problem: 'The phone number has neither a phoneNumber nor a number.',
    });
    expect(decodePhone('+46 70 123 45 67').ok).toBe(false);
  });
});

describe('countryName', () => {
  it('names countries from alpha-3 and alpha-2 codes', () => {
    expect(countryName('FRA', 'en')).toBe('France');
    expect(countryName('hkg', 'en')).toMatch(/Hong Kong/);
    expect(countryName('se', 'en')).toBe('Sweden');
    expect(countryName('FRA', 'de')).toBe('Frankreich');
  });

  it('returns undefined for unknown or missing codes', () => {
    expect(countryName('XYZ', 'en')).toBeUndefined();
    expect(countryName('', 'en')).toBeUndefined();
    expect(countryName(undefined)).toBeUndefined();
    expect(countryName('<script>', 'en')).toBeUndefined();
  });
});

describe('date of birth', () => {
  it('parses MM/DD/YYYY and computes the age on a given day', () => {
    const dob = parseDob('07/14/1988')!;
    expect(dob).toEqual({ year: 1988, month: 7, day: 14 });
    expect(ageOn(dob, new Date(2026, 6, 13))).toBe(37);
    expect(ageOn(dob, new Date(2026, 6, 14))).toBe(38);
    expect(formatDob(dob, 'en-GB')).toBe('14 July 1988');
    expect(formatDob(dob, 'en-US')).toBe('July 14, 1988');
  });

  it.each([
    ['1990-04-23', { year: 1990, month: 4, day: 23 }],
    ['  1987-06-15 ', { year: 1987, month: 6, day: 15 }],
    ['1990-04-23T00:00:00.000Z', { year: 1990, month: 4, day: 23 }],
    ['1990-04-23T00:00:00Z', { year: 1990, month: 4, day: 23 }],
    ['1990-04-23T23:30:00-05:00', { year: 1990, month: 4, day: 23 }],
    ['1990-04-23T00:00:00+14:00', { year: 1990, month: 4, day: 23 }],
    ['1990-04-23T00:00', { year: 1990, month: 4, day: 23 }],
    ['1990-04-23 12:00:00+02:00', { year: 1990, month: 4, day: 23 }],
    ['1990-04-23t00:00:00z', { year: 1990, month: 4, day: 23 }],
    ['2000-02-29', { year: 2000, month: 2, day: 29 }],
  ])('reads the ISO form %j as a date, the date part as written', (raw, dob) => {
    expect(parseDob(raw)).toEqual(dob);
  });

  it("takes an ISO timestamp's date part whatever the reader's zone: no day lost to an offset", () => {
    const originalTz = process.env.TZ;
    try {
      for (const zone of ['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC']) {
        process.env.TZ = zone;
        const dob = parseDob('1990-04-23T00:00:00.000Z')!;
        expect(formatDob(dob, 'en-GB')).toBe('23 April 1990');
        expect(ageOn(dob, new Date(2026, 3, 22))).toBe(35);
        expect(ageOn(dob, new Date(2026, 3, 23))).toBe(36);
      }
    } finally {
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    }
  });

  it('a slash date that reads both ways is read month first, as documented, with the day-first date beside it (facts review, 29 November)', () => {
    expect(readDob('03/04/1987')).toEqual({ ok: true, dob: { year: 1987, month: 3, day: 4 }, dayFirst: { year: 1987, month: 4, day: 3 } });
    // One that reads one way only, or the same both ways, has nothing beside it.
    expect(readDob('07/14/1988')).toEqual({ ok: true, dob: { year: 1988, month: 7, day: 14 } });
    expect(readDob('05/05/1990')).toEqual({ ok: true, dob: { year: 1990, month: 5, day: 5 } });
    // ISO dates are never read day first.
    expect(readDob('1987-03-04')).toEqual({ ok: true, dob: { year: 1987, month: 3, day: 4 } });
  });

  it('a slash date that only reads day first is not called a date that does not exist: it says the day-first date', () => {
    expect(readDob('25/06/1987')).toEqual({
      ok: false,
      problem: 'not a date read month first (MM/DD/YYYY)',
      dayFirst: { year: 1987, month: 6, day: 25 },
    });
    expect(readDob('13/01/1990')).toMatchObject({ ok: false, dayFirst: { year: 1990, month: 1, day: 13 } });
    expect(readDob('31/02/1990')).toEqual({ ok: false, problem: 'not a date that exists' });
  });

  it.each(['1990-02-30', '1990-13-01', '1990-00-10', '1990-04-31T00:00:00Z', '02/30/2000', '1900-02-29'])(
    'flags %j as a date that does not exist',
    (raw) => {
      expect(parseDob(raw)).toBeUndefined();
      expect(readDob(raw)).toEqual({ ok: false, problem: 'not a date that exists' });
    },
  );

  it.each([
    '',
    'yesterday',
    '1/2/34',
    '05.04.1990',
    '32.04.1990',
    '1990/04/23',
    '23-04-1990',
    '04-23-1990',
    '1990-4-23',
    '90-04-23',
    '19900423',
    '1990-04-23T',
    '1990-04-23Tnoon',
    '1990-04-23T00:00:00.000Zjunk',
    '1990-04-23\n<script>',
  ])('shows %j raw and flagged: a form that cannot be read without guessing', (raw) => {
    expect(parseDob(raw)).toBeUndefined();
    expect(readDob(raw)).toEqual({ ok: false, problem: 'not in a form this page reads (MM/DD/YYYY or YYYY-MM-DD)' });
  });

  it('a dotted date that can only be read day first says that date beside the raw text, never taken as read', () => {
    // Before: "not in a form this page reads", and no date at all, though 15.06.1987 can only be 15 June.
    expect(readDob('15.06.1987')).toEqual({
      ok: false,
      problem: 'not in a form this page reads (MM/DD/YYYY or YYYY-MM-DD)',
      dayFirst: { year: 1987, month: 6, day: 15 },
    });
    expect(readDob('23.4.1990')).toMatchObject({ ok: false, dayFirst: { year: 1990, month: 4, day: 23 } });
    // A date that does not exist day first either has none beside it.
    expect(readDob('31.02.1990')).toEqual({ ok: false, problem: 'not in a form this page reads (MM/DD/YYYY or YYYY-MM-DD)' });
  });

  it('accepts 29 February in a leap year only', () => {
    expect(parseDob('02/29/1996')).toEqual({ year: 1996, month: 2, day: 29 });
    expect(parseDob('02/29/1997')).toBeUndefined();
  });

  const pad = (n: number, width = 2) => String(n).padStart(width, '0');

  it('property: a date reads alike as MM/DD/YYYY, YYYY-MM-DD and any ISO timestamp of that date, in any offset', () => {
    const day = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true });
    const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }));
    const offset = fc.constantFrom('Z', '+00:00', '-05:00', '+14:00', '-1200', '+0530');
    fc.assert(
      fc.property(day, time, offset, (date, [hour, minute, ms], zone) => {
        const dob = { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
        const iso = `${dob.year}-${pad(dob.month)}-${pad(dob.day)}`;
        expect(parseDob(`${dob.month}/${dob.day}/${dob.year}`)).toEqual(dob);
        expect(parseDob(iso)).toEqual(dob);
        expect(parseDob(`${iso}T${pad(hour)}:${pad(minute)}:00.${pad(ms, 3)}${zone}`)).toEqual(dob);
      }),
    );
  });

  it('property: a day past the end of its month is never read, in either form', () => {
    const monthEnd = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
    const impossible = fc
      .tuple(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 1, max: 12 }))
      .chain(([year, month]) => fc.tuple(fc.constant(year), fc.constant(month), fc.integer({ min: monthEnd(year, month) + 1, max: 99 })));
    fc.assert(
      fc.property(impossible, ([year, month, day]) => {
        expect(readDob(`${year}-${pad(month)}-${pad(day)}`)).toEqual({ ok: false, problem: 'not a date that exists' });
        expect(readDob(`${month}/${day}/${year}`)).toEqual({ ok: false, problem: 'not a date that exists' });
      }),
    );
  });
});

describe('certificates', () => {
  it('titles certificates from their slug', () => {
    expect(certificateTitle('onfido-service-cert')).toBe('Onfido');
    expect(certificateTitle('complyadvantage-service-cert')).toBe('ComplyAdvantage');
    expect(certificateTitle('new-provider-service-cert')).toBe('New provider');
    expect(certificateTitle('weird')).toBe('Weird');
  });

  it('pretty-prints valid JSON, and its results read as the chip says them', () => {
    const raw = JSON.stringify({
      Organization: { legalName: 'Onfido Ltd' },
      Claim: { issueDate: '2026-01-01T00:00:00.000Z', reviewBody: { result: 'clear', nested: [{ match: 'potential_match' }] } },
    });
    const parsed = parseCertificate(raw);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(layOutCertificate(raw, parsed)).toMatchObject({ ok: true, pretty: expect.stringContaining('\n  "Organization": {') });
      expect(certificateOutcome('onfido-service-cert', raw)).toEqual({
        label: 'Onfido',
        outcome: 'potential_match',
        path: 'reviewBody.nested[0].match',
        recognition: 'known',
      });
    }
  });

  it('never fails on invalid JSON such as the public examples\' ",,"', () => {
    const raw = '{"@context":["x"],,"Claim":';
    const parsed = parseCertificate(raw);
    expect(parsed).toMatchObject({ ok: false, raw });
    if (!parsed.ok) expect(parsed.problem).toMatch(/not valid JSON/);
  });

  it('survives JSON that is not an object', () => {
    for (const raw of ['null', '42', '[]']) {
      expect(parseCertificate(raw).ok).toBe(true);
      expect(certificateOutcome('x-cert', raw)).toMatchObject({ outcome: NOT_RECOGNISED, recognition: 'none' });
    }
    // Text is read once more, as a certificate encoded twice (certificate-json.ts): text that is no JSON is shown raw, with a notice.
    expect(parseCertificate('"text"')).toMatchObject({ ok: false, text: 'text', problem: expect.stringMatching(/JSON text holding text/) });
    expect(certificateOutcome('x-cert', '"text"')).toMatchObject({ outcome: UNREADABLE, recognition: 'unreadable' });
  });
});

describe('attributes', () => {
  it('labels known attributes and humanises unknown ones', () => {
    expect(attributeLabel('selfie_national_id')).toBe('Selfie with national ID');
    expect(attributeLabel('proof_of_address')).toBe('Proof of address');
    expect(attributeLabel('tax_id')).toBe('Tax ID');
    expect(attributeLabel('residencePermit')).toBe('Residence Permit');
  });

  it('splits pictures (documented order first) from attributes without a dedicated card', () => {
    const sorted = sortAttributes({
      passport: { type: 'base64', value: 'x' },
      driving_license: { type: 'base64', value: 'x' },
      selfie: { type: 'base64', value: 'x' },
      email: { type: 'string', value: 'a@b.c' },
      nationality: { type: 'string', value: 'FRA' },
      occupation: { type: 'string', value: 'Engineer' },
    });
    expect(sorted.pictures.map(([name]) => name)).toEqual(['selfie', 'passport', 'driving_license']);
    expect(sorted.others.map(([name]) => name)).toEqual(['nationality', 'occupation']);
  });

  it('names a candidate from given and family name, or not at all', () => {
    const base = { status: 'waiting', isArchived: false, blockPassID: 'b' };
    expect(
      candidateName({
        ...base,
        identities: { given_name: { type: 'string', value: ' Zoë ' }, family_name: { type: 'string', value: 'Ångström' } },
      }),
    ).toBe('Zoë Ångström');
    expect(candidateName({ ...base, identities: { family_name: { type: 'string', value: 'Mensah' } } })).toBe('Mensah');
    expect(candidateName(base)).toBeUndefined();
  });
});

describe('text on screen', () => {
  it('makes bidirectional controls visible', async () => {
    const { revealBidiControls } = await import('../../src/kyc/view/text.ts');
    expect(revealBidiControls('invoice\u202Egpj.exe')).toBe('invoice⟦U+202E⟧gpj.exe');
    expect(revealBidiControls('\u2066a\u2069 \u200F')).toBe('⟦U+2066⟧a⟦U+2069⟧ ⟦U+200F⟧');
    expect(revealBidiControls('Zoë 王 Дмитрий')).toBe('Zoë 王 Дмитрий');
  });

  it('cuts long text on whole characters and says how much is left', async () => {
    const { truncateText } = await import('../../src/kyc/view/text.ts');
    expect(truncateText('short', 10)).toEqual({ shown: 'short', hidden: 0 });
    expect(truncateText('x'.repeat(100_000), 300)).toEqual({ shown: 'x'.repeat(300), hidden: 99_700 });
    expect(truncateText('🙂'.repeat(5), 3)).toEqual({ shown: '🙂🙂🙂', hidden: 2 });
  });
});
