import type { UnreadField } from '../../kyc/contract/schema.ts';
import { LongText } from '../ui/long-text.tsx';

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

/** How a header field that is not shown reads: absent from the answer, or there but unreadable. */
export function absentText(field: string, unread: readonly UnreadField[], absent = 'not in this response'): string {
  return unread.some((entry) => entry.field === field) ? 'in the response, but not readable' : absent;
}
