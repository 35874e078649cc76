import { z } from './zod.ts';

/**
 * The upstream contract (KYC Connect single-candidate lookups), shared by the viewer that parses
 * responses and the sandbox that produces them, so the two cannot drift apart.
 */

/** A `...Date` field: ISO 8601 timestamp. The service sends UTC with milliseconds; offsets are tolerated. */
export const isoTimestampSchema = z.iso.datetime({ offset: true });

export const identityAttributeSchema = z.object({
  type: z.string(),
  value: z.string(),
});
export type IdentityAttribute = z.infer<typeof identityAttributeSchema>;

const customFieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const DATE_FIELD = /Date$/;

export const candidateRecordSchema = z
  .looseObject({
    status: z.string().check(z.minLength(1, 'the status is empty')),
    refId: z.nullish(z.string()),
    recordId: z.nullish(z.string()),
    isArchived: z.boolean(),
    blockPassID: z.string(),
    submitCount: z.optional(z.int().check(z.nonnegative())),
    willArchiveAtDate: z.optional(isoTimestampSchema),
    customFields: z.optional(z.record(z.string(), customFieldValueSchema)),
    identities: z.optional(z.record(z.string(), identityAttributeSchema)),
    certs: z.optional(z.record(z.string(), z.string())),
  })
  .check(
    z.superRefine((record, ctx) => {
      // Status dates are open-ended (`waitingDate`, `rejectedDate`, ...): every one must be a timestamp.
      for (const [key, value] of Object.entries(record)) {
        if (!DATE_FIELD.test(key)) continue;
        if (typeof value !== 'string' || !isoTimestampSchema.safeParse(value).success) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `${key} must be an ISO 8601 timestamp, got ${describeValue(value)}`,
            input: value,
          });
        }
      }
    }),
  );
export type CandidateRecord = z.infer<typeof candidateRecordSchema>;

export const candidateEnvelopeSchema = z.object({
  status: z.literal('success'),
  data: candidateRecordSchema,
});

/** The error body the real service is expected to send, and the sandbox sends. */
export const upstreamErrorSchema = z.object({
  status: z.literal('error'),
  code: z.int(),
  message: z.string(),
});
export type UpstreamError = z.infer<typeof upstreamErrorSchema>;

/** Fields that only a key created with "Include Identity attributes" receives. */
export const FULL_LEVEL_FIELDS = ['customFields', 'identities', 'certs'] as const;

export function isStatusLevel(record: CandidateRecord): boolean {
  return FULL_LEVEL_FIELDS.every((field) => record[field] === undefined);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  return typeof value;
}
