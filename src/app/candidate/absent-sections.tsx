import type { CandidateRecord, UnreadField } from '../../kyc/contract/schema.ts';
import { type StructuredField, structuredFieldsOf } from '../../kyc/contract/other-forms.ts';
import type { CustomFieldValue } from '../../kyc/view/summary-fields.ts';
import { Card } from '../ui/card.tsx';
import { Notice } from '../ui/section.tsx';
import { CustomFields } from './custom-fields.tsx';

/**
 * What the page says where a section of a full record is missing. Only the status and an id can be relied
 * on in the service's answers (upstream-api-facts.md), so a missing section is said as what is known: not in
 * this response, for one reason or another; and a section that was sent but could not be read is said to
 * be that, never "not provided", as the notice above the record names it.
 */

/** The sections a full record may lack, in the page's words. */
const SECTIONS = {
  identities: { words: 'identity data', it: 'it', label: 'Identity data' },
  customFields: { words: 'custom fields', it: 'them', label: 'Custom fields' },
  certs: { words: 'certificates', it: 'them', label: 'Certificates' },
} as const;

type SectionField = keyof typeof SECTIONS;

/** The words of a field the notice above names as sent but not readable. */
export const SENT_UNREAD = 'sent, but could not be read (see above)';

/**
 * The words of a value the service sent as empty text (`""`, or spaces alone): it is in the response, so
 * never "not in this response", which would point at the key's scope (the service does send empty text,
 * an address's `state: ""` among them).
 */
export const SENT_EMPTY = 'sent empty';

/**
 * What an archived record (`isArchived: true`) that came with some identity data says of an attribute it
 * lacks: the archive takes identity data whole, so with some of it on the page the archive is not said to
 * be why (the key or the candidate may be), only that the record is marked so. "Archived on the service"
 * is said once, above the record, of identity data that did not come at all (level-notice.tsx).
 */
export const MARKED_ARCHIVED = 'the record is marked archived';

/**
 * The identity data the page shows: none for a map without an attribute (`identities: {}`, as an archived
 * record may come), which holds no identity data whatever it says; unless the answer held attributes that
 * could not be read, whose rows say so.
 */
export function identityDataOf(record: CandidateRecord, unread: readonly UnreadField[]): CandidateRecord['identities'] {
  const identities = record.identities;
  // Attributes sent as an object or a list are kept beside the map (other-forms.ts), not in it: they are identity data too.
  const held = identities && (Object.keys(identities).length > 0 || structuredFieldsOf(identities).length > 0);
  return identities && (held || sentUnread(unread, 'identities')) ? identities : undefined;
}

/** The answer held this field (`identities.email`), and it could not be read (unread-fields.tsx names it). */
export function isUnread(unread: readonly UnreadField[], field: string): boolean {
  return unread.some((entry) => entry.field === field);
}

/**
 * The answer held the section, or entries of it, that could not be read. Only for a section: an attribute
 * is matched whole (isUnread), or one named `email.x` would pass for the e-mail.
 */
export function sentUnread(unread: readonly UnreadField[], field: SectionField): boolean {
  return unread.some((entry) => entry.field === field || entry.field.startsWith(`${field}.`));
}

/**
 * The section has something to show: present, and not an empty map whose every entry could not be read
 * (that one would say "No certificates." of certificates that were sent).
 */
export function sectionShown(record: CandidateRecord, field: SectionField, unread: readonly UnreadField[]): boolean {
  const value = record[field];
  return value !== undefined && (Object.keys(value).length > 0 || !sentUnread(unread, field));
}

/** One line in the place of a section the record does not show: why, as far as it is known. */
export function AbsentSection({ field, unread }: { field: SectionField; unread: readonly UnreadField[] }) {
  const { words, it, label } = SECTIONS[field];
  return (
    <div data-testid="absent-section" data-section={field}>
      <Notice>
        {sentUnread(unread, field)
          ? `${label}: ${SENT_UNREAD}.`
          : `No ${words} in this response: the candidate has none, or the API key excludes ${it}.`}
      </Notice>
    </div>
  );
}

/**
 * The custom fields the decision summary does not show (none there: "No custom fields."), or in a full
 * record without them, the line that says so.
 */
export function CustomFieldsPlace({
  record,
  fields,
  structured,
  named,
  unread,
}: {
  record: CandidateRecord;
  fields: ReadonlyArray<readonly [string, CustomFieldValue]>;
  /** Custom fields that came as an object or a list (other-forms.ts): shown with the others, as JSON marked "not text". */
  structured: readonly StructuredField[];
  named: boolean;
  unread: readonly UnreadField[];
}) {
  if (named && !sectionShown(record, 'customFields', unread)) return <AbsentSection field="customFields" unread={unread} />;
  const shown = fields.length > 0 || structured.length > 0 || Object.keys(record.customFields ?? {}).length === 0;
  if (!record.customFields || !shown) return null;
  return <CustomFields fields={Object.fromEntries(fields)} structured={structured} />;
}

/**
 * The address or phone number the identity data has none of, named beside the card of the one it has:
 * with a card alone, nothing said the other was missing (UX review). One that was sent but could not be
 * read is not "not provided": the notice above names it, and this line says so; one sent in a form its
 * card cannot read (a list, an object with no `type`) is shown as JSON with the other attributes, and is
 * not named here. Only under identity data that came: a status-level answer has none to miss, and says so once, above.
 */
export function ContactNotShown({
  identities,
  unread,
  aside = [],
  archived = false,
}: {
  identities: CandidateRecord['identities'];
  unread: readonly UnreadField[];
  /** The record is marked archived, yet identity data came: what it lacks is said as absent, the mark named. */
  archived?: boolean;
  /** Attributes sent as an object or a list (other-forms.ts), shown with the other attributes: not missing. */
  aside?: readonly StructuredField[];
}) {
  const missing = (['address', 'phone'] as const).filter((key) => !identities?.[key] && !aside.some((field) => field.name === key));
  const sent = missing.filter((key) => isUnread(unread, `identities.${key}`));
  const absent = missing.filter((key) => !sent.includes(key));
  if (missing.length === 0) return null;
  const words = { address: 'address', phone: 'phone number' };
  return (
    <>
      {absent.length > 0 && (
        <Card as="p" tone="dashed" className="text-sm" data-testid="contact-not-provided">
          No {absent.map((key) => words[key]).join(' or ')} in this response{archived ? ` (${MARKED_ARCHIVED})` : ''}.
        </Card>
      )}
      {sent.map((key) => (
        <Card key={key} as="p" tone="dashed" className="text-sm" data-testid="contact-unread">
          {key === 'address' ? 'Address' : 'Phone number'}: {SENT_UNREAD}.
        </Card>
      ))}
    </>
  );
}
