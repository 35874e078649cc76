import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RECENT, readStoredLookups } from '../../src/app/recent/recent-lookups.ts';
import { LOOKUP_KINDS } from '../../src/kyc/contract/lookup.ts';
import { z } from '../../src/kyc/contract/zod.ts';

/** The schema the list was read with while zod was part of the first load: the hand check must agree with it. */
const storedSchema = z.array(
  z.object({
    kind: z.enum(LOOKUP_KINDS),
    id: z.string().check(z.maxLength(512)),
    status: z.string().check(z.maxLength(64)),
    environment: z.string().check(z.maxLength(64)),
    at: z.string().check(z.maxLength(40)),
  }),
);

function bySchema(text: string): unknown {
  try {
    const parsed = storedSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.slice(0, MAX_RECENT) : [];
  } catch {
    return [];
  }
}

const LIMITS = { id: 512, status: 64, environment: 64, at: 40 } as const;
type Field = 'kind' | keyof typeof LIMITS;

/** Strings up to a limit and at it: one past it is `doubtful`'s. */
const upTo = (max: number) => fc.oneof(fc.string({ maxLength: 3 }), fc.string({ minLength: max, maxLength: max }));

/** As the app writes it, sometimes with a field more (which the reading drops). */
const written = fc.record(
  {
    kind: fc.constantFrom(...LOOKUP_KINDS),
    id: upTo(LIMITS.id),
    status: upTo(LIMITS.status),
    environment: upTo(LIMITS.environment),
    at: upTo(LIMITS.at),
    extra: fc.jsonValue(),
  },
  { requiredKeys: ['kind', 'id', 'status', 'environment', 'at'] },
);

/** Written by something else: one field missing, of another type, or one past its limit. */
const doubtful = fc
  .tuple(written, fc.constantFrom<Field>('kind', 'id', 'status', 'environment', 'at'), fc.constantFrom('missing', 'long', 'number'))
  .map(([entry, field, how]) => {
    const copy: Record<string, unknown> = { ...entry };
    if (how === 'missing') delete copy[field];
    else if (how === 'number') copy[field] = 7;
    else copy[field] = field === 'kind' ? 'name' : 'x'.repeat(LIMITS[field] + 1);
    return copy;
  });

describe('the recent lookups read back from sessionStorage (property-based)', () => {
  it('keeps exactly what the zod schema kept, field for field, and nothing for anything else', () => {
    const item = fc.oneof({ arbitrary: written, weight: 12 }, { arbitrary: doubtful, weight: 1 }, { arbitrary: fc.jsonValue(), weight: 1 });
    const stored = fc.oneof(
      { arbitrary: fc.array(item, { maxLength: MAX_RECENT + 5 }), weight: 4 },
      { arbitrary: fc.jsonValue(), weight: 1 },
    );
    fc.assert(
      fc.property(stored, (value) => {
        const json = JSON.stringify(value) ?? 'null';
        expect(readStoredLookups(json)).toEqual(bySchema(json));
      }),
      { numRuns: 500 },
    );
  });

  it('reads nothing from what is not JSON, or from nothing stored', () => {
    expect(readStoredLookups('{not json')).toEqual([]);
    expect(readStoredLookups(null)).toEqual([]);
  });
});
