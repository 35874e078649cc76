import type { CandidateRecord } from './schema.ts';

/**
 * The candidate's name when the record has it ("given family", either part alone when only one is
 * there), else undefined. The page header, the sandbox's sample list and its SANDBOX_DATA summaries
 * all name candidates this way.
 */
export function candidateName(record: CandidateRecord): string | undefined {
  const given = record.identities?.given_name?.type === 'string' ? record.identities.given_name.value.trim() : '';
  const family = record.identities?.family_name?.type === 'string' ? record.identities.family_name.value.trim() : '';
  const name = [given, family].filter(Boolean).join(' ');
  return name || undefined;
}
