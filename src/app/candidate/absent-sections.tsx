import type { CandidateRecord, UnreadField } from '../../kyc/contract/schema.ts';
import { Card } from '../ui/card.tsx';

/**
 * What the page says where a field of a full record is not shown. A field that was sent but could not be
 * read is said to be that, never "not provided": the notice above the record names it.
 */

/** The words of a field the notice above names as sent but not readable. */
export const SENT_UNREAD = 'sent, but could not be read (see above)';

/** The answer held this field (`identities.email`), and it could not be read (unread-fields.tsx names it). */
export function isUnread(unread: readonly UnreadField[], field: string): boolean {
  return unread.some((entry) => entry.field === field);
}

/**
 * The address or phone number the identity data has none of, named beside the card of the one it has:
 * with a card alone, nothing said the other was missing (UX review). One that was sent but could not be
 * read is not "not provided": the notice above names it, and this line says so. Only under identity data
 * that came: a status-level answer has none to miss, and says so once, above.
 */
export function ContactNotShown({ identities, unread }: { identities: CandidateRecord['identities']; unread: readonly UnreadField[] }) {
  const missing = (['address', 'phone'] as const).filter((key) => !identities?.[key]);
  const sent = missing.filter((key) => isUnread(unread, `identities.${key}`));
  const absent = missing.filter((key) => !sent.includes(key));
  if (missing.length === 0) return null;
  const words = { address: 'address', phone: 'phone number' };
  return (
    <>
      {absent.length > 0 && (
        <Card as="p" tone="dashed" className="text-sm" data-testid="contact-not-provided">
          No {absent.map((key) => words[key]).join(' or ')} was provided.
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
