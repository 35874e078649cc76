/**
 * Who may see what, without zod: the app's first load (the home page, the header) reads roles too, and
 * carries no schema (api-paths.ts says why).
 * - `support`: status level only;
 * - `compliance`: the full record;
 * - `lead`: a compliance user who may also read the audit trail (the audit page, issue 34).
 */
export const ROLES = ['support', 'compliance', 'lead'] as const;
export type Role = (typeof ROLES)[number];

/** Compliance users and leads read the full record; support users the status level. */
export function readsFullRecord(role: Role | undefined): boolean {
  return role === 'compliance' || role === 'lead';
}

/** The audit page: leads only. */
export function readsAuditTrail(role: Role | undefined): boolean {
  return role === 'lead';
}

/** Who sees a candidate's Activity (who looked them up): whoever reads the full record; never support users. */
export const seesActivity = readsFullRecord;

/**
 * Who sees certificate outcomes outside the candidate page (the queue's and the batch's triage: the
 * outcome word, pictures, the attention filter): whoever reads the full record, so compliance users and
 * leads alike; never support users. One rule for the queue, the batch and their pages.
 */
export const seesCertificateOutcomes = readsFullRecord;
