import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_STRUCTURED_DEPTH,
  MAX_STRUCTURED_JSON,
  structuredField,
  structuredFieldsOf,
  wasSentAsObject,
} from '../../src/kyc/contract/other-forms.ts';
import { readCandidateRecord, SECOND_ENVELOPE, unreadFieldsOf } from '../../src/kyc/contract/record-reading.ts';
import { wasSentWithoutType } from '../../src/kyc/contract/identity-forms.ts';
import { candidatePersonName } from '../../src/kyc/contract/candidate-name.ts';
import { candidateEnvelopeSchema, type CandidateRecord, statusLevelEnvelope } from '../../src/kyc/contract/schema.ts';

/**
 * Issue 30: the service's answers are not uniform, so a record is refused only where reading it would
 * mislead (no status, no id); every other field is optional, and one in another form costs that field.
 */

const timestamp = fc
  .integer({ min: Date.parse('2015-01-01T00:00:00.000Z'), max: Date.parse('2030-01-01T00:00:00.000Z') })
  .map((ms) => new Date(ms).toISOString());
const text = fc.string({ minLength: 1, maxLength: 24 });
const attribute = fc.record({ type: fc.constantFrom('string', 'base64'), value: fc.string({ maxLength: 20 }) });

/** The optional fields of a full record, each with a value of its contract type. */
const OPTIONAL = {
  refId: text,
  recordId: text,
  isArchived: fc.boolean(),
  blockPassID: text,
  submitCount: fc.nat({ max: 20 }),
  willArchiveAtDate: timestamp,
  waitingDate: timestamp,
  inreviewDate: timestamp,
  approvedDate: timestamp,
  rejectedDate: timestamp,
  customFields: fc.dictionary(text, fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 3 }),
  identities: fc.dictionary(text, attribute, { maxKeys: 3 }),
  certs: fc.dictionary(text, fc.string(), { maxKeys: 2 }),
};
type Optional = keyof typeof OPTIONAL;
const OPTIONAL_FIELDS = Object.keys(OPTIONAL) as Optional[];

const validRecord = fc.record(
  { status: fc.constantFrom('waiting', 'inreview', 'approved', 'rejected', 'blocked', 'review_requested', 'some_new_status'), ...OPTIONAL },
  { requiredKeys: ['status', ...OPTIONAL_FIELDS] },
);

/** A value of another kind than the field's: what a wrong type in that field could be. */
function wrongValueFor(field: Optional): fc.Arbitrary<unknown> {
  const any = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 2 }),
    fc.object({ maxDepth: 1 }),
  );
  return any.filter((value) => {
    if (value === null) return false;
    return (
      !readCandidateRecord({ status: 'waiting', refId: 'r', recordId: 'x', [field]: value }).ok ||
      unreadFieldsOf(parseData({ status: 'waiting', refId: 'r', recordId: 'x', [field]: value })).length > 0
    );
  });
}

function parseData(data: Record<string, unknown>): CandidateRecord {
  return candidateEnvelopeSchema.parse({ status: 'success', data }).data;
}

/** The record's `refId` or `recordId` stays, whatever else is removed: one of them is what the page cannot do without. */
const idKept = (fields: Optional[], record: Record<string, unknown>) =>
  fields.some((field) => (field === 'refId' || field === 'recordId') && record[field] !== '');

