/** The prefix of every query key of the queue (applicants-queries.ts): here alone, for what reaches the queries without their schemas. */
export const APPLICANTS_KEY = ['applicants'] as const;
