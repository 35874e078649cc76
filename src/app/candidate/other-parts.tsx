import { notTextWords } from '../../kyc/contract/other-forms.ts';
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
                ({notTextWords({ kind: notText })})
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

/**
 * Said under identity attributes shown as their JSON (other-forms.ts): the service sent them as an object
 * or a list, not as the text its documentation describes. Each is marked beside its value; this says why.
 */
export function SentInOtherFormNote({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <div className="mt-3" data-testid="sent-in-other-form">
      <Notice>
        The KYC service sent {count === 1 ? 'one attribute here' : `${count} attributes here`} in another form, an object or a list, not as
        the text its documentation describes: shown as its JSON, marked “not text”, never read as text.
      </Notice>
    </div>
  );
}