describe('a record read liberally (issue 30)', () => {
  it('property: removing any subset of the optional fields never fails the record, and every field left is read as sent', () => {
    fc.assert(
      fc.property(validRecord, fc.subarray(OPTIONAL_FIELDS), (full, removed) => {
        const kept = OPTIONAL_FIELDS.filter((field) => !removed.includes(field));
        fc.pre(idKept(kept, full));
        const data: Record<string, unknown> = { status: full.status };
        for (const field of kept) data[field] = full[field];
        const parsed = candidateEnvelopeSchema.safeParse({ status: 'success', data });
        expect(parsed.success).toBe(true);
        const record = parsed.data!.data;
        expect(record).toEqual(data);
        expect(unreadFieldsOf(record)).toEqual([]);
      }),
    );
  });

  it('property: a wrong type in any one optional field costs that field alone, named, and the rest is read', () => {
    const field = fc.constantFrom(...OPTIONAL_FIELDS);
    fc.assert(
      fc.property(
        validRecord,
        field.chain((name) => fc.tuple(fc.constant(name), wrongValueFor(name))),
        (full, [name, wrong]) => {
          // The other id stays readable: a record with no readable id at all is refused (below).
          const data: Record<string, unknown> = { ...full, refId: full.refId || 'r', recordId: full.recordId || 'x', [name]: wrong };
          const parsed = candidateEnvelopeSchema.safeParse({ status: 'success', data });
          expect(parsed.success).toBe(true);
          const record = parsed.data!.data;
          for (const other of OPTIONAL_FIELDS.filter((f) => f !== name)) expect(record[other]).toEqual(data[other]);
          const unread = unreadFieldsOf(record);
          expect(unread.length).toBeGreaterThan(0);
          expect(unread.every((entry) => entry.field === name || entry.field.startsWith(`${name}.`))).toBe(true);
          // A map read entry by entry keeps the entries that were right; any other field is left out whole.
          if (!['customFields', 'identities', 'certs'].includes(name)) expect(Object.hasOwn(record, name)).toBe(false);
        },
      ),
    );
  });

  it('property: a count or a flag written as text is read as the value it spells, and other text in them stays unread', () => {
    fc.assert(
      fc.property(fc.nat({ max: 999_999_999 }), fc.boolean(), fc.string({ maxLength: 12 }), (count, archived, other) => {
        const record = parseData({ status: 'waiting', refId: 'r', submitCount: String(count), isArchived: String(archived) });
        expect(record).toMatchObject({ submitCount: count, isArchived: archived });
        expect(unreadFieldsOf(record)).toEqual([]);
        fc.pre(!/^\d{1,9}$/.test(other) && other !== 'true' && other !== 'false');
        const wrong = parseData({ status: 'waiting', refId: 'r', submitCount: other, isArchived: other });
        expect(Object.hasOwn(wrong, 'submitCount') || Object.hasOwn(wrong, 'isArchived')).toBe(false);
        expect(unreadFieldsOf(wrong).map((entry) => entry.field)).toEqual(['submitCount', 'isArchived']);
      }),
    );
  });

  it('property: what is said of a field that could not be read never holds its value', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 6, maxLength: 40 }).filter((s) => !/^[\w ]+$/.test(s) || s.length > 12),
        (secret) => {
          const record = parseData({ status: 'waiting', refId: 'r', isArchived: secret, submitCount: secret, blockPassID: [secret] });
          expect(JSON.stringify(unreadFieldsOf(record))).not.toContain(secret);
        },
      ),
    );
  });

  it('refuses a record without a status, or with neither a refId nor a recordId it can read, saying which', () => {
    const fails = (data: unknown) => {
      const parsed = candidateEnvelopeSchema.safeParse({ status: 'success', data });
      expect(parsed.success).toBe(false);
      return parsed.error!.issues[0]!;
    };
    expect(fails({ refId: 'r' })).toMatchObject({ path: ['data', 'status'], message: 'The record has no status.' });
    expect(fails({ status: '', refId: 'r' }).message).toBe('The record’s status is empty.');
    expect(fails({ status: 7, refId: 'r' }).message).toBe('The record’s status must be text, not a whole number.');
    // A whole number is an id read as its digits (record-id.ts); a fraction or a negative number is none.
    for (const refId of [12.5, -12, true]) {
      expect(fails({ status: 'waiting', refId, recordId: null }).message).toBe(
        'The record has neither a refId nor a recordId that can be read.',
      );
    }
    expect(fails([1, 2]).message).toBe('The record must be an object, not a list.');
  });

  it('property: a record wrapped in a second envelope (data.data, data.record) is said to be so, never "no refId" or "no status"', () => {
    const wrap = fc.constantFrom(
      (record: unknown) => ['data', { status: 'success', data: record }] as const,
      (record: unknown) => ['data', { data: record }] as const,
      (record: unknown) => ['record', { record }] as const,
    );
    fc.assert(
      fc.property(validRecord, wrap, (full, wrapped) => {
        fc.pre(full.refId !== '' || full.recordId !== '');
        const [at, envelope] = wrapped(full);
        const parsed = candidateEnvelopeSchema.safeParse({ status: 'success', data: envelope });
        expect(parsed.success).toBe(false);
        expect(parsed.error!.issues).toEqual([expect.objectContaining({ path: ['data', at], message: SECOND_ENVELOPE })]);
      }),
    );
    // A record with an id of its own is that record, whatever its `data` field holds.
    expect(parseData({ status: 'waiting', refId: 'r', data: { status: 'x', refId: 'y' } }).refId).toBe('r');
  });

  it('reads an unknown status as sent, and keeps fields it does not know', () => {
    const record = parseData({ status: 'on_hold', recordId: 'x', futureField: { a: 1 } });
    expect(record).toEqual({ status: 'on_hold', recordId: 'x', futureField: { a: 1 } });
  });

  it('keeps a field named __proto__ as a field, never as the record’s prototype', () => {
    const data = JSON.parse('{"status":"waiting","refId":"r","__proto__":{"isArchived":true}}');
    const record = parseData(data);
    expect(record.isArchived).toBeUndefined();
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  it('a status-level answer names the status-level fields that could not be read, and the page reads them back', () => {
    const record = parseData({ status: 'waiting', refId: 'r', isArchived: 'no', identities: 5, waitingDate: 'yesterday' });
    const body = JSON.parse(statusLevelEnvelope(record));
    expect(body.data).toEqual({ status: 'waiting', refId: 'r' });
    expect(body.unread.map((entry: { field: string }) => entry.field).sort()).toEqual(['isArchived', 'waitingDate']);
    const again = candidateEnvelopeSchema.parse(body).data;
    expect(unreadFieldsOf(again)).toEqual(body.unread);
  });

  it('reads an address or phone sent as an object (text holding it is documented) as its JSON, and says it came so', () => {
    const address = { address: '1 Rd', city: 'Berlin', country: 'DEU', county: 'Mitte' };
    const phone = { countryCode: 'DEU', phoneNumber: '+4930123456' };
    const record = parseData({
      status: 'waiting',
      refId: 'r',
      identities: {
        address: { type: 'string', value: address },
        phone: { type: 'string', value: phone },
        email: { type: 'string', value: 'a@b.c' },
        // Only the attributes documented as JSON are read so: a name given as an object is kept beside them, as its JSON.
        given_name: { type: 'string', value: { first: 'Ada' } },
      },
    });
    expect(record.identities?.address).toEqual({ type: 'string', value: JSON.stringify(address) });
    expect(record.identities?.phone).toEqual({ type: 'string', value: JSON.stringify(phone) });
    expect(wasSentAsObject(record.identities?.address)).toBe(true);
    expect(wasSentAsObject(record.identities?.phone)).toBe(true);
    expect(wasSentAsObject(record.identities?.email)).toBe(false);
    expect(record.identities?.given_name).toBeUndefined();
    expect(structuredFieldsOf(record.identities)).toEqual([
      { name: 'given_name', json: '{"first":"Ada"}', kind: 'an object', type: 'string' },
    ]);
    expect(unreadFieldsOf(record)).toEqual([]);
  });

  it('keeps a custom field holding an object or a list beside the others, as compact JSON, never among the text values', () => {
    const record = parseData({
      status: 'waiting',
      refId: 'r',
      customFields: { n: 5, b: true, obj: { a: 1 }, arr: [1, 2], nul: null, text: 'x' },
    });
    expect(record.customFields).toEqual({ n: 5, b: true, nul: null, text: 'x' });
    expect(structuredFieldsOf(record.customFields)).toEqual([
      { name: 'obj', json: '{"a":1}', kind: 'an object' },
      { name: 'arr', json: '[1,2]', kind: 'a list' },
    ]);
    expect(unreadFieldsOf(record)).toEqual([]);
  });

  it('keeps an identity attribute holding an object or a list beside the others, by the custom fields’ rule, and names the rest unread', () => {
    const record = parseData({
      status: 'waiting',
      refId: 'r',
      identities: {
        email: { type: 'string', value: 'a@b.c' },
        given_name: { value: { first: 'Ada', middle: ['Augusta'] } },
        family_name: ['Lovelace', 'King'],
        tax_id: { id: 'X1', country: 'GBR' },
        nationality: { type: 'string', value: ['GBR', 'IRL'] },
        // A number where text was due: shown as its digits, never read as a date (scalarField).
        dob: { type: 'string', value: 19151210 },
        // No value, or a type that is no text: still named, never shown.
        selfie: { type: 'base64' },
        passport: { type: 7, value: { a: 1 } },
      },
    });
    expect(record.identities).toEqual({ email: { type: 'string', value: 'a@b.c' } });
    expect(structuredFieldsOf(record.identities)).toEqual([
      { name: 'given_name', json: '{"first":"Ada","middle":["Augusta"]}', kind: 'an object' },
      { name: 'family_name', json: '["Lovelace","King"]', kind: 'a list' },
      { name: 'tax_id', json: '{"id":"X1","country":"GBR"}', kind: 'an object' },
      { name: 'nationality', json: '["GBR","IRL"]', kind: 'a list', type: 'string' },
      { name: 'dob', json: '19151210', kind: 'a number', type: 'string' },
    ]);
    expect(unreadFieldsOf(record).map((entry) => entry.field)).toEqual(['identities.selfie', 'identities.passport']);
  });

  it('property: the JSON kept of an object or a list is what JSON.stringify writes, for any value of a sane size', () => {
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue())), (value) => {
        const json = JSON.stringify(value);
        fc.pre(json.length <= MAX_STRUCTURED_JSON);
        const kept = structuredField('f', value)!;
        // But a number JavaScript would write in an exponent ("1e+21") is written in its digits (numberText),
        // said to be rounded when past 2^53: the same values, read back.
        expect(JSON.parse(kept.json)).toEqual(JSON.parse(json));
        if (!/\d[eE]/.test(json)) expect(kept.json).toBe(json);
      }),
    );
  });

  it('writes a number of an object or a list in its digits, never "1e+21", and says when they may not be those sent', () => {
    expect(structuredField('f', { limit: 1e21, tiers: [7, 0.5] })).toEqual({
      name: 'f',
      json: '{"limit":1000000000000000000000,"tiers":[7,0.5]}',
      kind: 'an object',
      rounded: true,
    });
    expect(structuredField('f', [7, 0.5])).toEqual({ name: 'f', json: '[7,0.5]', kind: 'a list' });
    // Past 2^53 without an exponent: as JSON.stringify writes it, the shortest text read back as the number
    // (the property above found the double's own digits, 64838936131603208, written instead), still said rounded.
    expect(structuredField('f', { id: 64838936131603210 })).toEqual({
      name: 'f',
      json: '{"id":64838936131603210}',
      kind: 'an object',
      rounded: true,
    });
  });
});

