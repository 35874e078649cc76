import { z } from './zod.ts';

/**
 * What a compliance user's full answer held, as its request's closing line records it (`held`): counts,
 * and the names of the picture attributes (the service's names, `passport`, never a value), read from
 * the answer's one scan while it was passed on. A lead answers "did ana see the passport picture?" from it.
 * The audit page and a candidate's Activity show it on the lookup's own row (one row per lookup).
 */

/** Most picture names a line records, and the longest name kept (a record someone else shaped may hold more). */
export const MAX_HELD_NAMES = 16;
export const MAX_HELD_NAME = 64;

const count = z.int().check(z.minimum(0));

export const auditHeldSchema = z.object({
  /** The identity attributes (`data.identities`' members), pictures among them. */
  identities: count,
  /** The pictures (type `base64`, or another type whose value sniffs as one, as the page shows them): how many, and the first MAX_HELD_NAMES names. */
  pictures: count,
  pictureNames: z.array(z.string()),
  /** The certificates (`data.certs`' members). */
  certificates: count,
  /** The record said it was archived (`isArchived: true`): its identity data removed by the service. */
  archived: z.optional(z.literal(true)),
  /** `data.identities` was sent as text (JSON text the page may read): its attributes were not counted. */
  identitiesAsText: z.optional(z.literal(true)),
  /** `data.certs` was sent as text (JSON text the page reads): its certificates were not counted. */
  certificatesAsText: z.optional(z.literal(true)),
});
export type AuditHeld = z.infer<typeof auditHeldSchema>;

/**
 * An audit row's, on a full lookup's row only: what its request's closing line says it held (`held`), or
 * that the request's answer was cut short instead (`heldCut`: what it held is not known).
 */
export const HELD_ROW_FIELDS = { held: z.optional(auditHeldSchema), heldCut: z.optional(z.literal(true)) };

/** A line's `held`, read liberally: anything else (a line of another version, or none) is not recorded. */
export function heldOf(value: unknown): AuditHeld | undefined {
  const read = auditHeldSchema.safeParse(value);
  if (!read.success) return undefined;
  const names = read.data.pictureNames.slice(0, MAX_HELD_NAMES).map((name) => name.slice(0, MAX_HELD_NAME));
  return { ...read.data, pictureNames: names };
}

const counted = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * "held: 5 identity attributes, 2 pictures (passport, selfie), 1 certificate"; "archived: no identity
 * data, 2 certificates"; pictures named only as far as the line names them ("3 pictures (passport, …)");
 * identities sent as text: "held: identity data sent as text, not counted, no certificates", never "no identity data";
 * certificates sent as text: "…, certificates sent as text, not counted", never "no certificates".
 */
export function heldWords(held: AuditHeld): string {
  const certificates = held.certificatesAsText
    ? 'certificates sent as text, not counted'
    : held.certificates === 0
      ? 'no certificates'
      : counted(held.certificates, 'certificate', 'certificates');
  if (held.identitiesAsText) return `${held.archived ? 'archived' : 'held'}: identity data sent as text, not counted, ${certificates}`;
  if (held.identities === 0) return `${held.archived ? 'archived' : 'held'}: no identity data, ${certificates}`;
  const more = held.pictures > held.pictureNames.length ? ', …' : '';
  const names = held.pictureNames.length > 0 ? ` (${held.pictureNames.join(', ')}${more})` : '';
  const pictures = held.pictures === 0 ? 'no pictures' : `${counted(held.pictures, 'picture', 'pictures')}${names}`;
  return `held: ${counted(held.identities, 'identity attribute', 'identity attributes')}, ${pictures}, ${certificates}`;
}

/** A full lookup's row, as far as what it held goes. */
export type HeldRow = { held?: AuditHeld; heldCut?: true };

/**
 * What a full-key lookup's row says it held (the audit page's level, the Activity's, the CSV's `held`):
 * its closing line's counts; for an answer cut short, that what it held is not known; for a line of
 * before this was recorded (or whose closing line is missing), that it was not recorded: never a claim of pictures.
 */
export function heldText(row: HeldRow): string {
  if (row.held) return heldWords(row.held);
  return row.heldCut ? 'cut short: what it held is not known' : 'what it held was not recorded';
}
