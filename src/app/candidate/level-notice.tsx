import type { Role } from '../../kyc/contract/api.ts';
import { type CandidateRecord, isStatusLevel, isStatusLevelField, type UnreadField } from '../../kyc/contract/schema.ts';
import type { RestState } from '../api/pending-record.ts';
import { Notice } from '../ui/section.tsx';
import { AbsentSection, identityDataOf } from './absent-sections.tsx';
import { RestOfRecord } from './rest-of-record.tsx';

/** How much of the record the page shows, and whether it says so once (above) or section by section. */
export interface RecordLevel {
  /** A support user's answer is the status level, with the environment's support fields at most (never in parts). */
  support: boolean;
  pending: RestState | undefined;
  statusOnly: boolean;
  archived: boolean;
  /** A full record's missing sections are each named in their place, unless one sentence above says why they all are. */
  named: boolean;
}

export function recordLevel(
  record: CandidateRecord,
  role: Role | undefined,
  pending: RestState | undefined,
  unread: readonly UnreadField[],
) {
  const support = role === 'support';
  // A record whose identity data or certificates could not be read is not a status-level one: the notice below names them.
  const statusOnly = support || (isStatusLevel(record) && !pending && unread.every((entry) => isStatusLevelField(entry.field)));
  // Archived, the record has no identity data whatever the key: that, not the key, is what the page says (a compliance user's).
  // An empty map (`identities: {}`) holds no identity data: archived all the same.
  const archived = !support && !pending && record.isArchived === true && !identityDataOf(record, unread);
  const named = !support && !pending && (archived || !statusOnly);
  return { support, pending, statusOnly, archived, named } satisfies RecordLevel;
}

/**
 * The one sentence above the sections on what the record holds: archived, status level (and why, as far as
 * it is known), the rest on its way, or no identity data in a record that has other sections.
 */
export function LevelNotice({
  record,
  level,
  supportFields,
  unread,
}: {
  record: CandidateRecord;
  level: RecordLevel;
  supportFields: readonly string[] | undefined;
  unread: readonly UnreadField[];
}) {
  if (level.archived) {
    return (
      <Notice>Identity data was archived on the service. The status history {record.certs ? 'and certificates remain' : 'remains'}.</Notice>
    );
  }
  if (level.statusOnly) {
    return (
      <Notice>
        {/*
          A compliance user's answer is the full key's, whose scope the server does not know (a key has one of
          three scopes, upstream-api-facts.md, and nothing in the configuration says which): an answer without
          any of these says what it lacks, not why. A support user's is reduced by the server: that is a fact.
        */}
        {!level.support
          ? 'This answer has no identity data, custom fields or certificates: the API key may be status-only, or the candidate has none.'
          : supportFields?.length
            ? "Support users see status only, and the service's notes above: identity data, other custom fields and certificates are not included."
            : 'Support users see status only: identity data, custom fields and certificates are not included.'}
      </Notice>
    );
  }
  if (level.pending) return <RestOfRecord state={level.pending} />;
  if (level.named && !identityDataOf(record, unread)) return <AbsentSection field="identities" unread={unread} />;
  return null;
}