describe('an identity attribute whose value is a number, true or false, or null', () => {
  const read = (value: unknown) =>
    structuredFieldsOf(parseData({ status: 'waiting', refId: 'r', identities: { dob: { type: 'string', value } } }).identities);

  it('property: any finite number is kept as its digits, which read back as the number; a whole one in digits alone', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.maxSafeInteger()), (value) => {
        const [field] = read(value);
        expect(field).toMatchObject({ name: 'dob', kind: 'a number', type: 'string' });
        expect(Number(field!.json)).toBe(value === 0 ? 0 : value);
        if (Number.isInteger(value)) expect(field!.json).toMatch(/^-?\d+$/);
        if (Number.isSafeInteger(value)) expect(field).toEqual({ name: 'dob', json: String(value), kind: 'a number', type: 'string' });
      }),
      { numRuns: 500 },
    );
  });

  it('says when a number was read rounded: past 2^53, or past 15 significant digits', () => {
    expect(read(Number('12345678901234567890'))[0]).toMatchObject({ json: '12345678901234567168', rounded: true });
    expect(read(1e21)[0]).toMatchObject({ json: '1000000000000000000000', rounded: true });
    expect(read(0.30000000000000004)[0]).toMatchObject({ json: '0.30000000000000004', rounded: true });
    expect(read(2 ** 53 - 1)[0]!.rounded).toBeUndefined();
    expect(read(-19.5)[0]).toEqual({ name: 'dob', json: '-19.5', kind: 'a number', type: 'string' });
  });

  it('names true, false and null plainly', () => {
    expect(read(true)[0]).toEqual({ name: 'dob', json: 'true', kind: 'true or false', type: 'string' });
    expect(read(false)[0]!.json).toBe('false');
    expect(read(null)[0]).toEqual({ name: 'dob', json: 'null', kind: 'null', type: 'string' });
  });
});

