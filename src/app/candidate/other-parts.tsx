import type { OtherPart } from '../../kyc/view/json-attribute.ts';
import { LongText } from '../ui/long-text.tsx';
import { Notice } from '../ui/section.tsx';

/**
 * The parts of an address or phone the documentation does not name (`county`, `extension`), each under
 * its name as sent: never dropped, shown as text (bidi controls made visible, long values cut, as every
 * value of the service is).
 */
export function OtherParts({ parts }: { parts: readonly OtherPart[] }) {
  if (parts.length === 0) return null;
  return (
    <div className="mt-2 text-sm" data-testid="other-parts">
      <p className="text-xs text-slate-500">Other parts, as sent:</p>
      <ul className="break-words text-slate-900">
        {parts.map(({ name, text, notText }) => (
          <li key={name}>
            <span className="font-mono text-xs text-slate-500">
              <LongText text={name} limit={60} />
            </span>{' '}
            {text === '' ? <span className="text-slate-500 italic">empty</span> : <LongText text={text} limit={200} />}
            {/* Marked as a custom field of that form is (custom-fields.tsx): its JSON, not the service's text. */}
            {notText && (
              <span className="text-xs whitespace-nowrap text-amber-800" data-testid="not-text">
                {' '}
                (not text: {notText}, as JSON)
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Said under an address or phone read from an object: the service sent it in another form than documented. */
export function SentAsObjectNote({ what }: { what: string }) {
  return (
    <div className="mt-2" data-testid="sent-as-object">
      <Notice>
        The KYC service sent this {what} as an object, not as the text its documentation describes: it is shown as read from that object.
      </Notice>
    </div>
  );
}
