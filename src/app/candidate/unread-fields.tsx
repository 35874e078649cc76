import type { UnreadField } from '../../kyc/contract/schema.ts';
import { REPLACEMENT } from '../../kyc/view/replacement-characters.ts';
import { LongText } from '../ui/long-text.tsx';
import { Notice } from '../ui/section.tsx';

/**
 * The fields the service's answer held but that could not be read (record-reading.ts): each named with
 * what was expected and what kind of value came, never the value. Everything else on the page was read.
 */
export function UnreadFieldsNotice({ unread }: { unread: readonly UnreadField[] }) {
  if (unread.length === 0) return null;
  return (
    <div
      role="note"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      data-testid="unread-fields"
    >
      <p className="font-medium">
        {unread.length === 1 ? 'One field' : `${unread.length} fields`} of the KYC service’s answer could not be read, so{' '}
        {unread.length === 1 ? 'it is' : 'they are'} not shown. Everything else on this page was read as sent.
      </p>
      <ul className="mt-1 list-disc pl-5">
        {unread.map((field) => (
          <li key={field.field}>
            <code className="font-mono break-all">
              <LongText text={field.field} limit={80} />
            </code>
            : {field.expected} expected, {field.found} found
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Characters of the answer this server could not decode, shown as U+FFFD (replacement-characters.ts): said
 * once, beside the fields not read, so that a name shown with "�" in it is not taken as the one sent.
 */
export function UndecodedTextNotice({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <div data-testid="undecoded-text">
      <Notice tone="warning">
        {count === 1 ? '1 character' : `${count.toLocaleString('en-US')} characters`} of the service’s answer could not be read (shown as{' '}
        {REPLACEMENT}).
      </Notice>
    </div>
  );
}

/** The parts of an address or phone that could not be read (json-attribute.ts), under the rest of its card. */
export function UnreadPartsNotice({ unread }: { unread: readonly UnreadField[] }) {
  if (unread.length === 0) return null;
  const parts = unread.map((part) => `${part.field} (${part.expected} expected, ${part.found} found)`).join('; ');
  return (
    <div className="mt-2" data-testid="unread-parts">
      <Notice tone="warning">Not shown, as it could not be read: {parts}. The rest is shown as received.</Notice>
    </div>
  );
}

/** How a header field that is not shown reads: absent from the answer, or there but unreadable. */
export function absentText(field: string, unread: readonly UnreadField[], absent = 'not in this response'): string {
  return unread.some((entry) => entry.field === field) ? 'in the response, but not readable' : absent;
}
