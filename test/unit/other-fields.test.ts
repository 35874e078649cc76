import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateRecordSchema, unreadFieldsOf } from '../../src/kyc/contract/schema.ts';
import { leftOutWords, MAX_OTHER_FIELDS, otherFieldsOf } from '../../src/kyc/view/other-fields.ts';
import { readBySection } from '../support/read-by-sections.ts';

const base = { status: 'inreview', refId: 'ref-1', recordId: 'rec-1', isArchived: false, inreviewDate: '2026-01-02T10:00:00.000Z' };
const extraKey = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom(
    'kycLevel',
    'reviewer',
    'rejectReason',
    '_id',
    '__proto__',
    'constructor',
    'serviceID',
    'blockPassID',
    'fooDate',
    'status',
  ),
);

describe('other fields in this response (other-fields.ts)', () => {
  it('every top-level key of a record is read by a known section or listed in the card, with its value as sent', () => {
    fc.assert(
      fc.property(fc.dictionary(extraKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 8 }), (extra) => {
        const input = { ...base, ...extra };
        const parsed = candidateRecordSchema.safeParse(JSON.parse(JSON.stringify(input)));
        if (!parsed.success) return; // a status or the ids taken away: no page to show
        const record = parsed.data;
        const { fields, more } = otherFieldsOf(record);
        expect(more).toBe(0);
        const listed = new Map(fields.map((field) => [field.name, field]));
        for (const key of Object.keys(JSON.parse(JSON.stringify(input)))) {
          const unread = unreadFieldsOf(record).some((entry) => entry.field === key);
          if (readBySection(key)) {
            expect(listed.has(key)).toBe(false);
            continue;
          }
          expect(unread).toBe(false);
          const field = listed.get(key);
          expect(field, key).toBeDefined();
          const value = (record as Record<string, unknown>)[key];
          if (field!.otherCandidate) continue; // an object naming another candidate: its own property below
          if (typeof value === 'string') expect(field!.text).toBe(value);
          else expect(JSON.parse(field!.json!.json)).toEqual(value);
        }
        // Nothing listed that the record does not hold.
        for (const name of listed.keys()) expect(Object.hasOwn(record, name)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('attack: no top-level object naming another candidate by its refId or recordId is ever shown, whatever it holds (property)', () => {
    const id = fc.oneof(fc.constantFrom('ref-1', 'REF-1', ' ref-1 ', 'rec-1', '', '  ', null), fc.string({ maxLength: 8 }), fc.integer());
    const nested = fc.record(
      { refId: id, recordId: id, status: fc.string({ maxLength: 6 }), secret: fc.constant('SECRET-OF-ANOTHER') },
      { requiredKeys: ['secret'] },
    );
    fc.assert(
      fc.property(fc.constantFrom('record', 'data', 'linked', 'x'), nested, fc.boolean(), (name, inner, ownRefId) => {
        const input = { ...base, ...(ownRefId ? {} : { refId: undefined }), [name]: inner };
        const parsed = candidateRecordSchema.safeParse(JSON.parse(JSON.stringify(input)));
        if (!parsed.success) return; // refused whole (a record with no id, one wrapped one level down): no page
        const field = otherFieldsOf(parsed.data).fields.find((entry) => entry.name === name)!;
        const own = (kind: 'refId' | 'recordId') => (kind === 'refId' && !ownRefId ? '' : base[kind]);
        const names = (kind: 'refId' | 'recordId') => {
          const given = (inner as Record<string, unknown>)[kind];
          if (given === undefined || given === null) return false;
          if (typeof given === 'number') return String(given) !== own(kind).trim().toLowerCase();
          const text = String(given).trim();
          return text !== '' && text.toLowerCase() !== own(kind).toLowerCase();
        };
        const another = names('refId') || names('recordId');
        expect(field.otherCandidate === true, JSON.stringify(inner)).toBe(another);
        if (another) expect(JSON.stringify(field)).not.toContain('SECRET-OF-ANOTHER');
        else expect(field.json?.json).toContain('SECRET-OF-ANOTHER');
        expect(leftOutWords(name)).toBe(`a nested record of another candidate was left out (at data.${name})`);
      }),
      { numRuns: 500 },
    );
  });

  it('bounds a hostile record: at most MAX_OTHER_FIELDS listed, the rest counted', () => {
    const extra = Object.fromEntries(Array.from({ length: MAX_OTHER_FIELDS + 7 }, (_, index) => [`x${index}`, index]));
    const { fields, more } = otherFieldsOf(candidateRecordSchema.parse({ ...base, ...extra }));
    expect(fields).toHaveLength(MAX_OTHER_FIELDS);
    expect(more).toBe(7);
  });
});
