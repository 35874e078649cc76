import { notTextWords, type StructuredField } from '../../kyc/contract/other-forms.ts';
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

/** The forms an attribute may come in instead of text, in the order the note names them. */
const FORM_ORDER: readonly StructuredField['kind'][] = ['a number', 'true or false', 'null', 'an object', 'a list'];

/**
 * Said under identity attributes sent in another form than text (other-forms.ts): a number, true or
 * false, null, an object or a list. Each is marked beside its value; this says why, naming only the forms
 * that came: a number called "an object or a list… shown as its JSON" sent the reader looking for JSON.
 */
export function SentInOtherFormNote({ fields }: { fields: readonly Pick<StructuredField, 'kind'>[] }) {
  if (fields.length === 0) return null;
  return (
    <div className="mt-3" data-testid="sent-in-other-form">
      <Notice>{otherFormWords(fields)}</Notice>
    </div>
  );
}

/** "…sent one attribute here as a number, …", "…sent 2 attributes here, as a number and as an object, …". */
function otherFormWords(fields: readonly Pick<StructuredField, 'kind'>[]): string {
  const kinds = FORM_ORDER.filter((kind) => fields.some((field) => field.kind === kind));
  const forms = kinds.map((kind) => `as ${kind}`);
  const formWords = forms.length === 1 ? forms[0] : `${forms.slice(0, -1).join(', ')} and ${forms.at(-1)}`;
  const what =
    fields.length === 1
      ? `one attribute here ${formWords}`
      : `${fields.length} attributes here, ${kinds.length === 1 ? 'each ' : ''}${formWords}`;
  const json = kinds.filter((kind) => kind === 'an object' || kind === 'a list');
  const shown = json.length === 0 ? 'shown as sent' : `shown as sent, ${json.join(' or ')} as its JSON`;
  return `The KYC service sent ${what}, not as the text its documentation describes: ${shown}, marked beside the value, never read as text.`;
}