describe('attack: hostile object values in an identity attribute or a custom field', () => {
  it('attack: a 1 MB object is kept as its first 10,000 characters, cut with …, in a custom field and an attribute alike', () => {
    const huge = { notes: 'x'.repeat(1_000_000), after: 1 };
    const record = parseData({
      status: 'waiting',
      refId: 'r',
      customFields: { risk: huge },
      identities: { given_name: { type: 'string', value: huge } },
    });
    for (const field of [...structuredFieldsOf(record.customFields), ...structuredFieldsOf(record.identities)]) {
      expect(field.json.length).toBe(MAX_STRUCTURED_JSON + 1);
      expect(field.json.startsWith('{"notes":"xxx')).toBe(true);
      expect(field.json.endsWith('x…')).toBe(true);
    }
  });

  it('attack: nesting ten thousand levels deep (JSON.stringify overflows the stack) is written to 32 levels, then …', () => {
    const deep = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const record = parseData({
      status: 'waiting',
      refId: 'r',
      customFields: { deep },
      identities: { tax_id: { type: 'string', value: deep } },
    });
    const json = `${'['.repeat(MAX_STRUCTURED_DEPTH)}…${']'.repeat(MAX_STRUCTURED_DEPTH)}`;
    expect(structuredFieldsOf(record.customFields)).toEqual([{ name: 'deep', json, kind: 'a list' }]);
    expect(structuredFieldsOf(record.identities)).toEqual([{ name: 'tax_id', json, kind: 'a list', type: 'string' }]);
  });

  it('attack: __proto__ keys are written as the keys they are, and touch no prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"polluted":true},"given_name":{"__proto__":{"type":"string","value":"Eve"}}}');
    const record = parseData({ status: 'waiting', refId: 'r', identities: hostile });
    expect(structuredFieldsOf(record.identities)).toEqual([
      { name: '__proto__', json: '{"polluted":true}', kind: 'an object' },
      { name: 'given_name', json: '{"__proto__":{"type":"string","value":"Eve"}}', kind: 'an object' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(record.identities?.given_name).toBeUndefined();
  });
});

describe('identity attributes in near-contract forms', () => {
  const base = { status: 'inreview', refId: 'r-1' };

  it('reads a bare string and {value} without a type as string attributes, marked sent without a type', () => {
    const reading = readCandidateRecord({ ...base, identities: { given_name: 'Ana', family_name: { value: 'Silva' } } });
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.unread).toEqual([]);
    expect(reading.record.identities).toEqual({
      given_name: { type: 'string', value: 'Ana' },
      family_name: { type: 'string', value: 'Silva' },
    });
    expect(wasSentWithoutType(reading.record.identities!.given_name)).toBe(true);
    expect(wasSentWithoutType(reading.record.identities!.family_name)).toBe(true);
    expect(candidatePersonName(reading.record)?.full).toBe('Ana Silva');
  });

  it('reads identities sent as text holding the map’s JSON as that map; text holding no object stays unread', () => {
    const identities = { given_name: { type: 'string', value: 'Ana' } };
    const reading = readCandidateRecord({ ...base, identities: JSON.stringify(identities) });
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.record.identities).toEqual(identities);
    expect(reading.unread).toEqual([]);
    for (const text of ['{"given_name":', '["Ana"]', 'Ana']) {
      const other = readCandidateRecord({ ...base, identities: text });
      if (!other.ok) throw new Error(other.message);
      expect(other.unread).toEqual([{ field: 'identities', expected: 'an object', found: 'text' }]);
    }
  });

  it('property: every attribute of any identities map (as an object or as its JSON text) is shown or named unread, none vanishes', () => {
    const attribute = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({ type: fc.jsonValue({ maxDepth: 1 }), value: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
      fc.string(),
    );
    const names = fc.stringMatching(/^[a-z_]{1,16}$/);
    fc.assert(
      fc.property(fc.dictionary(names, attribute, { maxKeys: 6 }), fc.boolean(), (identities, asText) => {
        const reading = readCandidateRecord({ ...base, identities: asText ? JSON.stringify(identities) : identities });
        if (!reading.ok) throw new Error(reading.message);
        const read = reading.record.identities ?? {};
        const aside = structuredFieldsOf(read).map((field) => field.name);
        const unread = reading.unread.map((entry) => entry.field);
        for (const [name, value] of Object.entries(identities)) {
          if (value === null) continue; // null: not given, as absent
          const shown = Object.hasOwn(read, name) || aside.includes(name);
          expect(shown || unread.includes(`identities.${name}`), name).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('customFields and certs sent as JSON text, as identities may be', () => {
  const base = { status: 'inreview', refId: 'r-1' };
  const cert = JSON.stringify({ Claim: { reviewBody: { result: 'clear' } } });

  it('reads customFields and certs sent as text holding the map’s JSON as those maps (they were refused as text while identities in that form was read)', () => {
    const customFields = { riskLevel: 'low', score: 3, tags: ['pep'] };
    const certs = { 'onfido-service-cert': cert, 'complyadvantage-service-cert': { Claim: { reviewBody: { result: 'no_match' } } } };
    const reading = readCandidateRecord({ ...base, customFields: JSON.stringify(customFields), certs: JSON.stringify(certs) });
    if (!reading.ok) throw new Error(reading.message);
    expect(reading.unread).toEqual([]);
    // Each entry read as in the object: a list kept beside the text values, a certificate given as its document read as its text.
    expect(reading.record.customFields).toEqual({ riskLevel: 'low', score: 3 });
    expect(structuredFieldsOf(reading.record.customFields).map((field) => [field.name, field.json])).toEqual([['tags', '["pep"]']]);
    expect(reading.record.certs).toEqual({
      'onfido-service-cert': cert,
      'complyadvantage-service-cert': JSON.stringify(certs['complyadvantage-service-cert']),
    });
  });

  it('names customFields and certs sent as text holding no JSON object unread, by the kind found, and reads the rest of the record', () => {
    for (const text of ['{"riskLevel":', '{"a":1,,}', '["low"]', 'low', '', '"{}"']) {
      const reading = readCandidateRecord({ ...base, customFields: text, certs: text });
      if (!reading.ok) throw new Error(reading.message);
      expect(reading.record).toEqual({ status: 'inreview', refId: 'r-1' });
      expect(reading.unread).toEqual([
        { field: 'customFields', expected: 'an object', found: 'text' },
        { field: 'certs', expected: 'an object', found: 'text' },
      ]);
    }
  });

  it('property: any customFields or certs map reads the same from its JSON text as from the object', () => {
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string());
    const names = fc.stringMatching(/^[a-z_-]{1,16}$/);
    fc.assert(
      fc.property(fc.dictionary(names, value, { maxKeys: 6 }), fc.constantFrom('customFields', 'certs'), (map, field) => {
        const asObject = readCandidateRecord({ ...base, [field]: map });
        const asText = readCandidateRecord({ ...base, [field]: JSON.stringify(map) });
        if (!asObject.ok || !asText.ok) throw new Error('refused');
        expect(asText.record).toEqual(asObject.record);
        expect(asText.unread).toEqual(asObject.unread);
        const read = asText.record[field] as object;
        expect(structuredFieldsOf(read)).toEqual(structuredFieldsOf(asObject.record[field] as object));
      }),
      { numRuns: 300 },
    );
  });
});
